#include "cluster.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli_opt.h"
#include "cli_util.h"
#include "dls_sched.h"

int cluster_halves(int n, int nd, struct cluster *c)
{
	if (n < 1 || n > CLUSTER_MAX)
		return -1;
	c->n = n;
	for (int i = 0; i < n; i++) {
		int fast = i >= n / 2;

		c->speed[i] = fast ? 2 : 1;
		c->declared[i] = 0;
		emul_steps_const(&c->load[i], fast && nd ? 2 : 1);
	}
	return 0;
}

int cluster_reference(const char *name, struct cluster *c)
{
	/* C8-var: 3 slaves of V = 1 and 5 of V = 2, the fast five getting one
	 * extra process at 1 s: more than half of the A_i change (2 -> 1), so
	 * the distributed schemes recompute their parameters (ACPSA rule) */
	if (!strcasecmp(name, "C8-var")) {
		cluster_halves(8, 0, c);
		for (int i = 3; i < 8; i++) {
			c->speed[i] = 2;
			emul_steps_parse("0:1,1:2", &c->load[i]);
		}
		return 0;
	}
	/* C8-mis: C8's true speeds, every slave declaring V = 1 (a calibration
	 * on a busy moment): what the declared weights get wrong, the adaptive
	 * techniques measure */
	if (!strcasecmp(name, "C8-mis")) {
		cluster_halves(8, 0, c);
		for (int i = 0; i < 8; i++)
			c->declared[i] = 1;
		return 0;
	}
	static const int sizes[] = {8, 24, 64, 128, 256};
	char buf[16], *end;
	long n;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (int nd = 0; nd < 2; nd++) {
			snprintf(buf, sizeof(buf), "C%d%s", sizes[k], nd ? "-nd" : "");
			if (!strcasecmp(name, buf))
				return cluster_halves(sizes[k], nd, c);
		}
	}
	/* pN, pN-nd: the same shape with N slaves */
	if ((name[0] == 'p' || name[0] == 'P') && name[1] >= '1' && name[1] <= '9') {
		errno = 0;
		n = strtol(name + 1, &end, 10);
		if (!errno && n >= 1 && n <= CLUSTER_MAX &&
		    (!*end || !strcasecmp(end, "-nd")))
			return cluster_halves((int)n, *end != '\0', c);
	}
	return -1;
}

const char *cluster_parse_speeds(const char *s, struct cluster *c)
{
	double *v;
	size_t n;
	const char *cause = cli_parse_double_list(s, 1e-6, 1e9, &v, &n);

	if (cause)
		return cause;
	if (n > CLUSTER_MAX) {
		free(v);
		return "too many slaves (at most 16384)";
	}
	c->n = (int)n;
	for (size_t i = 0; i < n; i++) {
		c->speed[i] = v[i];
		c->declared[i] = 0;
		emul_steps_const(&c->load[i], 1);
	}
	free(v);
	return NULL;
}

const char *cluster_parse_loads(const char *s, struct cluster *c)
{
	char *copy = strdup(s), *tok, *save = NULL;
	const char *sep = strchr(s, ';') || strchr(s, ':') ? ";" : ",";
	const char *cause = NULL;
	int k = 0;

	if (!copy)
		return "out of memory";
	for (tok = strtok_r(copy, sep, &save); tok && !cause; tok = strtok_r(NULL, sep, &save)) {
		if (k == c->n) {
			cause = "more loads than slaves";
			break;
		}
		cause = emul_steps_parse(tok, &c->load[k++]);
	}
	if (!cause && k != c->n)
		cause = "one load per slave is needed";
	free(copy);
	return cause;
}

int cluster_cli_option(const char *prog, struct cluster *c, int opt, const char *arg,
		       const char **loads)
{
	const char *cause, *name = opt == CLUSTER_OPT_CLUSTER ? "--cluster" : "--speeds";
	char given[sizeof(c->given)], conflict[160];

	if (opt == CLUSTER_OPT_CLUSTER || opt == CLUSTER_OPT_SPEEDS) {
		/* two descriptions of the cluster: the last would silently win */
		if (c->given[0] && strncmp(c->given, name, strlen(name))) {
			snprintf(conflict, sizeof(conflict), "conflicts with %s: give one of them",
				 c->given);
			cli_usage_error(prog, name, arg, conflict);
		}
		snprintf(given, sizeof(given), "%s %s", name, arg);
	}
	switch (opt) {
	case CLUSTER_OPT_CLUSTER:
		if (cluster_reference(arg, c))
			cli_usage_error(prog, "--cluster", arg, "unknown cluster (" CLUSTER_NAMES ")");
		snprintf(c->given, sizeof(c->given), "%s", given);
		return 1;
	case CLUSTER_OPT_SPEEDS:
		cause = cluster_parse_speeds(arg, c);
		if (cause)
			cli_usage_error(prog, "--speeds", arg, cause);
		snprintf(c->given, sizeof(c->given), "%s", given);
		return 1;
	case CLUSTER_OPT_LOADS:
		*loads = arg;
		return 1;
	default:
		return 0;
	}
}

void cluster_cli_finish(const char *prog, struct cluster *c, const char *loads)
{
	const char *cause;

	if (!loads)
		return;
	cause = cluster_parse_loads(loads, c);
	if (cause)
		cli_usage_error(prog, "--loads", loads, cause);
}

int cluster_power(const struct cluster *c, struct emul_steps *power)
{
	power->n = 0;
	for (int i = 0; i < c->n; i++)
		if (emul_power_add(power, c->speed[i], &c->load[i]))
			return -1;
	return 0;
}

/* The Speed slave i declares, from which the master computes its V_i. */
static double declared_speed(const struct cluster *c, int i)
{
	return c->declared[i] > 0 ? c->declared[i] : c->speed[i];
}

int cluster_ever_asks(const struct cluster *c)
{
	double vmin = 0;

	for (int i = 0; i < c->n; i++)
		if (i == 0 || declared_speed(c, i) < vmin)
			vmin = declared_speed(c, i);
	for (int i = 0; i < c->n; i++)
		for (size_t k = 0; k < c->load[i].n; k++)
			if (sched_acp(declared_speed(c, i) / vmin, c->load[i].value[k], 1) >= 1)
				return 1;
	return 0;
}
