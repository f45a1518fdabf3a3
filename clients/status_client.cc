// status_client.cc - DLS::Master::status() as a C snapshot.
#include "status_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls.hh"
#include "dls/err.h"
#include "orb_util.hh"
#include "proto_conv.hh"

static char scheme_name[32];

extern "C" int status_fetch(const char *run, const char *leaf, struct dls_status *out,
			    char *why, size_t len)
{
	char path[192];
	int err;

	memset(out, 0, sizeof(*out));
	dls_name_path(path, run, leaf);
	CORBA::Object_var obj = dls_name_resolve(path, &err, why, len);
	if (err)
		return err;
	try {
		DLS::RunStatus_var s;

		if (!strcmp(leaf, "treesched")) /* Tree Scheduling's coordinator */
			s = DLS::Coordinator::_narrow(obj)->status();
		else
			s = DLS::Master::_narrow(obj)->status();

		return proto_status_in(s.in(), out, scheme_name, sizeof(scheme_name));
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, len);
		return DLS_EREMOTE;
	}
}
