// coordinator_orb.cc - the coordinator process around its servant: it
// publishes the servant and hands the coordinator core to the run loop
// (common/serve/run_loop.c: liveness, progress, the end); here only the ORB calls,
// among them the repairs the core decides after a loss.
#include "coordinator_orb.h"

#include <stdio.h>

#include <atomic>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "coordinator_servant.hh"
#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "orb_util.hh"
#include "publish.hh"
#include "proto_conv.hh"
#include "npy_file.h"
#include "run_loop.h"

struct served {
	struct coordinator *c;
	Coordinator_i *servant;
	const struct coordinator_orb_opts *o;
	std::vector<struct run_report_loop> loops; // a run of many loops: each one's figures
	struct npy_stream *npy;			   // and its results, plane by plane
	double placed_at; // when every slave was placed for the current loop (0: the first)
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

// The figures of the loop whose results are all in, and its results into
// the file of every loop: 0, or -1 (said).
static int keep_loop(served *s)
{
	const struct result_store *rs = coordinator_results(s->c);
	struct dls_job job;
	struct dls_status st;
	struct run_report r;

	if (coordinator_snapshot(s->c, &st))
		return -1;
	coordinator_job(s->c, &job);
	run_report_build(&r, &job, &st, rs, &s->o->serve.out, 0, NULL);
	s->loops.push_back({rs->loop, rs->work.loop.iterations, rs->t_start, rs->t_end,
			    result_store_elapsed(rs), r.t_ideal, r.efficiency, r.work, 0,
			    s->placed_at > 0 ? s->placed_at - rs->t_start : 0});
	if (s->loops.size() > 1)
		s->loops.back().gap = rs->t_start - s->loops[s->loops.size() - 2].t_end;
	run_report_free(&r);
	if (s->npy && npy_stream_append(s->npy, rs->data)) {
		fprintf(stderr, "dls-treesched: cannot write '%s'\n", s->o->serve.out.npy);
		return -1;
	}
	return 0;
}

// At most this many calls of a loop's turn at once.
#define TELL_THREADS 16

// Slaves ids[0..n-1] told, up to TELL_THREADS at once (each call waits for
// its slave: end_loop for the iteration in hand); each that fails is lost
// with why, after every call (a loss's repair calls its neighbours, which
// must be in the loop the repair is of).
static void tell_each(served *s, const int *ids, size_t n,
		      int (*call)(served *, int, char *, size_t), const char *what)
{
	std::vector<std::string> failed(n);
	std::atomic<size_t> next(0);
	std::vector<std::thread> workers;
	auto work = [&]() {
		for (size_t i; (i = next++) < n;) {
			char why[256];

			if (call(s, ids[i], why, sizeof(why)))
				failed[i] = why;
		}
	};

	try {
		for (size_t k = 1; k < TELL_THREADS && k < n; k++)
			workers.emplace_back(work);
	} catch (const std::system_error &) { // fewer threads: this one does the rest
	}
	work();
	for (std::thread &t : workers)
		t.join();
	for (size_t i = 0; i < n; i++)
		if (!failed[i].empty()) {
			std::string cause = std::string(what) + ": " + failed[i];

			lost(s, ids[i], cause.c_str());
		}
}

static int end_loop_call(served *s, int id, char *why, size_t len)
{
	return s->servant->end_loop(id, coordinator_loop(s->c), why, len);
}

static int next_loop_call(served *s, int id, char *why, size_t len)
{
	return s->servant->next_loop(id, why, len);
}

// A loop of a run of many loops is done: its figures and results are
// kept; every living slave ends it (none of its calls is left on the way
// when the books turn over), the next loop begins in the core, and each
// is placed for it (PROTOCOL.md 10).
static int loop_done(void *ctx)
{
	served *s = (served *)ctx;
	std::vector<int> ids(COORDINATOR_MAX_SLAVES);
	char why[COORDINATOR_WHY_LEN];
	size_t n;

	if (coordinator_config_of(s->c)->loops < 2)
		return 0;
	if (keep_loop(s))
		return -1;
	if (!coordinator_more_loops(s->c))
		return 0;
	n = coordinator_living(s->c, ids.data(), ids.size());
	tell_each(s, ids.data(), n, end_loop_call, "did not end its loop");
	if (coordinator_next_loop(s->c, why)) {
		fprintf(stderr, "dls-treesched: cannot start loop %u: %s\n",
			coordinator_loop(s->c) + 1, why);
		return -1;
	}
	n = coordinator_living(s->c, ids.data(), ids.size());
	tell_each(s, ids.data(), n, next_loop_call, "did not take the next loop");
	s->placed_at = dls_now();
	return 1;
}

static int write_outputs(void *ctx)
{
	served *s = (served *)ctx;
	struct run_outputs out = s->o->serve.out;
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
	run_report_set_loops(&r, s->loops.data(), s->loops.size());
	if (s->npy) // written loop by loop
		out.npy = NULL;
	rc = run_report_write(&r, coordinator_results(s->c), &out);
	if (s->npy) {
		rc |= npy_stream_close(s->npy) ? 1 : 0;
		s->npy = NULL;
	}
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
	served s = {c, servant, o, {}, NULL, 0};
	const struct result_store *rs = coordinator_results(c);
	int status;

	struct run_loop_ops ops = {&s,	     "dls-treesched", {&s, living, ping, lost},
				   wait_done, all_lost,	       snapshot,
				   dismiss,   write_outputs,   o->serve.timeout_s,
				   loop_done, quiesce};

	// a resumed run goes on from its loop: the ones before are in the file
	if (cfg->loops > 1 && o->serve.out.npy &&
	    (coordinator_resumed(c)
		 ? npy_stream_reopen(&s.npy, o->serve.out.npy, rs->work.loop.dtype, cfg->loops,
				     rs->work.loop.iterations, rs->work.loop.result_bytes,
				     coordinator_loop(c))
		 : npy_stream_open(&s.npy, o->serve.out.npy, rs->work.loop.dtype, cfg->loops,
				   rs->work.loop.iterations, rs->work.loop.result_bytes))) {
		fprintf(stderr, "dls-treesched: cannot write '%s'\n", o->serve.out.npy);
		return 1;
	}
	if (coordinator_resumed(c)) {
		// in a later loop, a slave the dead coordinator had not placed
		// for it yet waits between loops: every slave is placed again
		// (one that runs the loop already takes it as done), before the
		// repairs, whose heirs must be in the loop
		if (coordinator_loop(c) > 0 && !coordinator_results(c)->done) {
			std::vector<int> ids(COORDINATOR_MAX_SLAVES);
			size_t n = coordinator_living(c, ids.data(), ids.size());

			tell_each(&s, ids.data(), n, next_loop_call, "did not take its loop again");
		}
		servant->resume();
	}
	status = dls_serve(servant, o->serve.ior_file, cfg->run_name, "treesched", cfg->nslaves,
			   o->serve.secret, &ops, o->serve.ping_ms, o->serve.progress);
	npy_stream_close(s.npy); // the run ended before its last loop: no file
	return status;
}
