// slave_orb.cc - the slave process around the C core.
#include "slave_orb.h"

#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "orb_util.hh"
#include "slave_client.hh"

static void registered(void *ctx, int id, const struct dls_job *job)
{
	slave_client *c = (slave_client *)ctx;
	char leaf[32], why[256];

	(void)job;
	snprintf(leaf, sizeof(leaf), "slave.%d", id);
	dls_name_path(c->bound_path, c->run_name, leaf);
	if (dls_name_bind(c->bound_path, c->self, why, sizeof(why))) {
		log_warn("cannot bind '%s': %s", c->bound_path, why);
		c->bound_path[0] = '\0';
	}
}

// Finds the master: by IOR, or by name, retrying until connect_timeout_ms.
static CORBA::Object_ptr find_master(const struct slave_orb_opts *o, char *why, size_t len)
{
	char path[192];
	int err;

	if (o->master_ior) {
		try {
			return dls_orb()->string_to_object(o->master_ior);
		} catch (const CORBA::Exception &e) {
			dls_corba_error(e, why, len);
			return CORBA::Object::_nil();
		}
	}
	dls_name_path(path, o->run_name,
		      o->coordinator_leaf ? o->coordinator_leaf : o->master_leaf);
	return dls_name_resolve_wait(path, o->connect_timeout_ms, &err, why, len);
}

extern "C" int slave_orb_run(const struct slave_config *cfg, const struct slave_orb_opts *o)
{
	slave_client c;
	struct slave_stats st;
	char why[256] = "";
	int rc;

	memset(c.bound_path, 0, sizeof(c.bound_path));
	snprintf(c.run_name, sizeof(c.run_name), "%s", o->run_name);
	try {
		CORBA::Object_var obj = find_master(o, why, sizeof(why));
		if (CORBA::is_nil(obj)) {
			fprintf(stderr, "dls-slave: cannot find the %s of run '%s': %s\n",
				o->coordinator_leaf ? "coordinator" : "master", o->run_name, why);
			return 1;
		}
		// a second reference to the same object, for the long registration call
		CORBA::String_var ior = dls_orb()->object_to_string(obj);
		CORBA::Object_var obj2 = dls_orb()->string_to_object(ior);
		if (o->coordinator_leaf) {
			c.coordinator = DLS::Coordinator::_unchecked_narrow(obj);
			c.coordinator_register = DLS::Coordinator::_unchecked_narrow(obj2);
			omniORB::setClientCallTimeout(c.coordinator_register,
						      (CORBA::ULong)o->register_timeout_ms);
		} else {
			c.master = DLS::Master::_unchecked_narrow(obj); // no remote call: retries apply
			c.master_register = DLS::Master::_unchecked_narrow(obj2);
			omniORB::setClientCallTimeout(c.master_register,
						      (CORBA::ULong)o->register_timeout_ms);
		}
		c.servant = new Slave_i();
		PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(c.servant);
		c.self = c.servant->_this();
		c.servant->_remove_ref();
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, sizeof(why));
		fprintf(stderr, "dls-slave: cannot reach the master of run '%s': %s\n", o->run_name,
			why);
		return 1;
	}
	if (o->coordinator_leaf) {
		struct slave_tree *t = slave_tree_create();
		struct slave_tree_stats ts = {0, 0, 0, 0};

		if (!t) {
			fprintf(stderr, "dls-slave: out of memory\n");
			return 1;
		}
		c.servant->set_tree(t);
		struct slave_tree_ops tops = slave_client_tree_ops(&c, registered);
		rc = slave_tree_run(t, cfg, &tops, &st, &ts, why, sizeof(why));
		log_info("tree mode: %lld iterations moved out in %lld migrations, %lld in",
			 (long long)ts.moved_out, (long long)ts.migrations_out,
			 (long long)ts.moved_in);
		/* t stays: late demands still land in it until the process exits */
	} else {
		struct slave_ops ops = slave_client_ops(&c, registered);

		rc = slave_run(cfg, &ops, &st, why, sizeof(why));
	}
	if (c.bound_path[0])
		dls_name_unbind(c.bound_path);
	if (rc == DLS_EREMOTE) {
		fprintf(stderr, "dls-slave: %s: %s of run '%s' unreachable after %d attempts: %s\n",
			cfg->name, o->coordinator_leaf ? "coordinator" : "master", o->run_name,
			cfg->retries, why);
		return 1;
	}
	if (rc) {
		fprintf(stderr, "dls-slave: %s: %s: %s\n", cfg->name, dls_strerror(rc), why);
		return 1;
	}
	log_info("slave %d done: %lld chunks, %lld iterations, T_comp %.3f s, T_com+wait %.3f s",
		 st.id, (long long)st.chunks, (long long)st.iterations, st.times.t_comp,
		 st.times.t_comwait);
	return 0;
}
