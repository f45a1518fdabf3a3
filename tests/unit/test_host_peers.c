/*
 * test_host_peers.c - the run's computing threads on this host: threads
 * that joined and compute count (the asking thread not), threads that left
 * do not, an entry whose thread is gone is removed, and a run name that is
 * not a plain file name counts nothing.
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_peers.h"
#include "suites.h"

struct spinner {
	pthread_t thread;
	struct host_peers peers;
	const char *run;
	atomic_int joined, stop;
};

/* Joins the run and computes (spins) until told to stop: always state R. */
static void *spin(void *arg)
{
	struct spinner *s = arg;

	host_peers_join(&s->peers, s->run);
	atomic_store(&s->joined, 1);
	while (!atomic_load(&s->stop))
		;
	host_peers_leave(&s->peers);
	return NULL;
}

static void test_counts_computing_threads(void)
{
	char run[64], stale[512];
	struct spinner sp[2];
	struct host_peers me;
	FILE *f;

	snprintf(run, sizeof(run), "unit-%ld", (long)getpid());
	for (int i = 0; i < 2; i++) {
		memset(&sp[i], 0, sizeof(sp[i]));
		sp[i].run = run;
		CU_ASSERT_FATAL(pthread_create(&sp[i].thread, NULL, spin, &sp[i]) == 0);
	}
	while (!atomic_load(&sp[0].joined) || !atomic_load(&sp[1].joined))
		usleep(1000);
	CU_ASSERT_EQUAL(host_peers_join(&me, run), 1);
	CU_ASSERT_EQUAL(host_peers_running(&me), 2); /* not the asking thread */
	/* a crashed process's entry: not counted, removed */
	snprintf(stale, sizeof(stale), "%s/%d.%d", me.dir, 999999999, 999999999);
	f = fopen(stale, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	CU_ASSERT_EQUAL(host_peers_running(&me), 2);
	CU_ASSERT_NOT_EQUAL(access(stale, F_OK), 0);
	for (int i = 0; i < 2; i++) {
		atomic_store(&sp[i].stop, 1);
		pthread_join(sp[i].thread, NULL);
	}
	CU_ASSERT_EQUAL(host_peers_running(&me), 0);
	host_peers_leave(&me);
	host_peers_leave(&me); /* idempotent */
	CU_ASSERT_EQUAL(rmdir(me.dir), 0); /* every entry is gone */
}

static void test_names_that_are_not_files(void)
{
	const char *bad[] = {"..", ".hidden", "a b", "x/y", ""};
	struct host_peers p;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		CU_ASSERT_EQUAL(host_peers_join(&p, bad[i]), 0);
		CU_ASSERT_EQUAL(host_peers_running(&p), 0);
		host_peers_leave(&p);
	}
}

int host_peers_suite_add(void)
{
	CU_pSuite s = CU_add_suite("host_peers", NULL, NULL);

	return !s ||
	       !CU_add_test(s, "counts the run's computing threads, not the asker",
			    test_counts_computing_threads) ||
	       !CU_add_test(s, "a run name that is no file name counts nothing",
			    test_names_that_are_not_files);
}
