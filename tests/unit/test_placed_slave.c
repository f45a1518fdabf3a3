/*
 * Unit tests of a slave the coordinator places (slave/slave_placed.c),
 * without CORBA: its coordinator is this file.  A stop that comes while
 * the slave still reports (a copy of work given again after a failure)
 * ends its run well even when that last report is refused; a run of two
 * loops computes both, each report stamped with its loop.
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "master_testutil.h"
#include "slave_placed.h"
#include "suites.h"
#include "work.h"

#define WIDTH 40

struct coord {
	struct slave_placed *s;
	struct placement a;
	pthread_mutex_t lock;
	int stop_at_report;	  /* the report that says stop and is refused (0: none) */
	int reports;		  /* reports so far */
	int64_t per_loop[2];	  /* iterations reported, by loop */
	int wrong_loop;		  /* a block of another loop than the current */
	uint32_t loop;		  /* the current loop */
	int rc;
};

static int op_register(void *ctx, const char *name, double speed, struct placement *a,
		       char *why, size_t len)
{
	struct coord *c = ctx;

	(void)name, (void)speed, (void)why, (void)len;
	*a = c->a;
	return DLS_OK;
}

/* Results: counted by loop; the stop_at_report-th says stop and is
 * refused, as by a coordinator that closed meanwhile. */
static int op_report(void *ctx, int id, const struct dls_result *res, size_t n,
		     const struct dls_times *times, char *why, size_t len)
{
	struct coord *c = ctx;
	int refuse;

	(void)id, (void)times;
	pthread_mutex_lock(&c->lock);
	refuse = ++c->reports == c->stop_at_report;
	for (size_t b = 0; !refuse && b < n; b++) {
		c->wrong_loop |= res[b].loop != c->loop;
		c->per_loop[res[b].loop < 2 ? res[b].loop : 1] += res[b].count;
	}
	pthread_mutex_unlock(&c->lock);
	if (!refuse)
		return DLS_OK;
	slave_placed_on_stop(c->s);
	snprintf(why, len, "refused: the run is over");
	return DLS_EINVAL;
}

static int op_none(void *ctx, enum tree_side side, int from, char *why, size_t len)
{
	(void)ctx, (void)side, (void)from, (void)why, (void)len;
	return DLS_OK;
}

static void *run(void *arg)
{
	struct coord *c = arg;
	struct placed_ops ops = {c, op_register, op_report, NULL, op_none, NULL,
				 NULL, NULL, NULL, NULL};
	struct slave_config cfg;
	struct dls_slave_stats st;
	struct placed_stats ts = {0, 0, 0, 0};
	char why[256];

	slave_config_init(&cfg);
	cfg.t_iter_ns = 1;
	c->rc = slave_placed_run(c->s, &cfg, &ops, &st, &ts, why, sizeof(why));
	return NULL;
}

/* A slave of a one-slave chain placed with the whole loop. */
static void setup(struct coord *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->s = slave_placed_create();
	CU_ASSERT_PTR_NOT_NULL_FATAL(c->s);
	tu_mandel_job(&c->a.job, WIDTH, 2, 16);
	c->a.vpower = 1;
	c->a.count = WIDTH;
	c->a.stride = 1;
	c->a.tau = 1;
	c->a.left_id = c->a.right_id = -1;
	c->a.report_interval = 0; /* reports when out of work */
}

static void teardown(struct coord *c)
{
	slave_placed_destroy(c->s);
	pthread_mutex_destroy(&c->lock);
}

/* Stop comes with the refusal of its last report: the run ended well. */
static void test_refused_after_stop(void)
{
	struct coord c;
	pthread_t t;

	setup(&c);
	c.stop_at_report = 1;
	CU_ASSERT_FATAL(pthread_create(&t, NULL, run, &c) == 0);
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(c.rc, DLS_OK);
	teardown(&c);
}

/* The iterations of loop `loop` reported, once all WIDTH are or after 10 s. */
static int64_t reported(struct coord *c, int loop)
{
	int64_t done = 0;

	for (int k = 0; k < 10000 && done < WIDTH; k++) {
		pthread_mutex_lock(&c->lock);
		done = c->per_loop[loop];
		pthread_mutex_unlock(&c->lock);
		if (done < WIDTH)
			usleep(1000);
	}
	return done;
}

/* Two loops: the first computed and ended, the second placed with its job
 * (dls.loop=1) and computed, every block stamped with its loop. */
static void test_two_loops(void)
{
	struct placement next;
	struct coord c;
	pthread_t t;
	char why[256];

	setup(&c);
	CU_ASSERT_FATAL(pthread_create(&t, NULL, run, &c) == 0);
	CU_ASSERT_EQUAL_FATAL(reported(&c, 0), WIDTH);
	CU_ASSERT_EQUAL(slave_placed_end_loop(c.s, 0), DLS_OK);
	next = c.a;
	CU_ASSERT_EQUAL_FATAL(work_params_set_loop(next.job.params, &next.job.nparams, 1), DLS_OK);
	pthread_mutex_lock(&c.lock);
	c.loop = 1;
	pthread_mutex_unlock(&c.lock);
	CU_ASSERT_EQUAL(slave_placed_next_loop(c.s, &next, why, sizeof(why)), DLS_OK);
	/* placed again in the loop it runs: answered at once */
	CU_ASSERT_EQUAL(slave_placed_next_loop(c.s, &next, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(reported(&c, 1), WIDTH);
	slave_placed_on_stop(c.s);
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(c.rc, DLS_OK);
	CU_ASSERT_FALSE(c.wrong_loop);
	teardown(&c);
}

int placed_slave_suite_add(void)
{
	CU_pSuite s = CU_add_suite("placed slave", NULL, NULL);

	return !s || !CU_add_test(s, "a report refused after stop ends the run well",
				  test_refused_after_stop) ||
	       !CU_add_test(s, "two loops, each placed, every block of its loop",
			    test_two_loops);
}
