/*
 * simulate_piles.c - `dls simulate --scheme workpile|roc|ripple|none`: the
 * decentralized policies in the simulator (sim/pile_sim.c), printed with
 * their migrations, E and Campos and Scherson 2000's NP.
 */
#include "simulate_piles.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "dls/err.h"

void piles_opts_init(struct piles_opts *o, enum pile_policy policy)
{
	memset(o, 0, sizeof(*o));
	o->policy = policy;
	o->alloc = PILE_ALLOC_EQUAL;
	o->seed = 1;
	o->seeds = 1;
	pile_params_init(&o->params);
}

static void print_params(const struct piles_opts *o)
{
	const struct pile_params *p = &o->params;

	switch (o->policy) {
	case PILE_WORKPILE:
		printf("workpile: threshold %lld, backoff %g..%g us, seed %llu\n",
		       (long long)p->threshold, p->backoff_s * 1e6, p->backoff_max_s * 1e6,
		       (unsigned long long)o->seed);
		break;
	case PILE_ROC:
		printf("roc: HT %lld LT %lld CT %lld, tables %d, NF_max %d, interval %g us, "
		       "first ND %s, seed %llu\n",
		       (long long)p->ht, (long long)p->lt, (long long)p->ct, p->table_size, p->nf_max,
		       p->interval_s * 1e6, p->nd_s > 0 ? "given" : "1 MB at 1 Gb/s + RTT",
		       (unsigned long long)o->seed);
		break;
	case PILE_RIPPLE:
		printf("ripple: Tortoise on a %s, step %g us\n", ripple_topology_name(p->topology),
		       p->step_s * 1e6);
		break;
	default:
		break;
	}
}

/* The result for scripts; t_median (the median over o->seeds) when seeds > 1. */
static int write_json(const char *path, const struct piles_opts *o, const struct pile_sim_result *r,
		      int npes, double t_ideal, double t_nolb, double t_median)
{
	json_t *units = json_array(), *iters = json_array(), *top;
	int rc;

	for (size_t k = 0; units && k < r->nunits; k++)
		json_array_append_new(units, json_pack("[II]", (json_int_t)r->units[k].size,
						       (json_int_t)r->units[k].count));
	for (int i = 0; iters && i < npes; i++)
		json_array_append_new(iters, json_integer(r->pe_iterations[i]));
	top = json_pack("{sssisssfsfsfsfsIsIsIsIsoso}", "scheme", pile_policy_name(o->policy),
			"slaves", npes, "alloc", pile_alloc_name(o->alloc), "t_p", r->t_p, "t_ideal",
			t_ideal, "t_nolb", t_nolb, "efficiency", r->t_p > 0 ? t_ideal / r->t_p : 0,
			"migrations", (json_int_t)r->migrations, "moved", (json_int_t)r->moved,
			"messages", (json_int_t)r->messages, "dropped", (json_int_t)r->dropped,
			"units", units, "pe_iterations", iters);
	if (top && o->seeds > 1)
		rc = json_object_set_new(top, "seeds", json_integer(o->seeds)) ||
		     json_object_set_new(top, "t_p_median", json_real(t_median)) ||
		     json_object_set_new(top, "efficiency_median", json_real(t_ideal / t_median));
	else
		rc = 0;
	rc = rc || !top || json_dump_file(top, path, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
	json_decref(top);
	return rc ? -1 : 0;
}

/* Prints r; NP = (T_noLB - T_p) / (T_noLB - T_ideal), Campos and Scherson 2000 section 3.3. */
static void print_result(const struct piles_opts *o, const struct pile_sim_config *c,
			 const struct pile_sim_result *r, double t_ideal, double t_nolb)
{
	printf("migrations %lld, iterations moved %lld, messages %lld", (long long)r->migrations,
	       (long long)r->moved, (long long)r->messages);
	if (o->policy == PILE_ROC)
		printf(", requests dropped %lld", (long long)r->dropped);
	printf("\nmigration units (size x times):");
	for (size_t k = 0; k < r->nunits; k++)
		printf(" %lldx%lld", (long long)r->units[k].size, (long long)r->units[k].count);
	printf("\n");
	if (o->per_pe)
		for (int i = 0; i < c->npes; i++)
			printf("%5d tau %.3f iterations %lld busy %.6f in %lld out %lld\n", i,
			       c->tau[i], (long long)r->pe_iterations[i], r->pe_busy[i],
			       (long long)r->pe_moved_in[i], (long long)r->pe_moved_out[i]);
	printf("T_p %.6f   T_ideal %.6f   E %.3f   T_noLB %.6f", r->t_p, t_ideal,
	       r->t_p > 0 ? t_ideal / r->t_p : 0, t_nolb);
	if (t_nolb > t_ideal)
		printf("   NP %.3f", (t_nolb - r->t_p) / (t_nolb - t_ideal));
	printf("\n");
}

/* The configuration of a cluster run (tc: the cluster's tau and power, as
 * Tree Scheduling's; free with tree_sim_config_free). */
static int cluster_config(const struct piles_opts *o, const struct cluster *cl,
			  const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			  struct tree_sim_config *tc, struct pile_sim_config *c, double *t_ideal)
{
	int rc = tree_sim_config_cluster(cl->speed, cl->load, cl->n, cost, iterations, t_unit, tc,
					 t_ideal);

	memset(c, 0, sizeof(*c));
	c->tau = tc->tau;
	c->power = tc->power;
	c->npes = tc->npes;
	c->iterations = iterations;
	c->cost = cost;
	c->t_unit = t_unit;
	c->latency = latency;
	c->policy = o->policy;
	c->alloc = o->alloc;
	c->params = o->params;
	c->seed = o->seed;
	return rc;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* T_p over `seeds` seeds from c->seed: the median, the least and the most. */
static int over_seeds(struct pile_sim_config *c, int seeds, double *median, double *lo,
		      double *hi)
{
	double *t = calloc((size_t)seeds, sizeof(*t));
	uint64_t first = c->seed;
	int rc = t ? DLS_OK : DLS_ENOMEM;

	for (int k = 0; k < seeds && !rc; k++) {
		struct pile_sim_result r;

		c->seed = first + (uint64_t)k;
		if (!(rc = pile_sim_run(c, &r))) {
			t[k] = r.t_p;
			pile_sim_result_free(&r);
		}
	}
	c->seed = first;
	if (!rc) {
		qsort(t, (size_t)seeds, sizeof(*t), by_value);
		*median = seeds % 2 ? t[seeds / 2] : (t[seeds / 2 - 1] + t[seeds / 2]) / 2;
		*lo = t[0];
		*hi = t[seeds - 1];
	}
	free(t);
	return rc;
}

int pile_sim_on_cluster(const struct piles_opts *o, const struct cluster *cl, const uint64_t *cost,
			int64_t iterations, double t_unit, double latency, double *t_p,
			double *t_ideal)
{
	struct tree_sim_config tc;
	struct pile_sim_config c;
	double lo, hi;
	int rc = cluster_config(o, cl, cost, iterations, t_unit, latency, &tc, &c, t_ideal);

	if (!rc)
		rc = over_seeds(&c, o->seeds > 1 ? o->seeds : 1, t_p, &lo, &hi);
	tree_sim_config_free(&tc);
	return rc;
}

int simulate_piles_cluster(const struct piles_opts *o, const struct cluster *cl,
			   const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			   const char *what)
{
	struct tree_sim_config tc;
	struct pile_sim_config c;
	struct pile_sim_result r, none;
	double t_ideal, median = 0, lo, hi;
	const char *why;
	int rc = cluster_config(o, cl, cost, iterations, t_unit, latency, &tc, &c, &t_ideal);

	if (rc) {
		fprintf(stderr, "dls simulate: out of memory\n");
		return 1;
	}
	if ((why = pile_sim_check(&c))) {
		tree_sim_config_free(&tc);
		cli_usage_error("dls simulate", "--scheme", pile_policy_name(o->policy), why);
	}
	c.policy = PILE_NONE; /* the placement alone, for NP */
	rc = pile_sim_run(&c, &none);
	c.policy = o->policy;
	if (!rc && (rc = pile_sim_run(&c, &r)))
		pile_sim_result_free(&none);
	if (rc) {
		fprintf(stderr, "dls simulate: cannot simulate %s: %s\n", pile_policy_name(o->policy),
			dls_strerror(rc));
		tree_sim_config_free(&tc);
		return 1;
	}
	printf("simulated: scheme %s (allocation %s), %s, %d slaves, latency %g\n",
	       pile_policy_name(o->policy), pile_alloc_name(o->alloc), what, c.npes, latency);
	print_params(o);
	print_result(o, &c, &r, t_ideal, none.t_p);
	if (o->seeds > 1 && (rc = over_seeds(&c, o->seeds, &median, &lo, &hi)))
		fprintf(stderr, "dls simulate: cannot simulate %s: %s\n", pile_policy_name(o->policy),
			dls_strerror(rc));
	else if (o->seeds > 1)
		printf("over %d seeds (%llu-%llu): T_p median %.6f (%.6f-%.6f), E median %.3f "
		       "(%.3f-%.3f)\n",
		       o->seeds, (unsigned long long)o->seed,
		       (unsigned long long)(o->seed + (uint64_t)o->seeds - 1), median, lo, hi,
		       t_ideal / median, t_ideal / hi, t_ideal / lo);
	if (!rc && o->json && write_json(o->json, o, &r, c.npes, t_ideal, none.t_p, median)) {
		fprintf(stderr, "dls simulate: cannot write '%s'\n", o->json);
		rc = 1;
	}
	pile_sim_result_free(&r);
	pile_sim_result_free(&none);
	tree_sim_config_free(&tc);
	return rc ? 1 : 0;
}
