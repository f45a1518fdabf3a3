// coordinator_orb.cc - the coordinator process around its servant: it
// publishes the servant and hands the coordinator core to the run loop
// (common/serve/run_loop.c: liveness, progress, the end); here only the ORB calls,
// among them the repairs the core decides after a loss.
#include "coordinator_orb.h"

#include <stdio.h>

#include <vector>

#include "coordinator_servant.hh"
#include "dls/err.h"
#include "dls_log.h"
#include "orb_util.hh"
#include "publish.hh"
#include "proto_conv.hh"
#include "run_loop.h"

struct served {
	struct coordinator *c;
	Coordinator_i *servant;
	const struct coordinator_orb_opts *o;
};

// Any living slave may hold work: work moves between them.
static size_t living(void *ctx, int *ids, size_t max)
{
	return coordinator_living(((served *)ctx)->c, ids, max);
}

static int ping(void *ctx, int id, char *why, size_t len)
{
	return ((served *)ctx)->servant->ping_slave(id, why, len);
}

static void lost(void *ctx, int id, const char *why)
{
	served *s = (served *)ctx;
	struct coordinator_repair rep;

	if (!coordinator_lost(s->c, id, why, &rep))
		s->servant->repair(rep);
	coordinator_repair_free(&rep);
}

static int wait_done(void *ctx, int timeout_ms)
{
	return coordinator_wait_done(((served *)ctx)->c, timeout_ms);
}

static int all_lost(void *ctx)
{
	return coordinator_all_lost(((served *)ctx)->c);
}

static int snapshot(void *ctx, struct dls_status *out)
{
	return coordinator_snapshot(((served *)ctx)->c, out);
}

// Tree Scheduling's slaves never ask the coordinator: each is told to stop.
static void dismiss(void *ctx)
{
	served *s = (served *)ctx;
	std::vector<int> ids(COORDINATOR_MAX_SLAVES);
	size_t n = coordinator_living(s->c, ids.data(), ids.size());

	for (size_t i = 0; i < n; i++) {
		DLS::PlacedSlave_var ref = s->servant->reach(ids[i]);
		try {
			ref->stop(coordinator_child_key(s->c, ids[i]), "the run is complete");
			coordinator_dismissed(s->c, ids[i]);
		} catch (const CORBA::Exception &e) {
			char why[256];

			// every result is in: it finished its work, whatever became of
			// it since (it exits as soon as it hears stop, often before its
			// answer leaves; or too busy to answer in time), so it is not
			// "lost" in the report
			dls_corba_error(e, why, sizeof(why));
			log_info("slave %d did not answer stop (%s); every result is in", ids[i],
				 why);
			coordinator_dismissed(s->c, ids[i]);
		}
	}
}

static int write_outputs(void *ctx)
{
	served *s = (served *)ctx;
	struct dls_job job;
	struct run_report_tree tree;
	struct dls_status st;
	struct run_report r;
	int rc, have_tree;

	if (coordinator_snapshot(s->c, &st))
		return 1;
	coordinator_job(s->c, &job);
	have_tree = !coordinator_tree_stats(s->c, &tree);
	/* 0: the chain starts the run as registration closes, before any
	 * slave's load clock (set when its registration returns) */
	run_report_build(&r, &job, &st, coordinator_results(s->c), &s->o->serve.out, 0,
			 have_tree ? &tree : NULL);
	rc = run_report_write(&r, coordinator_results(s->c), &s->o->serve.out);
	run_report_free(&r);
	if (have_tree)
		run_report_tree_free(&tree);
	return rc;
}

// The end, while the ORB still dispatches: no operation is left inside
// the core (later ones are refused), and no slave's reference is kept.
static void quiesce(void *ctx)
{
	served *s = (served *)ctx;

	s->servant->detach_core();
	coordinator_close(s->c);
	s->servant->forget_refs();
}

extern "C" int coordinator_orb_run(struct coordinator *c, const struct coordinator_orb_opts *o)
{
	const struct coordinator_config *cfg = coordinator_config_of(c);
	struct dls_job job;

	coordinator_job(c, &job);
	Coordinator_i *servant =
	    new Coordinator_i(c, proto_job_out(job), o->serve.ping_timeout_ms, o->serve.secret);
	served s = {c, servant, o};
	if (coordinator_resumed(c))
		servant->resume();
	struct run_loop_ops ops = {&s,	     "dls-treesched", {&s, living, ping, lost},
				   wait_done, all_lost,	       snapshot,
				   dismiss,   write_outputs,   o->serve.timeout_s, NULL, quiesce};

	return dls_serve(servant, o->serve.ior_file, cfg->run_name, "treesched", cfg->nslaves,
			 o->serve.secret, &ops, o->serve.ping_ms, o->serve.progress);
}
