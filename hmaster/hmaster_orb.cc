// hmaster_orb.cc - the hmaster process around its core and servant.
#include "hmaster_orb.h"

#include <stdio.h>

#include <vector>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "hmaster_servant.hh"
#include "orb_util.hh"
#include "ping_slave.hh"

struct monitor_arg {
	struct hmaster *h;
	HMaster_i *servant;
	const struct hmaster_orb_opts *o;
	volatile int stop;
};

// A child that holds work and does not answer a ping is lost: its parent is told.
static void *monitor(void *p)
{
	monitor_arg *a = (monitor_arg *)p;
	std::vector<int> ids(65536);

	while (!a->stop) {
		size_t n = hmaster_slaves_holding(a->h, ids.data(), ids.size());

		for (size_t i = 0; i < n && !a->stop; i++) {
			DLS::Slave_var ref = a->servant->slave_ref(ids[i]);
			char why[256];

			if (dls_ping(ref, why, sizeof(why)))
				hmaster_slave_lost(a->h, ids[i], why);
		}
		dls_sleep_ms(a->o->ping_ms);
	}
	return NULL;
}

extern "C" int hmaster_orb_run(const struct hmaster_orb_opts *o)
{
	char ppath[192], mpath[192], why[256] = "";
	double deadline = dls_now() + o->connect_timeout_ms / 1000.0;
	CORBA::Object_var obj;
	struct hmaster *h;
	HMaster_i *servant;
	monitor_arg arg;
	pthread_t tid;
	int err, status = 0;

	dls_name_path(ppath, o->run_name, o->parent);
	dls_name_path(mpath, o->run_name, o->name);
	do {
		obj = dls_name_resolve(ppath, &err, why, sizeof(why));
		if (CORBA::is_nil(obj))
			dls_sleep_ms(100);
	} while (CORBA::is_nil(obj) && dls_now() < deadline);
	if (CORBA::is_nil(obj)) {
		fprintf(stderr, "dls-hmaster: cannot find the parent '%s': %s\n", ppath, why);
		return 1;
	}
	try {
		DLS::Master_var parent = DLS::Master::_unchecked_narrow(obj);
		CORBA::String_var ior = dls_orb()->object_to_string(obj);
		CORBA::Object_var obj2 = dls_orb()->string_to_object(ior);
		DLS::Master_var parent_register = DLS::Master::_unchecked_narrow(obj2);
		PingOnlySlave *pinged = new PingOnlySlave();

		omniORB::setClientCallTimeout(parent_register, (CORBA::ULong)o->register_timeout_ms);
		PortableServer::ObjectId_var oid1 = dls_root_poa()->activate_object(pinged);
		DLS::Slave_var self = pinged->_this();
		pinged->_remove_ref();
		struct hmaster_parent ops = hmaster_parent_ops(o->name, parent, parent_register, self);
		h = hmaster_create(o->name, o->twolevel ? HMASTER_TWOLEVEL : HMASTER_RELAY,
				   o->nslaves, o->register_timeout_ms, o->link_latency_us, &ops, &err);
		if (!h) {
			fprintf(stderr, "dls-hmaster: cannot start: %s\n", dls_strerror(err));
			return 1;
		}
		servant = new HMaster_i(h, parent, o->ping_timeout_ms);
		PortableServer::ObjectId_var oid2 = dls_root_poa()->activate_object(servant);
		CORBA::Object_var me = servant->_this();
		if (dls_name_bind(mpath, me, why, sizeof(why))) {
			fprintf(stderr, "dls-hmaster: cannot bind '%s': %s\n", mpath, why);
			return 1;
		}
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, sizeof(why));
		fprintf(stderr, "dls-hmaster: cannot reach the parent '%s': %s\n", ppath, why);
		return 1;
	}
	log_info("bound as '%s' below '%s', %s for %d slaves", mpath, ppath,
		 o->twolevel ? "scheduling (two-level)" : "relaying", o->nslaves);
	arg.h = h;
	arg.servant = servant;
	arg.o = o;
	arg.stop = 0;
	pthread_create(&tid, NULL, monitor, &arg);
	while ((err = hmaster_wait_finished(h, 1000)) == DLS_ETIMEDOUT)
		;
	if (err) {
		fprintf(stderr, "dls-hmaster: %s: the run failed above this hmaster\n", o->name);
		status = 1;
	} else {
		hmaster_report(h, stdout);
		fflush(stdout);
	}
	arg.stop = 1;
	pthread_join(tid, NULL);
	dls_name_unbind(mpath);
	dls_sleep_ms(100); /* let the last replies leave */
	hmaster_destroy(h);
	return status;
}
