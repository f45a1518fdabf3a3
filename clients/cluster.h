/*
 * cluster.h - an emulated cluster: each slave's virtual power V_i and load
 * schedule Q_i(t); the reference clusters of docs/emulation.md 3 by name.
 */
#ifndef DLS_CLUSTER_H
#define DLS_CLUSTER_H

#include "emul.h"

#define CLUSTER_MAX 16384

struct cluster {
	int n;
	double speed[CLUSTER_MAX];
	double declared[CLUSTER_MAX]; /* the Speed each declares (0: its speed) */
	struct emul_steps load[CLUSTER_MAX];
	char given[96]; /* the option that made it ("--cluster C8"), "" for none */
};

/*
 * Fills *c with a reference cluster: C8, C8-nd, C24, C24-nd, C64, C64-nd,
 * C128, C128-nd, C256, C256-nd (half V = 1, half V = 2; "-nd": the fast half
 * carries one extra process, Q = 2), C8-var (a load that changes during
 * the run), C8-mis (C8 whose slaves all declare V = 1: wrong declared
 * speeds), or pN / pN-nd (the same shape with N slaves, 1 to CLUSTER_MAX).
 * 0, or -1 for an unknown name.
 */
int cluster_reference(const char *name, struct cluster *c);

/*
 * Fills *c with n slaves, the first half of V = 1, the rest of V = 2 (the
 * shape of every reference cluster); nd: the fast half has Q = 2.  0 or -1.
 */
int cluster_halves(int n, int nd, struct cluster *c);

/* Names of the reference clusters, for help texts. */
#define CLUSTER_NAMES                                                                              \
	"C8 C8-nd C8-var C8-mis C24 C24-nd C64 C64-nd C128 C128-nd C256 C256-nd, pN, pN-nd (N "      \
	"slaves, 1 to 16384, half V = 1)"

/*
 * Parses --speeds "1,1,2,2" into c (n := the count).  NULL or the cause.
 */
const char *cluster_parse_speeds(const char *s, struct cluster *c);

/*
 * Parses --loads: one value per slave, each Q or a schedule t:Q,t:Q; the
 * slaves are separated by ';' when any schedule is given, else by ','.
 * Needs c->n set.  NULL or the cause.
 */
const char *cluster_parse_loads(const char *s, struct cluster *c);

/* The cluster options of `dls run` and `dls simulate`. */
enum { CLUSTER_OPT_CLUSTER = 0x2000, CLUSTER_OPT_SPEEDS, CLUSTER_OPT_LOADS };

#define CLUSTER_CLI_LONG_OPTIONS                                                                   \
	{"cluster", required_argument, 0, CLUSTER_OPT_CLUSTER},                                    \
		{"speeds", required_argument, 0, CLUSTER_OPT_SPEEDS}, {                            \
		"loads", required_argument, 0, CLUSTER_OPT_LOADS                                   \
	}

/*
 * Applies --cluster or --speeds to c, or keeps --loads for later (*loads);
 * returns 1 if opt was one of them.  Bad values exit 2 (main() only).
 */
int cluster_cli_option(const char *prog, struct cluster *c, int opt, const char *arg,
		       const char **loads);

/* Applies the kept --loads once the slaves are known; bad values exit 2. */
void cluster_cli_finish(const char *prog, struct cluster *c, const char *loads);

/*
 * 1 if some slave has A_i = floor(V_i / Q_i) >= 1 at some step of its load
 * (V_i from the Speed it declares, as the master computes it); 0 when every
 * A_i is 0 throughout, so that a distributed scheme would never be asked.
 */
int cluster_ever_asks(const struct cluster *c);

/* Sum of V_i / Q_i(t) over the cluster, as a schedule.  0 or -1 (too many steps). */
int cluster_power(const struct cluster *c, struct emul_steps *power);

#endif
