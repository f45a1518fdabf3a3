/*
 * test_out_files.c - an output held from the start is written at the end
 * even when every other descriptor of the process is taken (as idle
 * connections take them), and one never written is removed again if it
 * was made for it.
 */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "out_files.h"
#include "suites.h"

/* In a child (its descriptor table and exit are its own): hold a file,
 * take every descriptor left, then write the held file.  Exit 0 when the
 * write worked, 1 when fopen alone would have failed, else 2. */
static int child(const char *held, const char *unheld)
{
	struct rlimit rl = {64, 64};
	FILE *f;

	if (setrlimit(RLIMIT_NOFILE, &rl) || out_files_hold(held))
		_exit(2);
	while (open("/dev/null", O_RDONLY) >= 0) /* the flood */
		;
	if (errno != EMFILE)
		_exit(2);
	if (fopen(unheld, "w")) /* not held: no descriptor for it */
		_exit(2);
	f = out_file_open(held, "w");
	if (!f || fputs("results\n", f) == EOF || fclose(f))
		_exit(1);
	_exit(0);
}

static void test_held_outputs(void)
{
	char dir[] = "/tmp/dls-out-XXXXXX", held[64], unheld[64], buf[32] = "";
	int st = -1;
	pid_t pid;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(held, sizeof(held), "%s/results.pgm", dir);
	snprintf(unheld, sizeof(unheld), "%s/other.pgm", dir);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(held, unheld);
	CU_ASSERT_FATAL(pid > 0 && waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	f = fopen(held, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(buf, sizeof(buf), f));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "results\n");
	/* held and never written: the file it made is gone at its exit (exit,
	 * not _exit: the removal is an atexit handler's) */
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		exit(out_files_hold(unheld) ? 2 : 0);
	CU_ASSERT_FATAL(pid > 0 && waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CU_ASSERT_NOT_EQUAL(access(unheld, F_OK), 0);
	unlink(held);
	rmdir(dir);
}

int out_files_suite_add(void)
{
	CU_pSuite s = CU_add_suite("out_files", NULL, NULL);

	return !s || !CU_add_test(s, "held outputs written when descriptors run out",
				  test_held_outputs);
}
