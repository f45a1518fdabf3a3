// withdraw_client.cc - Master::withdraw / Coordinator::withdraw from C.
#include "withdraw_client.h"

#include <stdio.h>
#include <string.h>

#include "dls.hh"
#include "dls/err.h"
#include "orb_util.hh"
#include "run_trust.hh"

extern "C" int withdraw_send(const char *run, const char *leaf, const char *name,
			     const struct run_secret *secret, int wait_ms, char *why, size_t len)
{
	char path[192];
	int err;

	dls_name_path(path, run, leaf);
	CORBA::Object_var obj = dls_name_resolve_wait(path, wait_ms, &err, why, len);
	if (err)
		return err;
	try {
		DLS::Credentials cred;

		trust_credentials(secret, cred);
		if (!strcmp(leaf, "treesched"))
			DLS::Coordinator::_narrow(obj)->withdraw(DLS::PROTOCOL_VERSION, cred, name);
		else
			DLS::Master::_narrow(obj)->withdraw(DLS::PROTOCOL_VERSION, cred, name);
		return DLS_OK;
	} catch (const DLS::Refused &r) {
		snprintf(why, len, "%s", r.reason.in());
		return DLS_ESTATE;
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, len);
		return DLS_EREMOTE;
	}
}
