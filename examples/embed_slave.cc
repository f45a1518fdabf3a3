// embed_slave.cc - the smallest host of an embedded DLS slave: a program
// with its own ORB (ORB_init, its root POA) that lends it to DLS and runs
// a slave (or --slaves K of them) computing the job's workload, emulated
// like dls-slave.  It takes the dls-slave options `dls run --slave-program`
// passes, so that a run can compare embedded slaves with dls-slave side by
// side (BENCHMARKS.md).
//   embed_slave --run RUN --name NAME (--speed V [--declare V] --load STEPS
//               --t-iter NS | --real [--q Q]) [--link-latency-us US] [--master LEAF]
//               [--overlap on|off] [--low-priority on|off]
//               [--secret-file FILE] [--rejoin-ms T] [--register-timeout-ms T]
//               [--slaves K] -ORBInitRef NameService=...
// --slaves K runs K slaves in the one program (NAME.0 .. NAME.K-1), as a
// simulation that embeds several does.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dls/embed.hh>
#include <dls/err.h>

// "on" 1, "off" 0, else -1.
static int on_off(const char *v)
{
	return !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 0 : -1;
}

int main(int argc, char **argv)
{
	// the host's ORB, as any omniORB program has it
	CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
	CORBA::Object_var o = orb->resolve_initial_references("RootPOA");
	PortableServer::POA_var poa = PortableServer::POA::_narrow(o);
	PortableServer::POAManager_var pm = poa->the_POAManager();
	pm->activate();

	struct dls_embed_slave_options so;
	struct dls_slave_stats st;
	char why[256];
	int rc, nslaves = 1;

	dls_embed_slave_options_init(&so);
	so.emulated = 1;
	for (int i = 1; i < argc; i++) {
		char *k = argv[i], *v = strchr(k, '='); // --opt=value or --opt value
		const char *bad = NULL;

		if (!strcmp(k, "--real")) { // a flag: Speed measured, Q_i read, no emulation
			so.emulated = 0;
			so.speed = dls_calibrate(200);
			continue;
		}
		if (v)
			*v++ = '\0';
		else if (i + 1 < argc)
			v = argv[++i];
		else
			v = (char *)"";

		if (!strcmp(k, "--run"))
			so.run = v;
		else if (!strcmp(k, "--slaves")) // several slaves in this one program
			bad = (nslaves = atoi(v)) < 1 || nslaves > 64 ? "must be 1 to 64" : NULL;
		else if (!strcmp(k, "--name"))
			so.name = v;
		else if (!strcmp(k, "--speed"))
			so.speed = atof(v);
		else if (!strcmp(k, "--declare"))
			so.declared_speed = atof(v);
		else if (!strcmp(k, "--load"))
			so.load = v; // checked when the slave starts
		else if (!strcmp(k, "--q")) // real mode: Q_i fixed instead of read from the host
			so.q_override = atof(v);
		else if (!strcmp(k, "--t-iter"))
			so.t_iter_ns = atof(v);
		else if (!strcmp(k, "--link-latency-us"))
			so.link_latency_us = atof(v);
		else if (!strcmp(k, "--master"))
			so.master = v;
		else if (!strcmp(k, "--secret-file"))
			so.secret_file = v;
		else if (!strcmp(k, "--rejoin-ms"))
			so.rejoin_ms = atoi(v);
		else if (!strcmp(k, "--register-timeout-ms"))
			so.register_timeout_ms = atoi(v);
		else if (!strcmp(k, "--overlap") && on_off(v) >= 0)
			so.overlap = on_off(v);
		else if (!strcmp(k, "--low-priority") && on_off(v) >= 0)
			so.low_priority = on_off(v);
		else
			bad = "unknown option";
		if (bad) {
			fprintf(stderr, "embed_slave: %s '%s': %s\n", k, v, bad);
			return 2;
		}
	}
	if (dls_embed_use_orb(orb, poa)) {
		fprintf(stderr, "embed_slave: cannot lend the ORB\n");
		return 1;
	}
	// --slaves K: K slaves in this one program, NAME.0 .. NAME.K-1, on its ORB
	struct dls_embed_slave *all[64];
	struct dls_embed_slave_options each[64];
	char names[64][64];
	int started = 0, failed = 0;

	for (int i = 0; i < nslaves; i++) {
		each[i] = so;
		if (nslaves > 1) {
			snprintf(names[i], sizeof(names[i]), "%.59s.%d", so.name, i);
			each[i].name = names[i];
		}
		rc = dls_embed_slave_start(&each[i], &all[i], why, sizeof(why));
		if (rc) {
			fprintf(stderr, "embed_slave: %s: %s\n", dls_strerror(rc), why);
			failed = 1;
			break;
		}
		started++;
	}
	for (int i = 0; i < started; i++) {
		rc = dls_embed_slave_wait(all[i], &st, why, sizeof(why));
		if (rc) {
			fprintf(stderr, "embed_slave: %s: %s: %s\n", each[i].name,
				dls_strerror(rc), why);
			failed = 1;
		}
	}
	dls_orb_stop();
	orb->destroy();
	return failed;
}
