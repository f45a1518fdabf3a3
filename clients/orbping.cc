// orbping.cc - a do-nothing servant and its two-way callers.
#include "orbping.h"

#include <stdio.h>

#include "dls.hh"
#include "dls_time.h"
#include "orb_util.hh"
#include "ping_slave.hh"

extern "C" int orbping_serve(const char *ior_path)
{
	return dls_serve_until_killed(new PingOnlySlave(), ior_path, "dls orbping");
}

extern "C" int orbping_call(const char *ior, long calls)
{
	try {
		CORBA::Object_var obj = dls_orb()->string_to_object(ior);
		DLS::Slave_var s = DLS::Slave::_narrow(obj);
		double t0, t1;

		s->ping(); // connect outside the measurement
		t0 = dls_now();
		for (long i = 0; i < calls; i++)
			s->ping();
		t1 = dls_now();
		printf("calls %ld start %.9f end %.9f\n", calls, t0, t1);
		return 0;
	} catch (const CORBA::Exception &e) {
		char why[256];
		dls_corba_error(e, why, sizeof(why));
		fprintf(stderr, "dls orbping: %s\n", why);
		return 1;
	}
}
