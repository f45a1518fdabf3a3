#include "sched_cli.h"

#include <string.h>

#include "cli_opt.h"
#include "cli_util.h"

void sched_cli_init(struct sched_cli *sc)
{
	memset(sc, 0, sizeof(*sc));
	sched_params_init(&sc->p);
}

int sched_cli_option(const char *prog, struct sched_cli *sc, int opt, const char *arg)
{
	struct sched_params *p = &sc->p;
	const char *cause;

	switch (opt) {
	case SCHED_OPT_SCHEME:
		sc->scheme = arg;
		break;
	case SCHED_OPT_PROFILE:
		if (!strcmp(arg, "table"))
			p->profile = SCHED_PROFILE_TABLE;
		else if (!strcmp(arg, "text"))
			p->profile = SCHED_PROFILE_TEXT;
		else
			cli_usage_error(prog, "--profile", arg, "must be table or text");
		break;
	case SCHED_OPT_K:
		sc->k = cli_i64_or_die(prog, "--chunk", arg, 1, SCHED_MAX_ITERATIONS);
		break;
	case SCHED_OPT_ALPHA:
		cause = cli_parse_ratio(arg, &p->alpha_num, &p->alpha_den);
		if (cause)
			cli_usage_error(prog, "--alpha", arg, cause);
		break;
	case SCHED_OPT_FAC:
		p->fac = 1;
		break;
	case SCHED_OPT_MU:
		p->fac_mu = cli_double_or_die(prog, "--mu", arg, 1e-300, 1e300);
		break;
	case SCHED_OPT_SD:
		p->fac_sigma = cli_double_or_die(prog, "--sd", arg, 0, 1e300);
		sc->sd = arg;
		break;
	case SCHED_OPT_SIGMA:
		p->fiss_sigma = (int)cli_i64_or_die(prog, "--sigma", arg, 2, 1 << 20);
		break;
	case SCHED_OPT_X:
		p->fiss_x = cli_i64_or_die(prog, "--fiss-x", arg, 3, SCHED_MAX_ACP);
		break;
	case SCHED_OPT_F:
		p->tss_first = cli_i64_or_die(prog, "--tss-first", arg, 1, SCHED_MAX_ITERATIONS);
		break;
	case SCHED_OPT_RATES:
		if (!strcmp(arg, "measured") || !strcmp(arg, "declared"))
			p->measured_rates = !strcmp(arg, "measured");
		else
			cli_usage_error(prog, "--rates", arg, "must be declared or measured");
		break;
	case SCHED_OPT_H:
		sc->h = cli_double_or_die(prog, "--fsc-overhead", arg, 1e-300, 1e300);
		break;
	case SCHED_OPT_L:
		p->tss_last = cli_i64_or_die(prog, "--tss-last", arg, 1, SCHED_MAX_ITERATIONS);
		break;
	default:
		return 0;
	}
	return 1;
}

void sched_cli_finish(const char *prog, struct sched_cli *sc, const char *default_scheme,
		      int64_t iterations, int npes)
{
	struct sched_params *p = &sc->p;
	const char *name = sc->scheme ? sc->scheme : default_scheme;

	if (!name)
		cli_usage_error(prog, "--scheme", NULL, "is required");
	if (sched_kind_parse(name, &p->kind))
		cli_usage_error(prog, "--scheme", name,
				"unknown scheme (ss css gss tss fss fiss tfss wf dtss dfss dfiss "
				"dtfss static fsc mfsc awf-b awf-c awf-d awf-e af awf auto)");
	if (p->kind == SCHED_CSS)
		p->css_k = sc->k ? sc->k : (iterations + npes - 1) / (npes > 0 ? npes : 1);
	else if (p->kind == SCHED_GSS)
		p->gss_k = sc->k;
	else if (sc->k)
		cli_usage_error(prog, "--chunk", NULL, "applies to css and gss only");
	if (p->kind == SCHED_FSC) {
		if (sc->sd && !(p->fac_sigma > 0)) /* K grows without bound as sd -> 0 */
			cli_usage_error(prog, "--sd", sc->sd,
					"fsc needs an iteration-time sd above 0 (its chunk is "
					"(sqrt(2) I h / (sd p sqrt(ln p)))^(2/3))");
		if (!sc->h != !p->fac_sigma)
			cli_usage_error(prog, sc->h ? "--fsc-overhead" : "--sd", NULL,
					"fsc needs both --fsc-overhead and --sd, or neither (then they are equal)");
		p->fsc_h = sc->h;
		p->fsc_sigma = p->fac_sigma;
		p->fac_sigma = 0;
	} else if (sc->h) {
		cli_usage_error(prog, "--fsc-overhead", NULL, "applies to fsc only");
	}
	if (p->measured_rates && !sched_kind_is_distributed(p->kind))
		cli_usage_error(prog, "--rates", "measured", "applies to dtss dfss dfiss dtfss only");
	if (p->fac && p->fac_mu <= 0)
		cli_usage_error(prog, "--fac", NULL, "needs --mu (mean iteration time) > 0");
	if (p->fiss_x && p->fiss_x <= (p->fiss_sigma ? p->fiss_sigma : 3))
		cli_usage_error(prog, "--fiss-x", NULL, "must be greater than --sigma");
}
