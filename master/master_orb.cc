// master_orb.cc - the master process around its servant: it publishes the
// servant and hands the master core to the run loop (common/serve/run_loop.c:
// liveness, progress, the end); here only the ORB calls.
#include "master_orb.h"

#include <stdio.h>

#include <vector>

#include "dls/err.h"
#include "dls_log.h"
#include "master_servant.hh"
#include "npy_file.h"
#include "orb_util.hh"
#include "publish.hh"
#include "proto_conv.hh"
#include "run_loop.h"
#include "timeline.h"

struct served {
	struct master *m;
	Master_i *servant;
	const struct master_orb_opts *o;
	std::vector<struct run_report_loop> loops; // a run of many loops: each one's figures
	struct npy_stream *npy;			   // and its results, plane by plane
};

static size_t holding(void *ctx, int *ids, size_t max)
{
	return master_slaves_holding(((served *)ctx)->m, ids, max);
}

static int ping(void *ctx, int id, char *why, size_t len)
{
	served *s = (served *)ctx;

	// after a resume, a slave is not lost while it may still rejoin
	if (master_awaiting_rejoin(s->m, id))
		return 0;
	if (s->servant->ping(id, why, len))
		return 1;
	// it answers; does its computation advance?
	return master_check_stall(s->m, id, s->o->stall_ms, why, len);
}

static void lost(void *ctx, int id, const char *why)
{
	master_slave_lost(((served *)ctx)->m, id, why);
}

static int wait_done(void *ctx, int timeout_ms)
{
	return master_wait_loop_done(((served *)ctx)->m, timeout_ms);
}

static int all_lost(void *ctx)
{
	return master_all_lost(((served *)ctx)->m);
}

static int snapshot(void *ctx, struct dls_status *out)
{
	return master_snapshot(((served *)ctx)->m, out);
}

// Tells the slaves master_slaves_to_stop names that the run is over.
static void dismiss(void *ctx)
{
	served *s = (served *)ctx;
	std::vector<int> ids(MASTER_MAX_SLAVES);
	size_t n = master_slaves_to_stop(s->m, ids.data(), ids.size());

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		DLS::Slave_var ref = s->servant->slave_ref(ids[i]);
		if (CORBA::is_nil(ref)) {
			master_slave_lost(s->m, ids[i], "did not rejoin after the master resumed");
			continue;
		}
		try {
			ref->stop(master_child_key(s->m, ids[i]), "the run is complete");
			master_slave_dismissed(s->m, ids[i]);
		} catch (const CORBA::Exception &) {
			master_slave_lost(s->m, ids[i], "no answer to stop");
		}
	}
	if (master_wait_dismissed(s->m, s->o->dismiss_timeout_ms))
		log_warn("some slaves did not ask again after the last result");
}

// The report of the loop whose results are all in: 0, or 1 (no snapshot).
static int build_report(served *s, struct run_report *r)
{
	struct dls_job job;
	struct dls_status st;

	if (master_snapshot(s->m, &st))
		return 1;
	master_job(s->m, &job);
	run_report_build(r, &job, &st, master_results(s->m), &s->o->serve.out, master_clock_lead(s->m),
			 NULL);
	return 0;
}

// A loop of a run of many loops is done: its figures and results are
// kept, and the next loop starts (it may have started already).
static int loop_done(void *ctx)
{
	served *s = (served *)ctx;
	const struct result_store *rs;
	struct dls_job job;
	struct dls_status st;
	struct run_report r;
	char why[MASTER_WHY_LEN];
	int more;

	if (master_config_of(s->m)->loops < 2)
		return 0;
	rs = master_loop_results(s->m);
	if (master_snapshot(s->m, &st))
		return -1;
	master_job(s->m, &job);
	st.elapsed = result_store_elapsed(rs); // the next loop may run already
	run_report_build(&r, &job, &st, rs, &s->o->serve.out, master_clock_lead_of(s->m, rs), NULL);
	s->loops.push_back({rs->loop, rs->work.loop.iterations, rs->t_start, rs->t_end,
			    result_store_elapsed(rs), r.t_ideal, r.efficiency, r.work, 0,
			    rs->all_given});
	if (s->loops.size() > 1) // the loop before ended in this process too
		s->loops.back().gap = rs->t_start - s->loops[s->loops.size() - 2].t_end;
	run_report_free(&r);
	if (s->npy && npy_stream_append(s->npy, rs->data))
		return -1;
	more = master_loop_consumed(s->m);
	if (!more || master_config_of(s->m)->auto_loops)
		return more;
	if (s->o->between_loops)
		return s->o->between_loops(s->o->between_ctx);
	if (master_next_loop(s->m, NULL, 0, why)) {
		fprintf(stderr, "dls-master: cannot start loop %u: %s\n", master_loop(s->m) + 1,
			why);
		return -1;
	}
	return 1;
}

static int write_outputs(void *ctx)
{
	served *s = (served *)ctx;
	struct run_outputs out = s->o->serve.out;
	struct run_report r;
	struct timeline tl = {};
	int rc;

	if (build_report(s, &r))
		return 1;
	run_report_set_loops(&r, s->loops.data(), s->loops.size());
	if (!master_timeline(s->m, &tl))
		r.timeline = &tl;
	if (s->npy) // written loop by loop
		out.npy = NULL;
	rc = run_report_write(&r, master_results(s->m), &out);
	if (r.snap.verify.unresolved) {
		log_err("--verify: %lld pieces unresolved (no two copies agreed): these results "
			"are not to be trusted",
			(long long)r.snap.verify.unresolved);
		rc = 1;
	}
	if (s->npy) {
		rc |= npy_stream_close(s->npy) ? 1 : 0;
		s->npy = NULL;
	}
	run_report_free(&r);
	timeline_free(&tl);
	return rc;
}

// The end, while the ORB still dispatches: no operation is left inside
// the core (later ones are refused), and no child's reference is kept.
static void quiesce(void *ctx)
{
	served *s = (served *)ctx;

	s->servant->detach_core();
	master_close(s->m);
	s->servant->forget_refs();
}

extern "C" int master_orb_run(struct master *m, const struct master_orb_opts *o)
{
	const struct master_config *c = master_config_of(m);
	struct dls_job job;

	master_job(m, &job);
	Master_i *servant = new Master_i(m, proto_job_out(job), o->serve.ping_timeout_ms, o->serve.secret);
	servant->set_relay_grace_ms(o->relay_grace_ms);
	served s = {m, servant, o, {}, NULL};
	struct run_loop_ops ops = {&s,	      "dls-master",  {&s, holding, ping, lost},
				   wait_done, all_lost,	     snapshot,
				   dismiss,   write_outputs, o->serve.timeout_s,
				   loop_done, quiesce};
	const struct result_store *rs = master_results(m);
	int status;

	// a resumed master goes on from its loop: the ones before are in the file
	if (c->loops > 1 && o->serve.out.npy &&
	    (master_resumed(m)
		 ? npy_stream_reopen(&s.npy, o->serve.out.npy, rs->work.loop.dtype, c->loops,
				     rs->work.loop.iterations, rs->work.loop.result_bytes,
				     master_loop(m))
		 : npy_stream_open(&s.npy, o->serve.out.npy, rs->work.loop.dtype, c->loops,
				   rs->work.loop.iterations, rs->work.loop.result_bytes))) {
		fprintf(stderr, "dls-master: cannot write '%s'\n", o->serve.out.npy);
		return 1;
	}
	status = dls_serve(servant, o->serve.ior_file, c->run_name, "master", c->nslaves,
			   o->serve.secret, &ops, o->serve.ping_ms, o->serve.progress);
	npy_stream_close(s.npy); // the run ended before its last loop: no file
	return status;
}
