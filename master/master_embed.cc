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

extern "C" void dls_embed_master_options_init(struct dls_embed_master_options *o)
{
	memset(o, 0, sizeof(*o));
	o->workload = "mandelbrot";
	o->scheme = "dtss";
	o->register_timeout_ms = 30000;
	o->ping_ms = 500;
	o->ping_timeout_ms = 3000;
	o->rejoin_ms = 30000;
}

struct dls_embed_master {
	pthread_t thread;
	struct master *m;
	struct master_orb_opts oo;
	struct run_secret secret;
	int rc;
};

static void *master_thread(void *arg)
{
	struct dls_embed_master *e = (struct dls_embed_master *)arg;

	e->rc = master_orb_run(e->m, &e->oo);
	return NULL;
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
	memcpy(c->params, o->params, (size_t)o->nparams * sizeof(*o->params));
	c->nparams = o->nparams;
	sched_params_init(&c->sched);
	c->sched.kind = kind;
	c->nslaves = o->slaves;
	c->order = o->interleaved ? ITER_ORDER_INTERLEAVED : ITER_ORDER_NATURAL;
	c->collect = o->collect_end ? DLS_COLLECT_END : DLS_COLLECT_PIGGYBACK;
	c->register_timeout_ms = o->register_timeout_ms;
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
	c->journal_os = !o->journal_disk;
	c->rejoin_ms = o->rejoin_ms;
	c->sink = o->on_result;
	c->sink_ctx = o->user;
	return DLS_OK;
}

extern "C" int dls_embed_master_start(const struct dls_embed_master_options *o,
				      struct dls_embed_master **out, char *why, size_t len)
{
	char mwhy[MASTER_WHY_LEN] = "";
	struct master_config c;
	struct dls_embed_master *e;
	int rc;

	*out = NULL;
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
	if (run_secret_load(&e->secret, o->secret_file, why, len)) {
		delete e;
		return DLS_EINVAL;
	}
	e->m = master_open(&c, &rc, mwhy);
	if (!e->m) {
		snprintf(why, len, "%s", mwhy);
		delete e;
		return rc;
	}
	e->oo.out.quiet = 1;
	e->oo.ior_file = o->ior_file;
	e->oo.ping_ms = o->ping_ms;
	e->oo.ping_timeout_ms = o->ping_timeout_ms;
	e->oo.relay_grace_ms = DLS_RELAY_GRACE_MS;
	e->oo.stall_ms = DLS_STALL_MS;
	e->oo.dismiss_timeout_ms = 5000;
	e->oo.secret = &e->secret;
	if (pthread_create(&e->thread, NULL, master_thread, e)) {
		snprintf(why, len, "cannot start the master's thread");
		master_destroy(e->m);
		delete e;
		return DLS_ENOMEM;
	}
	*out = e;
	return DLS_OK;
}

extern "C" int dls_embed_master_wait(struct dls_embed_master *e, struct dls_status *status,
				     char *why, size_t len)
{
	int rc;

	pthread_join(e->thread, NULL);
	rc = e->rc ? DLS_EREMOTE : DLS_OK;
	snprintf(why, len, "%s", rc ? "the run failed (see the log)" : "");
	if (status && master_snapshot(e->m, status))
		memset(status, 0, sizeof(*status));
	master_destroy(e->m);
	delete e;
	return rc;
}
