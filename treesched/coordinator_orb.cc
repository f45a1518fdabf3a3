// coordinator_orb.cc - the coordinator process around its servant: it
// publishes the servant, starts the liveness policy (common/liveness.c) over
// the coordinator core, carries out the repairs the core decides, and at the
// end stops the slaves and writes the report.
#include "coordinator_orb.h"

#include <stdio.h>

#include <vector>

#include "coordinator_servant.hh"
#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "liveness.h"
#include "orb_util.hh"
#include "proto_conv.hh"

static const char *const prog = "dls-treesched";

struct watch {
	struct coordinator *c;
	Coordinator_i *servant;
	int progress;
	double next_progress;
};

// Any living slave may hold work: work moves between them.
static size_t living(void *ctx, int *ids, size_t max)
{
	return coordinator_living(((watch *)ctx)->c, ids, max);
}

static int ping(void *ctx, int id, char *why, size_t len)
{
	return ((watch *)ctx)->servant->ping(id, why, len);
}

static void lost(void *ctx, int id, const char *why)
{
	watch *w = (watch *)ctx;
	struct coordinator_repair rep;

	if (!coordinator_lost(w->c, id, why, &rep))
		w->servant->repair(rep);
	coordinator_repair_free(&rep);
}

static void progress_line(void *ctx)
{
	watch *w = (watch *)ctx;
	struct dls_status s;

	if (!w->progress || dls_now() < w->next_progress || coordinator_snapshot(w->c, &s))
		return;
	fprintf(stderr, "\rtrees: %lld/%lld iterations delivered (%5.1f%%), %.1f s   ",
		(long long)s.delivered, (long long)s.iterations,
		100.0 * (double)s.delivered / (double)s.iterations, s.elapsed);
	dls_status_free(&s);
	w->next_progress = dls_now() + 0.5;
}

static int write_outputs(struct coordinator *c, const struct coordinator_orb_opts *o)
{
	const struct coordinator_config *cfg = coordinator_config_of(c);
	struct run_report_job job = {cfg->run_name, cfg->width, cfg->height, cfg->maxit,
				     cfg->order, DLS_COLLECT_PIGGYBACK};
	struct run_report_tree tree;
	struct dls_status s;
	struct run_report r;
	int rc, have_tree;

	if (coordinator_snapshot(c, &s))
		return 1;
	have_tree = !coordinator_tree_stats(c, &tree);
	run_report_build(&r, &job, &s, coordinator_image(c), &o->out, have_tree ? &tree : NULL);
	rc = run_report_write(&r, coordinator_image(c), &o->out);
	run_report_free(&r);
	if (have_tree)
		run_report_tree_free(&tree);
	return rc;
}

// Tree Scheduling's slaves never ask the coordinator: each is told to stop.
static void dismiss(struct coordinator *c, Coordinator_i *servant)
{
	std::vector<int> ids(COORDINATOR_MAX_SLAVES);
	size_t n = coordinator_living(c, ids.data(), ids.size());

	for (size_t i = 0; i < n; i++) {
		DLS::Slave_var ref = servant->slave_ref(ids[i]);
		try {
			ref->stop("the run is complete");
			coordinator_dismissed(c, ids[i]);
		} catch (const CORBA::Exception &) {
			struct coordinator_repair rep;

			coordinator_lost(c, ids[i], "no answer to stop", &rep);
			coordinator_repair_free(&rep);
		}
	}
}

extern "C" int coordinator_orb_run(struct coordinator *c, const struct coordinator_orb_opts *o)
{
	const struct coordinator_config *cfg = coordinator_config_of(c);
	struct dls_job job;
	char path[192];
	int status = 0, err;

	coordinator_job(c, &job);
	Coordinator_i *servant = new Coordinator_i(c, proto_job_out(job), o->ping_timeout_ms);
	dls_name_path(path, cfg->run_name, "treesched");
	if (dls_publish(servant, o->ior_file, path, prog))
		return 1;
	log_info("bound as '%s', waiting for %d slaves", path, cfg->nslaves);

	watch w = {c, servant, o->progress, 0};
	struct liveness_ops ops = {&w, living, ping, lost, progress_line};
	struct liveness *l = liveness_start(&ops, o->ping_ms, &err);
	if (!l) {
		fprintf(stderr, "%s: cannot watch the slaves: %s\n", prog, dls_strerror(err));
		dls_name_unbind(path);
		dls_unpublish(servant);
		return 1;
	}
	while (coordinator_wait_done(c, 1000) == DLS_ETIMEDOUT) {
		if (coordinator_all_lost(c)) {
			struct dls_status s;

			if (!coordinator_snapshot(c, &s)) {
				fprintf(stderr, "%s: every slave was lost; %lld of %lld iterations "
						"delivered\n",
					prog, (long long)s.delivered, (long long)s.iterations);
				dls_status_free(&s);
			}
			status = 1;
			break;
		}
	}
	if (!status)
		dismiss(c, servant);
	liveness_stop(l);
	if (o->progress)
		fprintf(stderr, "\n");
	dls_name_unbind(path);
	if (!status)
		status = write_outputs(c, o);
	dls_unpublish(servant);
	return status;
}
