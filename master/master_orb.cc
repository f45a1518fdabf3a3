// master_orb.cc - the master process around its servant: it publishes the
// servant, starts the liveness policy (common/liveness.c) over the master
// core, and at the end dismisses the slaves and writes the report.
#include "master_orb.h"

#include <stdio.h>
#include <string.h>

#include <vector>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "liveness.h"
#include "master_servant.hh"
#include "orb_util.hh"
#include "proto_conv.hh"

static const char *const prog = "dls-master";

struct watch {
	struct master *m;
	Master_i *servant;
	int progress;
	double next_progress;
};

static size_t holding(void *ctx, int *ids, size_t max)
{
	return master_slaves_holding(((watch *)ctx)->m, ids, max);
}

static int ping(void *ctx, int id, char *why, size_t len)
{
	return ((watch *)ctx)->servant->ping(id, why, len);
}

static void lost(void *ctx, int id, const char *why)
{
	master_slave_lost(((watch *)ctx)->m, id, why);
}

static void progress_line(void *ctx)
{
	watch *w = (watch *)ctx;
	struct dls_status s;

	if (!w->progress || dls_now() < w->next_progress || master_snapshot(w->m, &s))
		return;
	fprintf(stderr, "\r%s: %lld/%lld iterations delivered (%5.1f%%), %.1f s   ", s.scheme,
		(long long)s.delivered, (long long)s.iterations,
		100.0 * (double)s.delivered / (double)s.iterations, s.elapsed);
	dls_status_free(&s);
	w->next_progress = dls_now() + 0.5;
}

static int write_outputs(struct master *m, const struct master_orb_opts *o)
{
	const struct master_config *c = master_config_of(m);
	struct run_report_job job = {c->run_name, c->width, c->height, c->maxit, c->order,
				     c->collect};
	struct dls_status s;
	struct run_report r;
	int rc;

	if (master_snapshot(m, &s))
		return 1;
	run_report_build(&r, &job, &s, master_image(m), &o->out, NULL);
	rc = run_report_write(&r, master_image(m), &o->out);
	run_report_free(&r);
	return rc;
}

// Slaves that wait for work ask again within wait_ms and hear DONE; one whose
// A_i is 0 does not ask at all, so it is told to stop.
static void dismiss(struct master *m, Master_i *servant, const struct master_orb_opts *o)
{
	const struct master_config *c = master_config_of(m);

	if (!master_wait_dismissed(m, 4 * c->wait_ms + 200))
		return;
	std::vector<int> ids(MASTER_MAX_SLAVES);
	size_t n = master_slaves_undismissed(m, ids.data(), ids.size());

	for (size_t i = 0; i < n; i++) {
		DLS::Slave_var ref = servant->slave_ref(ids[i]);
		try {
			ref->stop("the run is complete");
			master_slave_dismissed(m, ids[i]);
		} catch (const CORBA::Exception &) {
			master_slave_lost(m, ids[i], "no answer to stop");
		}
	}
	if (master_wait_dismissed(m, o->dismiss_timeout_ms))
		log_warn("some slaves did not ask again after the last result");
}

extern "C" int master_orb_run(struct master *m, const struct master_orb_opts *o)
{
	const struct master_config *c = master_config_of(m);
	struct dls_job job;
	char path[192];
	int status = 0, err;

	master_job(m, &job);
	Master_i *servant = new Master_i(m, proto_job_out(job), o->ping_timeout_ms);
	dls_name_path(path, c->run_name, "master");
	if (dls_publish(servant, o->ior_file, path, prog))
		return 1;
	log_info("bound as '%s', waiting for %d slaves", path, c->nslaves);

	watch w = {m, servant, o->progress, 0};
	struct liveness_ops ops = {&w, holding, ping, lost, progress_line};
	struct liveness *l = liveness_start(&ops, o->ping_ms, &err);
	if (!l) {
		fprintf(stderr, "%s: cannot watch the slaves: %s\n", prog, dls_strerror(err));
		dls_name_unbind(path);
		dls_unpublish(servant);
		return 1;
	}
	while (master_wait_done(m, 1000) == DLS_ETIMEDOUT) {
		if (master_all_lost(m)) {
			struct dls_status s;

			if (!master_snapshot(m, &s)) {
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
		dismiss(m, servant, o);
	liveness_stop(l);
	if (o->progress)
		fprintf(stderr, "\n");
	dls_name_unbind(path);
	if (!status)
		status = write_outputs(m, o);
	dls_unpublish(servant);
	return status;
}
