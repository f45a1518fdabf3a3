// master_orb.cc - the master process around its servant.
#include "master_orb.h"

#include <omnithread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <vector>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "image_out.h"
#include "coordinator_servant.hh"
#include "master_report.h"
#include "master_servant.hh"
#include "orb_util.hh"
#include "proto_conv.hh"

struct monitor_arg {
	struct master *m;
	SlaveRefs *servant;
	Coordinator_i *coordinator; /* Tree Scheduling; NULL for a master */
	const struct master_orb_opts *o;
	volatile int stop;
};

static void progress_line(struct master *m)
{
	struct dls_status s;

	if (master_snapshot(m, &s))
		return;
	fprintf(stderr, "\r%s: %lld/%lld iterations delivered (%5.1f%%), %.1f s   ", s.scheme,
		(long long)s.delivered, (long long)s.iterations,
		100.0 * (double)s.delivered / (double)s.iterations, s.elapsed);
	dls_status_free(&s);
}

// Pings every slave that holds work; one that does not answer is lost.
static void *monitor(void *p)
{
	monitor_arg *a = (monitor_arg *)p;
	std::vector<int> ids(4096);
	double next_progress = 0;

	while (!a->stop) {
		/* Tree Scheduling: any living slave may hold work */
		size_t n = a->coordinator ? master_tree_living(a->m, ids.data(), ids.size())
					  : master_slaves_holding(a->m, ids.data(), ids.size());

		for (size_t i = 0; i < n && !a->stop; i++) {
			DLS::Slave_var ref = a->servant->slave_ref(ids[i]);
			char why[256];
			struct master_tree_repair rep;

			if (!dls_ping(ref, why, sizeof(why)))
				continue;
			if (!a->coordinator) {
				master_slave_lost(a->m, ids[i], why);
			} else if (!master_tree_lost(a->m, ids[i], why, &rep)) {
				a->coordinator->repair(rep);
				master_tree_repair_free(&rep);
			}
		}
		if (a->o->progress && dls_now() >= next_progress) {
			progress_line(a->m);
			next_progress = dls_now() + 0.5;
		}
		dls_sleep_ms(a->o->ping_ms);
	}
	return NULL;
}

static int write_outputs(struct master *m, const struct master_orb_opts *o)
{
	const struct master_config *c = master_config_of(m);
	struct master_report r;
	int rc = 0;

	if (master_report_build(m, o->power, o->t_iter_ns, &r))
		return 1;
	if (!o->quiet)
		master_report_table(m, &r, stdout);
	fflush(stdout);
	if (o->png && image_write_png(o->png, master_image(m), c->width, c->height, c->maxit))
		rc = 1;
	if (o->raw && image_write_pgm16(o->raw, master_image(m), c->width, c->height))
		rc = 1;
	if (o->csv && master_report_csv(&r, o->csv))
		rc = 1;
	if (o->json && master_report_json(m, &r, o->json))
		rc = 1;
	master_report_free(&r);
	return rc;
}

static DLS::JobSpec job_of(const struct master_config *c)
{
	struct dls_job job;

	memset(&job, 0, sizeof(job));
	snprintf(job.run_name, sizeof(job.run_name), "%s", c->run_name);
	snprintf(job.workload, sizeof(job.workload), "%s", c->workload);
	job.width = c->width;
	job.height = c->height;
	job.maxit = c->maxit;
	job.iterations = c->width;
	job.order = c->order;
	job.collect = c->collect;
	job.scheme.kind = c->sched.kind;
	job.scheme.profile = c->sched.profile;
	job.scheme.alpha_num = c->sched.alpha_num;
	job.scheme.alpha_den = c->sched.alpha_den;
	job.scheme.fac = c->sched.fac;
	job.scheme.fac_mu = c->sched.fac_mu;
	job.scheme.fac_sigma = c->sched.fac_sigma;
	job.scheme.fiss_sigma = c->sched.fiss_sigma;
	job.scheme.fiss_x = c->sched.fiss_x;
	return proto_job_out(job);
}

extern "C" int master_orb_run(struct master *m, const struct master_orb_opts *o)
{
	const struct master_config *c = master_config_of(m);
	char path[192], why[256] = "";
	Master_i *mservant = NULL;
	Coordinator_i *coordinator = NULL;
	PortableServer::ServantBase *servant;
	SlaveRefs *refs;
	monitor_arg arg;
	pthread_t tid;
	int status = 0;

	if (c->tree.enabled) { /* Tree Scheduling: the coordinator P0 */
		coordinator = new Coordinator_i(m, job_of(c), o->ping_timeout_ms);
		servant = coordinator;
		refs = coordinator;
	} else {
		mservant = new Master_i(m, job_of(c), o->ping_timeout_ms);
		servant = mservant;
		refs = mservant;
	}
	arg = {m, refs, coordinator, o, 0};
	dls_name_path(path, c->run_name, c->tree.enabled ? "treesched" : "master");
	try {
		PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(servant);
		CORBA::Object_var obj = coordinator ? (CORBA::Object_ptr)coordinator->_this()
						    : (CORBA::Object_ptr)mservant->_this();
		if (o->ior_file) {
			CORBA::String_var ior = dls_orb()->object_to_string(obj);
			FILE *f = fopen(o->ior_file, "w");
			if (!f || fprintf(f, "%s\n", (const char *)ior) < 0 || fclose(f)) {
				log_err("cannot write the IOR to '%s'", o->ior_file);
				return 1;
			}
		}
		if (dls_name_bind(path, obj, why, sizeof(why))) {
			fprintf(stderr, "%s: cannot bind '%s' in the naming service: %s\n",
				c->tree.enabled ? "dls-treesched" : "dls-master", path, why);
			return 1;
		}
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, sizeof(why));
		fprintf(stderr, "dls-master: cannot activate the servant: %s\n", why);
		return 1;
	}
	log_info("bound as '%s', waiting for %d slaves", path, c->nslaves);
	pthread_create(&tid, NULL, monitor, &arg);
	while (master_wait_done(m, 1000) == DLS_ETIMEDOUT) {
		struct dls_status s;
		int alive = 0;

		if (master_snapshot(m, &s))
			continue;
		for (int i = 0; i < s.nslaves; i++)
			alive += s.slaves[i].state != DLS_SLAVE_LOST;
		if (s.nslaves == c->nslaves && alive == 0) {
			fprintf(stderr, "dls-master: every slave was lost; %lld of %lld "
					"iterations delivered\n",
				(long long)s.delivered, (long long)s.iterations);
			status = 1;
		}
		dls_status_free(&s);
		if (status)
			break;
	}
	/* Slaves that wait for work ask again within wait_ms and hear DONE; one
	 * whose A_i is 0 does not ask at all, so it is told to stop.  Tree
	 * Scheduling's slaves never ask the coordinator: each is told. */
	if (!status && (c->tree.enabled || master_wait_dismissed(m, 4 * c->wait_ms + 200))) {
		std::vector<int> ids(4096);
		size_t n = master_slaves_undismissed(m, ids.data(), ids.size());

		for (size_t i = 0; i < n; i++) {
			DLS::Slave_var ref = refs->slave_ref(ids[i]);
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
	arg.stop = 1;
	pthread_join(tid, NULL);
	if (o->progress)
		fprintf(stderr, "\n");
	dls_name_unbind(path);
	if (!status)
		status = write_outputs(m, o);
	try {
		PortableServer::ObjectId_var oid = dls_root_poa()->servant_to_id(servant);
		dls_root_poa()->deactivate_object(oid);
	} catch (...) {
	}
	servant->_remove_ref();
	return status;
}
