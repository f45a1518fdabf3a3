// status_client.cc - DLS::Master::status() as a C snapshot.
#include "status_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls.hh"
#include "dls_err.h"
#include "orb_util.hh"

static char scheme_name[32];

extern "C" int status_fetch(const char *run, struct master_snapshot *out, char *why, size_t len)
{
	char path[192];
	int err;

	memset(out, 0, sizeof(*out));
	dls_name_path(path, run, "master");
	CORBA::Object_var obj = dls_name_resolve(path, &err, why, len);
	if (err)
		return err;
	try {
		DLS::Master_var m = DLS::Master::_narrow(obj);
		DLS::RunStatus_var s = m->status();

		snprintf(scheme_name, sizeof(scheme_name), "%s", (const char *)s->scheme);
		out->scheme = scheme_name;
		out->iterations = s->iterations;
		out->assigned = s->assigned;
		out->delivered = s->delivered;
		out->recomputations = s->recomputations;
		out->elapsed = s->elapsed;
		out->done = s->done;
		out->nslaves = (int)s->slaves.length();
		out->slaves = (struct master_slave_info *)calloc(s->slaves.length() + 1,
								  sizeof(*out->slaves));
		for (CORBA::ULong i = 0; i < s->slaves.length(); i++) {
			const DLS::SlaveStatus &p = s->slaves[i];
			struct master_slave_info *o = &out->slaves[i];

			o->id = p.slave_id;
			snprintf(o->name, sizeof(o->name), "%s", (const char *)p.name);
			o->state = MASTER_SLAVE_REGISTERED;
			for (int k = 0; k <= MASTER_SLAVE_LOST; k++)
				if (!strcmp(p.state, master_slave_state_name((enum master_slave_state)k)))
					o->state = (enum master_slave_state)k;
			o->vpower = p.virtual_power;
			o->acp = p.acp;
			o->chunks = p.chunks;
			o->iterations = p.iterations;
			o->held = p.held;
			o->times.t_comp = p.times.t_comp;
			o->times.t_comwait = p.times.t_comwait;
			o->times.emul_error = p.times.emul_error;
	o->times.emul_bias = p.times.emul_bias;
			o->times.late_chunks = p.times.late_chunks;
		}
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, len);
		return DLS_EREMOTE;
	}
}
