/*
 * sim.c - the simulated run mirrors the master and slave cores: every slave
 * asks at time 0; the master serves the requests pending when it is free in
 * ACPSA order (larger A_i first, then arrival, then id), one at a time,
 * overhead_s each; a reply takes latency_s to arrive, the chunk takes its
 * emulated cost (emul_finish over the slave's power schedule), and the next
 * request, carrying the results, takes latency_s to come back.
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls_err.h"

struct sim_slave {
	double ready;	/* when its next request reaches the master */
	double vpower;	/* V_i = speed / min speed */
	struct emul_steps power; /* speed / Q(t) for the emulated cost */
	int active;	/* still requesting */
	double asked;	/* when it sent the pending request */
};

static int64_t acp_at(const struct sim_slave *s, const struct sim_pe *pe, double t)
{
	return (int64_t)floor(s->vpower / emul_steps_at(&pe->load, t) + 1e-9);
}

void sim_result_free(struct sim_result *r)
{
	free(r->pe);
	r->pe = NULL;
}

int sim_run(const struct sim_config *c, struct sim_result *out)
{
	struct sim_slave *sl;
	struct sched *sched = NULL;
	struct sched_params p = c->sched;
	struct emul_steps total = {0};
	int64_t *acp0;
	double min_speed = INFINITY, master_free = 0, last_result = 0, work = 0;
	int rc, active;

	memset(out, 0, sizeof(*out));
	if (c->npes < 1 || c->iterations < 1 || !c->cost || c->t_iter_s < 0 ||
	    c->overhead_s < 0 || c->latency_s < 0 || c->poll_s <= 0)
		return DLS_EINVAL;
	sl = calloc((size_t)c->npes, sizeof(*sl));
	acp0 = calloc((size_t)c->npes, sizeof(*acp0));
	out->pe = calloc((size_t)c->npes, sizeof(*out->pe));
	if (!sl || !acp0 || !out->pe) {
		rc = DLS_ENOMEM;
		goto done;
	}
	for (int i = 0; i < c->npes; i++) {
		if (!(c->pes[i].speed > 0)) {
			rc = DLS_EINVAL;
			goto done;
		}
		if (c->pes[i].speed < min_speed)
			min_speed = c->pes[i].speed;
	}
	for (int i = 0; i < c->npes; i++) {
		const struct sim_pe *pe = &c->pes[i];

		sl[i].vpower = pe->speed / min_speed;
		sl[i].power = pe->load;
		for (size_t k = 0; k < pe->load.n; k++)
			sl[i].power.value[k] = pe->speed / pe->load.value[k];
		if (emul_power_add(&total, pe->speed, &pe->load)) {
			rc = DLS_EINVAL;
			goto done;
		}
		sl[i].active = 1;
		sl[i].ready = c->latency_s;
		sl[i].asked = 0;
		acp0[i] = acp_at(&sl[i], pe, 0);
		if (c->sched.kind == SCHED_WF)
			acp0[i] = (int64_t)(sl[i].vpower * 1000 + 0.5);
	}
	p.iterations = c->iterations;
	p.npes = c->npes;
	p.acp = acp0;
	rc = sched_create(&p, &sched);
	if (rc)
		goto done;
	for (int64_t i = 0; i < c->iterations; i++)
		work += (double)c->cost[i];
	out->t_ideal = emul_finish(&total, 0, work * c->t_iter_s);
	active = c->npes;
	while (active > 0) {
		double now, first = INFINITY;
		int best = -1;
		int64_t best_acp = 0;
		struct chunk ch;

		for (int i = 0; i < c->npes; i++)
			if (sl[i].active && sl[i].ready < first)
				first = sl[i].ready;
		now = first > master_free ? first : master_free;
		/* the requests pending now, in ACPSA order */
		for (int i = 0; i < c->npes; i++) {
			int64_t a;

			if (!sl[i].active || sl[i].ready > now)
				continue;
			a = acp_at(&sl[i], &c->pes[i], sl[i].asked);
			if (a < 1 && sched_remaining(sched) == 0) {
				/* nothing left: the master dismisses it (master_orb.cc) */
				sl[i].active = 0;
				active--;
				continue;
			}
			if (a < 1) { /* it would not have asked: poll again */
				sl[i].ready += c->poll_s;
				sl[i].asked += c->poll_s;
				out->pe[i].t_comwait += c->poll_s;
				if (sl[i].asked > 86400) {
					rc = DLS_ENOPOWER;
					goto done;
				}
				continue;
			}
			if (best < 0 || a > best_acp ||
			    (a == best_acp && sl[i].ready < sl[best].ready)) {
				best = i;
				best_acp = a;
			}
		}
		if (best < 0)
			continue;
		master_free = now + c->overhead_s;
		rc = sched_next(sched, best, best_acp, &ch);
		out->pe[best].t_comwait += master_free + c->latency_s - sl[best].asked;
		if (rc == DLS_EDONE) {
			sl[best].active = 0;
			active--;
			continue;
		}
		if (rc)
			goto done;
		{
			double start = master_free + c->latency_s, cost = 0, end;

			for (int64_t k = ch.start; k < ch.start + ch.size; k++)
				cost += (double)c->cost[k];
			end = emul_finish(&sl[best].power, start, cost * c->t_iter_s);
			out->pe[best].t_comp += end - start;
			out->pe[best].chunks++;
			out->pe[best].iterations += ch.size;
			out->chunks++;
			sl[best].asked = end;
			sl[best].ready = end + c->latency_s;
			if (sl[best].ready > last_result)
				last_result = sl[best].ready;
		}
	}
	out->recomputations = sched_recomputations(sched);
	out->t_p = last_result - c->latency_s; /* scheduling starts at the first request */
	out->efficiency = out->t_p > 0 ? out->t_ideal / out->t_p : 0;
	rc = DLS_OK;
done:
	sched_destroy(sched);
	free(sl);
	free(acp0);
	if (rc)
		sim_result_free(out);
	return rc;
}
