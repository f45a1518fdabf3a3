// hmaster_orb.cc - the hmaster process around its core and servant.
#include "hmaster_orb.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "liveness.h"
#include "parent_watch.h"
#include "hmaster_parent.hh"
#include "hmaster_servant.hh"
#include "orb_util.hh"
#include "publish.hh"
#include "ping_slave.hh"

// The liveness policy (common/serve/liveness.c) over the hmaster core: a child that
// holds work and does not answer a ping is lost; the core decides what that
// means (relay: its parent is told; two-level: its work goes to its siblings).
struct watch {
	struct hmaster *h;
	HMaster_i *servant;
};

static size_t holding(void *ctx, int *ids, size_t max)
{
	return hmaster_slaves_holding(((watch *)ctx)->h, ids, max);
}

static int ping(void *ctx, int id, char *why, size_t len)
{
	return ((watch *)ctx)->servant->ping(id, why, len);
}

static void lost(void *ctx, int id, const char *why)
{
	hmaster_slave_lost(((watch *)ctx)->h, id, why);
}

// Frees the parent's operations on every way out of hmaster_orb_run (the
// normal end frees them itself, after the core that used them).
struct parent_ops_guard {
	struct hmaster_parent *ops;
	~parent_ops_guard()
	{
		if (ops->ctx)
			hmaster_parent_free(ops);
	}
};

/*
 * Finds the parent, creates the core (resumed where asked) and its servant,
 * and binds it under mpath, guarded.  0, or 1 with the line said (the
 * parent out of reach, the core refused, the name taken).
 */
static int start(const struct hmaster_orb_opts *o, int resume, const char *ppath,
		 const char *mpath, struct hmaster_parent *pops, struct hmaster **h,
		 HMaster_i **servant, struct dls_name_guard **name_guard)
{
	char why[256] = "";
	int err;
	CORBA::Object_var obj =
		dls_name_resolve_wait(ppath, o->connect_timeout_ms, &err, why, sizeof(why));

	if (CORBA::is_nil(obj)) {
		fprintf(stderr, "dls-hmaster: cannot find the parent '%s': %s\n", ppath, why);
		return 1;
	}
	try {
		DLS::Master_var parent = DLS::Master::_unchecked_narrow(obj);
		DLS::Master_var parent_register =
			dls_ref_with_timeout<DLS::Master>(obj, o->register_timeout_ms);
		PingOnlySlave *pinged = new PingOnlySlave();

		PortableServer::ObjectId_var oid1 = dls_root_poa()->activate_object(pinged);
		DLS::Slave_var self = pinged->_this();
		pinged->_remove_ref();
		struct hmaster_parent_opts po = {o->name,   ppath,	    o->rejoin_ms,
						 o->secret, o->patience_ms, o->register_timeout_ms};
		*pops = hmaster_parent_ops(&po, parent, parent_register, self);
		*h = hmaster_create(o->name, o->twolevel ? HMASTER_TWOLEVEL : HMASTER_RELAY,
				    o->nslaves, o->window_ms ? o->window_ms : o->register_timeout_ms,
				    o->link_latency_us, pops, &err);
		if (!*h) {
			fprintf(stderr, "dls-hmaster: cannot start: %s\n", dls_strerror(err));
			return 1;
		}
		if (o->record)
			hmaster_keep_record(*h, o->record);
		if (resume && hmaster_resume(*h, o->record, why)) {
			fprintf(stderr, "dls-hmaster: %s: cannot resume: %s\n", o->name, why);
			hmaster_destroy(*h);
			return 1;
		}
		*servant = new HMaster_i(*h, parent, o->ping_timeout_ms, o->secret);
		(*servant)->set_relay_grace_ms(o->relay_grace_ms);
		PortableServer::ObjectId_var oid2 = dls_root_poa()->activate_object(*servant);
		CORBA::Object_var me = (*servant)->_this();
		if (dls_name_bind(mpath, me, why, sizeof(why))) {
			fprintf(stderr, "dls-hmaster: cannot bind '%s': %s\n", mpath, why);
			return 1;
		}
		*name_guard = dls_name_guard_start(mpath, me, DLS_NAME_GUARD_MS);
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, sizeof(why));
		fprintf(stderr, "dls-hmaster: cannot reach the parent '%s': %s\n", ppath, why);
		return 1;
	}
	return 0;
}

/*
 * Waits until every slave below heard DONE or was lost, asking meanwhile
 * whether the parent is still there; prints the report at the end.  0, or
 * 1 when the run failed above this hmaster or its parent is gone for good
 * (said).
 */
static int wait_done(struct hmaster *h, struct hmaster_parent *pops,
		     const struct hmaster_orb_opts *o, const char *ppath)
{
	struct parent_watch pw;
	int err;

	parent_watch_init(&pw, o->rejoin_ms, o->patience_ms);
	while ((err = hmaster_wait_finished(h, 1000)) == DLS_ETIMEDOUT) {
		char cause[256] = "", gone[512];
		int reach = pops->reach(pops->ctx, o->ping_timeout_ms, cause, sizeof(cause));

		/* resumed: a slave that finished before the old one died never
		 * comes back; the run's end is then the parent's */
		if (hmaster_resumed_idle(h) && reach != DLS_OK) {
			log_warn("the parent is gone and every slave that rejoined is done: "
				 "the run is over");
			err = DLS_OK;
			break;
		}
		/* a parent gone for good: nobody will ever finish this run here */
		if (parent_watch_check(&pw, dls_now(), reach, cause, gone, sizeof(gone))) {
			fprintf(stderr, "dls-hmaster: %s: gave up: the parent '%s' %s\n", o->name,
				ppath, gone);
			return 1;
		}
	}
	if (err) {
		fprintf(stderr, "dls-hmaster: %s: the run failed above this hmaster\n", o->name);
		return 1;
	}
	hmaster_report(h, stdout);
	fflush(stdout);
	return 0;
}

extern "C" int hmaster_orb_run(const struct hmaster_orb_opts *o)
{
	char ppath[192], mpath[192];
	struct dls_name_guard *name_guard = NULL;
	struct hmaster *h = NULL;
	HMaster_i *servant = NULL;
	struct liveness *live;
	struct hmaster_parent pops = {};
	parent_ops_guard guard = {&pops};
	int err, status, resume = o->resume;

	dls_name_path(ppath, o->run_name, o->parent);
	dls_name_path(mpath, o->run_name, o->name);
	/* a two-level hmaster writes its record once its parent registered it:
	 * without one, its predecessor told no child an id, and it starts afresh
	 * (its children, still registering, find it by name) */
	if (resume && o->twolevel && o->record && access(o->record, F_OK) && errno == ENOENT) {
		log_warn("no record '%s': the hmaster this one succeeds died before its parent "
			 "registered it, so nobody knows it: starting afresh",
			 o->record);
		resume = 0;
	}
	/* before anything reaches the parent: a resumed hmaster would otherwise
	 * declare a predecessor that still serves its slaves lost */
	if (dls_name_take(mpath, o->secret, "dls-hmaster"))
		return 1;
	if (start(o, resume, ppath, mpath, &pops, &h, &servant, &name_guard))
		return 1;
	log_info("bound as '%s' below '%s', %s for %d slaves%s", mpath, ppath,
		 o->twolevel ? "scheduling (two-level)" : "relaying", o->nslaves,
		 resume ? " (resumed: they rejoin)" : "");
	watch w = {h, servant};
	struct liveness_ops ops = {&w, holding, ping, lost};
	live = liveness_start(&ops, o->ping_ms, &err);
	if (!live) {
		fprintf(stderr, "dls-hmaster: cannot watch the slaves: %s\n", dls_strerror(err));
		dls_name_guard_stop(name_guard);
		dls_name_unbind(mpath);
		hmaster_destroy(h);
		return 1;
	}
	status = wait_done(h, &pops, o, ppath);
	liveness_stop(live);
	dls_name_guard_stop(name_guard);
	dls_name_unbind(mpath);
	dls_sleep_ms(100); /* let the last replies leave */
	servant->forget_refs(); /* while the ORB is whole */
	servant->detach_core(); /* no later operation reaches h */
	dls_unpublish(servant); /* a later call finds no object, not a freed core */
	hmaster_destroy(h);	/* once no operation is inside it */
	hmaster_parent_free(&pops);
	return status;
}
