/*
 * pile_cli.c - the policies' options (see pile_cli.h).
 */
#include "pile_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "dls/err.h"

int pile_cli_option(const char *prog, struct pile_params *p, uint64_t *seed, int c,
		    const char *arg)
{

	switch (c) {
	case PILES_OPT_SEED:
		if (!seed)
			return 0;
		*seed = (uint64_t)cli_i64_or_die(prog, "--seed", arg, 0, INT64_MAX);
		return 1;
	case PILES_OPT_THRESHOLD:
		p->threshold = cli_i64_or_die(prog, "--threshold", arg, 0, (int64_t)1 << 40);
		return 1;
	case PILES_OPT_BACKOFF:
		p->backoff_s = cli_double_or_die(prog, "--backoff-us", arg, 0.001, 1e9) * 1e-6;
		return 1;
	case PILES_OPT_BACKOFF_MAX:
		p->backoff_max_s = cli_double_or_die(prog, "--backoff-max-us", arg, 0.001, 1e9) * 1e-6;
		return 1;
	case PILES_OPT_HT:
		p->ht = cli_i64_or_die(prog, "--ht", arg, 0, (int64_t)1 << 40);
		return 1;
	case PILES_OPT_LT:
		p->lt = cli_i64_or_die(prog, "--lt", arg, 0, (int64_t)1 << 40);
		return 1;
	case PILES_OPT_CT:
		p->ct = cli_i64_or_die(prog, "--ct", arg, 0, (int64_t)1 << 40);
		return 1;
	case PILES_OPT_TABLE:
		p->table_size = (int)cli_i64_or_die(prog, "--table-size", arg, 1, 64);
		return 1;
	case PILES_OPT_NFMAX:
		p->nf_max = (int)cli_i64_or_die(prog, "--nf-max", arg, 1, 1 << 20);
		return 1;
	case PILES_OPT_INTERVAL:
		p->interval_s = cli_double_or_die(prog, "--interval-us", arg, 0.001, 1e9) * 1e-6;
		return 1;
	case PILES_OPT_ND:
		p->nd_s = cli_double_or_die(prog, "--nd-us", arg, 0, 1e9) * 1e-6;
		return 1;
	case PILES_OPT_TOPOLOGY:
		if (ripple_topology_parse(arg, &p->topology))
			cli_usage_error(prog, "--topology", arg, "must be line or cube");
		return 1;
	case PILES_OPT_STEP:
		p->step_s = cli_double_or_die(prog, "--step-us", arg, 0.001, 1e9) * 1e-6;
		return 1;
	case PILES_OPT_PASS_MIN:
		p->pass_min = cli_double_or_die(prog, "--pass-min", arg, 0, 1e6);
		return 1;
	default:
		return 0;
	}
}

/* Appends opt and v (an integer when it is one, else 17 digits). */
static int add(char **argv, int *argc, int max, const char *opt, double v)
{
	char buf[64];

	if (*argc + 2 > max)
		return DLS_ENOMEM;
	snprintf(buf, sizeof(buf), "%.17g", v);
	if (!(argv[*argc] = strdup(opt)) || !(argv[*argc + 1] = strdup(buf)))
		return DLS_ENOMEM;
	*argc += 2;
	return DLS_OK;
}

int pile_cli_args(const struct pile_params *p, char **argv, int *argc, int max)
{
	struct pile_params d;
	int rc = DLS_OK;

	pile_params_init(&d);
	if (p->threshold != d.threshold)
		rc = add(argv, argc, max, "--threshold", (double)p->threshold);
	if (!rc && p->backoff_s != d.backoff_s)
		rc = add(argv, argc, max, "--backoff-us", p->backoff_s * 1e6);
	if (!rc && p->backoff_max_s != d.backoff_max_s)
		rc = add(argv, argc, max, "--backoff-max-us", p->backoff_max_s * 1e6);
	if (!rc && p->ht != d.ht)
		rc = add(argv, argc, max, "--ht", (double)p->ht);
	if (!rc && p->lt != d.lt)
		rc = add(argv, argc, max, "--lt", (double)p->lt);
	if (!rc && p->ct != d.ct)
		rc = add(argv, argc, max, "--ct", (double)p->ct);
	if (!rc && p->table_size != d.table_size)
		rc = add(argv, argc, max, "--table-size", p->table_size);
	if (!rc && p->nf_max != d.nf_max)
		rc = add(argv, argc, max, "--nf-max", p->nf_max);
	if (!rc && p->interval_s != d.interval_s)
		rc = add(argv, argc, max, "--interval-us", p->interval_s * 1e6);
	if (!rc && p->nd_s != d.nd_s)
		rc = add(argv, argc, max, "--nd-us", p->nd_s * 1e6);
	if (!rc && p->step_s != d.step_s)
		rc = add(argv, argc, max, "--step-us", p->step_s * 1e6);
	if (!rc && p->pass_min != d.pass_min)
		rc = add(argv, argc, max, "--pass-min", p->pass_min);
	if (!rc && p->topology != d.topology) {
		if (*argc + 1 > max || !(argv[*argc] = strdup("--topology=cube")))
			return DLS_ENOMEM;
		(*argc)++;
	}
	return rc;
}
