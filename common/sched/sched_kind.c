/*
 * sched_kind.c - the schemes' names and families, the parameters' defaults
 * and their wire form, and the ACPSA service order: what every user of the
 * scheduler needs without a scheduler.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "dls/err.h"
#include "dls_sched.h"

static const char *const kind_names[SCHED_KIND_COUNT] = {
    [SCHED_SS] = "ss",	       [SCHED_CSS] = "css",	[SCHED_GSS] = "gss",
    [SCHED_TSS] = "tss",       [SCHED_FSS] = "fss",	[SCHED_FISS] = "fiss",
    [SCHED_TFSS] = "tfss",     [SCHED_WF] = "wf",	[SCHED_DTSS] = "dtss",
    [SCHED_DFSS] = "dfss",     [SCHED_DFISS] = "dfiss", [SCHED_DTFSS] = "dtfss",
    [SCHED_STATIC] = "static", [SCHED_FSC] = "fsc",	[SCHED_MFSC] = "mfsc",
    [SCHED_AWF_B] = "awf-b",   [SCHED_AWF_C] = "awf-c", [SCHED_AWF_D] = "awf-d",
    [SCHED_AWF_E] = "awf-e",   [SCHED_AF] = "af",	[SCHED_AWF] = "awf",
    [SCHED_AUTO] = "auto",
};

const char *sched_kind_name(enum sched_kind k)
{
	return (unsigned)k < SCHED_KIND_COUNT ? kind_names[k] : "?";
}

int sched_kind_parse(const char *name, enum sched_kind *out)
{
	for (int k = 0; k < SCHED_KIND_COUNT; k++) {
		if (!strcasecmp(name, kind_names[k])) {
			*out = (enum sched_kind)k;
			return DLS_OK;
		}
	}
	return DLS_ENOENT;
}

int sched_kind_is_distributed(enum sched_kind k)
{
	return k == SCHED_DTSS || k == SCHED_DFSS || k == SCHED_DFISS || k == SCHED_DTFSS;
}

int64_t sched_acp(double vpower, double q, int waits_idle)
{
	int64_t a = (int64_t)floor(vpower / q + 1e-9);

	return a < 1 && !waits_idle ? 1 : a;
}

void sched_params_init(struct sched_params *p)
{
	memset(p, 0, sizeof(*p));
	p->profile = SCHED_PROFILE_TABLE;
}

int sched_kind_is_adaptive(enum sched_kind k)
{
	return k == SCHED_AWF_B || k == SCHED_AWF_C || k == SCHED_AWF_D || k == SCHED_AWF_E ||
	       k == SCHED_AF || k == SCHED_AWF;
}

int sched_kind_learns_across_steps(enum sched_kind k)
{
	return sched_kind_is_adaptive(k) || k == SCHED_AUTO;
}

int sched_kind_is_weighted(enum sched_kind k)
{
	return k == SCHED_WF || k == SCHED_AWF;
}

int sched_acpsa_before(int64_t acp_a, double arrival_a, int64_t acp_b, double arrival_b)
{
	return acp_a > acp_b || (acp_a == acp_b && arrival_a < arrival_b);
}

void sched_params_to_scheme(const struct sched_params *p, struct dls_scheme *out)
{
	out->kind = p->kind;
	out->profile = p->profile;
	out->alpha_num = p->alpha_num;
	out->alpha_den = p->alpha_den;
	out->fac = p->fac;
	out->fac_mu = p->fac_mu;
	out->fac_sigma = p->fac_sigma;
	out->fiss_sigma = p->fiss_sigma;
	out->fiss_x = p->fiss_x;
}

void sched_params_from_scheme(const struct dls_scheme *in, struct sched_params *p)
{
	p->kind = (enum sched_kind)in->kind;
	p->profile = (enum sched_profile)in->profile;
	p->alpha_num = in->alpha_num;
	p->alpha_den = in->alpha_den;
	p->fac = in->fac;
	p->fac_mu = in->fac_mu;
	p->fac_sigma = in->fac_sigma;
	p->fiss_sigma = in->fiss_sigma;
	p->fiss_x = in->fiss_x;
}
