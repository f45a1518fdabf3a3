// master_embed.cc - dls/embed.h's master: a master core served on the
// program's ORB (or a private one) in a thread of its own, its results
// handed to the program's callback as they are accepted.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <new>

#include "dls/embed.h"
#include "dls/err.h"
#include "dls_sched.h"
#include "master.h"
#include "master_orb.h"
#include "orb_util.hh"
#include "run_auth.h"
#include "sized_options.h"

extern "C" void dls_embed_master_options_init_size(struct dls_embed_master_options *o,
						   size_t size)
{
	struct dls_embed_master_options d;

	memset(&d, 0, sizeof(d));
	d.workload = "mandelbrot";
	d.scheme = "dtss";
	d.register_timeout_ms = 30000;
	d.ping_ms = 500;
	d.ping_timeout_ms = 3000;
	d.rejoin_ms = 30000;
	sized_options_init(o, size, &d, sizeof(d));
}

struct dls_embed_master {
	pthread_t thread;
	struct master *m;
	struct master_orb_opts oo;
	struct run_secret secret;
	int rc;
	void (*on_result)(void *user, int64_t index, const void *data, size_t bytes);
	void (*on_loop_result)(void *user, uint32_t loop, int64_t index, const void *data,
			       size_t bytes);
	void *user;
	// a run of many loops: the serving thread and the program meet
	// between loops (loop_done: every result of the loop is in; next: 1
	// the next loop started, 0 the run ends; finished: the thread ended)
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int loop_done, next, finished, ended;
};

static void *master_thread(void *arg)
{
	struct dls_embed_master *e = (struct dls_embed_master *)arg;
	int rc = master_orb_run(e->m, &e->oo);

	pthread_mutex_lock(&e->lock);
	e->rc = rc;
	e->finished = 1;
	pthread_cond_broadcast(&e->cond);
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

// The serving thread, every result of a loop in: waits for the program.
static int between_loops(void *ctx)
{
	struct dls_embed_master *e = (struct dls_embed_master *)ctx;
	int next;

	pthread_mutex_lock(&e->lock);
	e->loop_done = 1;
	pthread_cond_broadcast(&e->cond);
	while (e->next < 0 && !e->ended)
		pthread_cond_wait(&e->cond, &e->lock);
	next = e->next > 0 ? 1 : 0;
	e->next = -1;
	e->loop_done = 0;
	pthread_mutex_unlock(&e->lock);
	return next;
}

// The results, under the master's lock, to the program's callback: with
// the loop's number, or (on_result) without it.
static void loop_sink(void *ctx, uint32_t loop, int64_t index, const void *data, size_t bytes)
{
	struct dls_embed_master *e = (struct dls_embed_master *)ctx;

	e->on_loop_result(e->user, loop, index, data, bytes);
}

static void plain_sink(void *ctx, uint32_t loop, int64_t index, const void *data, size_t bytes)
{
	struct dls_embed_master *e = (struct dls_embed_master *)ctx;

	(void)loop;
	e->on_result(e->user, index, data, bytes);
}

// A new run's loop and scheme from the options; DLS_OK or DLS_EINVAL with why.
static int new_run_config(const struct dls_embed_master_options *o, struct master_config *c,
			  char *why, size_t len)
{
	enum sched_kind kind;

	if (!o->run || !*o->run || strchr(o->run, '/') || strlen(o->run) >= sizeof(c->run_name) ||
	    !o->workload || strlen(o->workload) >= sizeof(c->workload) || o->nparams < 0 ||
	    o->nparams > DLS_MAX_PARAMS || (o->nparams && !o->params)) {
		snprintf(why, len, "a run name of 1..63 characters without '/', a workload name "
				   "and at most 16 parameters are required");
		return DLS_EINVAL;
	}
	if (sched_kind_parse(o->scheme ? o->scheme : "dtss", &kind)) {
		snprintf(why, len, "unknown scheme '%s'", o->scheme);
		return DLS_EINVAL;
	}
	snprintf(c->run_name, sizeof(c->run_name), "%s", o->run);
	snprintf(c->workload, sizeof(c->workload), "%s", o->workload);
	if (o->nparams) /* params may be NULL without any */
		memcpy(c->params, o->params, (size_t)o->nparams * sizeof(*o->params));
	c->nparams = o->nparams;
	sched_params_init(&c->sched);
	c->sched.kind = kind;
	c->nslaves = o->slaves;
	c->order = o->interleaved ? ITER_ORDER_INTERLEAVED : ITER_ORDER_NATURAL;
	c->collect = o->collect_end ? DLS_COLLECT_END : DLS_COLLECT_PIGGYBACK;
	c->register_timeout_ms = o->register_timeout_ms;
	c->verify = o->verify; /* master_create refuses one outside 0..1 */
	c->start_timeout_ms = 3000;
	c->wait_ms = 20;
	c->early_wait_ms = MASTER_EARLY_WAIT_MS;
	if (o->journal_dir)
		snprintf(c->journal_dir, sizeof(c->journal_dir), "%s", o->journal_dir);
	return DLS_OK;
}

// The core's configuration: a new run's from the options, or (resume) the
// journal's; then what applies to both.  DLS_OK, or an error with why.
static int config_from(const struct dls_embed_master_options *o, struct master_config *c,
		       char *why, size_t len)
{
	char mwhy[MASTER_WHY_LEN] = "";
	int rc;

	memset(c, 0, sizeof(*c));
	if (o->journal_dir && strlen(o->journal_dir) >= sizeof(c->journal_dir)) {
		snprintf(why, len, "journal_dir '%s' is too long", o->journal_dir);
		return DLS_EINVAL;
	}
	if (o->resume && !o->journal_dir) {
		snprintf(why, len, "resume needs journal_dir: the folder of the journal to resume");
		return DLS_EINVAL;
	}
	if (o->resume) { /* the run's configuration is the journal's */
		rc = master_journal_config(o->journal_dir, c, mwhy);
		if (rc)
			snprintf(why, len, "cannot resume: %s", mwhy);
	} else {
		rc = new_run_config(o, c, why, len);
	}
	if (rc)
		return rc;
	if (o->loops < 0) {
		snprintf(why, len, "loops %d: 0 or more", o->loops);
		return DLS_EINVAL;
	}
	c->journal_os = !o->journal_disk;
	c->rejoin_ms = o->rejoin_ms;
	if (!o->resume) /* a resumed run's is the journal's */
		c->loops = o->loops;
	return DLS_OK;
}

extern "C" int dls_embed_master_start(const struct dls_embed_master_options *given,
				      struct dls_embed_master **out, char *why, size_t len)
{
	char mwhy[MASTER_WHY_LEN] = "";
	struct dls_embed_master_options full, *o = &full;
	struct master_config c;
	struct dls_embed_master *e;
	int rc;

	*out = NULL;
	dls_embed_master_options_init(&full);
	if (sized_options_merge(&full, sizeof(full), given)) {
		snprintf(why, len, "options not made by dls_embed_master_options_init");
		return DLS_EINVAL;
	}
	if (CORBA::is_nil(dls_orb())) {
		snprintf(why, len, "no ORB: start one (dls_orb_start) or lend the program's "
				   "(dls_embed_use_orb)");
		return DLS_ESTATE;
	}
	rc = config_from(o, &c, why, len);
	if (rc)
		return rc;
	e = new (std::nothrow) dls_embed_master();
	if (!e) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->cond, NULL);
	e->next = -1;
	e->on_result = o->on_result;
	e->on_loop_result = o->on_loop_result;
	e->user = o->user;
	c.sink = o->on_loop_result ? loop_sink : o->on_result ? plain_sink : NULL;
	c.sink_ctx = e;
	if (run_secret_load(&e->secret, o->secret_file, why, len)) {
		delete e;
		return DLS_EINVAL;
	}
	c.journal_key.set = run_auth_journal_key(&e->secret, c.journal_key.bytes);
	e->m = master_open(&c, &rc, mwhy);
	if (!e->m) {
		snprintf(why, len, "%s", mwhy);
		delete e;
		return rc;
	}
	e->oo.serve.out.quiet = 1;
	e->oo.serve.ior_file = o->ior_file;
	e->oo.serve.ping_ms = o->ping_ms;
	e->oo.serve.ping_timeout_ms = o->ping_timeout_ms;
	e->oo.relay_grace_ms = DLS_RELAY_GRACE_MS;
	e->oo.stall_ms = DLS_STALL_MS;
	e->oo.dismiss_timeout_ms = 5000;
	e->oo.serve.secret = &e->secret;
	if (c.loops > 1) {
		e->oo.between_loops = between_loops;
		e->oo.between_ctx = e;
	}
	if (pthread_create(&e->thread, NULL, master_thread, e)) {
		snprintf(why, len, "cannot start the master's thread");
		master_destroy(e->m);
		delete e;
		return DLS_ENOMEM;
	}
	*out = e;
	return DLS_OK;
}

extern "C" int dls_embed_master_loop_wait(struct dls_embed_master *e, uint32_t *loop, double *t_p,
					  char *why, size_t len)
{
	int rc = DLS_OK;

	pthread_mutex_lock(&e->lock);
	while (!e->loop_done && !e->finished)
		pthread_cond_wait(&e->cond, &e->lock);
	if (!e->loop_done && e->rc) {
		snprintf(why, len, "the run failed (see the log)");
		rc = DLS_EREMOTE;
	}
	pthread_mutex_unlock(&e->lock);
	if (loop)
		*loop = master_loop(e->m);
	if (t_p)
		*t_p = rc ? 0 : result_store_elapsed(master_results(e->m));
	return rc;
}

extern "C" int dls_embed_master_next_loop(struct dls_embed_master *e,
					  const struct dls_param *params, int nparams, char *why,
					  size_t len)
{
	char mwhy[MASTER_WHY_LEN] = "";
	int rc;

	pthread_mutex_lock(&e->lock);
	if (!e->loop_done || e->ended) {
		pthread_mutex_unlock(&e->lock);
		snprintf(why, len, "the current loop is not done (dls_embed_master_loop_wait)");
		return DLS_ESTATE;
	}
	rc = master_next_loop(e->m, params, nparams, mwhy);
	if (!rc) {
		e->next = 1;
		e->loop_done = 0; /* loop_wait waits for the new loop */
		pthread_cond_broadcast(&e->cond);
	}
	pthread_mutex_unlock(&e->lock);
	if (rc)
		snprintf(why, len, "%s", mwhy);
	return rc;
}

extern "C" int dls_embed_master_wait(struct dls_embed_master *e, struct dls_status *status,
				     char *why, size_t len)
{
	int rc;

	pthread_mutex_lock(&e->lock); // a run of many loops ends after the current one
	master_end_loops(e->m);
	e->ended = 1;
	pthread_cond_broadcast(&e->cond);
	pthread_mutex_unlock(&e->lock);
	pthread_join(e->thread, NULL);
	rc = e->rc ? DLS_EREMOTE : DLS_OK;
	snprintf(why, len, "%s", rc ? "the run failed (see the log)" : "");
	if (status && master_snapshot(e->m, status))
		memset(status, 0, sizeof(*status));
	master_destroy(e->m);
	pthread_mutex_destroy(&e->lock);
	pthread_cond_destroy(&e->cond);
	delete e;
	return rc;
}
