// slave_orb.cc - the dls-slave process around the C core: connect, run,
// report.
#include "slave_orb.h"

#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "slave_client.hh"

extern "C" int slave_orb_run(const struct slave_config *cfg, const struct slave_orb_opts *o)
{
	slave_client c;
	struct dls_slave_stats st;
	char why[256] = "";
	int rc = slave_client_connect(&c, o, why, sizeof(why));

	if (rc) {
		fprintf(stderr, "dls-slave: cannot %s the %s of run '%s': %s\n",
			rc == DLS_ENOENT ? "find" : "reach",
			o->coordinator_leaf ? "coordinator" : "master", o->run_name, why);
		return 1;
	}
	rc = slave_client_run(&c, cfg, o, &st, why, sizeof(why));
	slave_client_unbind(&c);
	if (rc == DLS_EREMOTE) {
		char tried[96];

		if (cfg->rejoin_ms > 0)
			snprintf(tried, sizeof(tried), "and could not be rejoined in %d ms",
				 cfg->rejoin_ms);
		else
			snprintf(tried, sizeof(tried), "after %d attempts", cfg->retries);
		fprintf(stderr, "dls-slave: %s: %s of run '%s' unreachable %s: %s\n", cfg->name,
			o->coordinator_leaf ? "coordinator" : "master", o->run_name, tried, why);
		return 1;
	}
	if (rc) {
		/* a refusal carries its own reason */
		fprintf(stderr, "dls-slave: %s: %s: %s\n", cfg->name,
			rc == DLS_ESTATE ? "refused" : dls_strerror(rc), why);
		return 1;
	}
	log_info("slave %d done: %lld chunks, %lld iterations, T_comp %.3f s, T_com+wait %.3f s",
		 st.id, (long long)st.chunks, (long long)st.iterations, st.times.t_comp,
		 st.times.t_comwait);
	return 0;
}
