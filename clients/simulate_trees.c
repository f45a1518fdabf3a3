/*
 * simulate_trees.c - `dls simulate --scheme trees`: Tree Scheduling in the
 * simulator (sim/tree_sim.c), printed as Kim and Purtilo 1996 reports it: the
 * chain, T_p, the migrations and their sizes (Table 2), per link.
 */
#include "simulate_trees.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "sim.h"

static int write_json(const char *path, const struct trees_opts *o, const struct tree_sim_result *r,
		      int npes, double t_ideal)
{
	json_t *units = json_array(), *chain = json_array(), *links = json_array(), *top;
	int rc;

	for (size_t k = 0; units && k < r->nunits; k++)
		json_array_append_new(units, json_pack("[II]", (json_int_t)r->units[k].size,
						       (json_int_t)r->units[k].count));
	for (int k = 0; chain && k < npes; k++)
		json_array_append_new(chain, json_integer(r->plan->chain[k]));
	for (int k = 0; links && k + 1 < npes; k++)
		json_array_append_new(links, json_integer(r->link_migrations[k]));
	top = json_pack("{sssisssssbsfsfsfsIsIsososo}", "scheme", "trees", "slaves", npes, "gamma",
			tree_migrate_gamma_name(o->gamma), "alloc", tree_plan_alloc_name(o->alloc),
			"bidirectional", o->bidirectional, "t_p", r->t_p, "t_ideal", t_ideal,
			"efficiency", r->t_p > 0 ? t_ideal / r->t_p : 0, "migrations",
			(json_int_t)r->migrations, "moved", (json_int_t)r->moved, "units", units,
			"chain", chain, "link_migrations", links);
	rc = !top || json_dump_file(top, path, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
	json_decref(top);
	return rc ? -1 : 0;
}

/* The configuration of a cluster run, with the options of o. */
static int cluster_config(const struct trees_opts *o, const struct cluster *cl, const uint64_t *cost,
			  int64_t iterations, double t_unit, double latency,
			  struct tree_sim_config *c, double *t_ideal)
{
	int rc = tree_sim_config_cluster(cl->speed, cl->load, cl->n, cost, iterations, t_unit, c,
					 t_ideal);

	c->alloc = o->alloc;
	c->gamma = o->gamma;
	c->bidirectional = o->bidirectional;
	c->latency = latency;
	return rc;
}

int tree_sim_on_cluster(const struct trees_opts *o, const struct cluster *cl,
			const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			struct tree_sim_result *r, double *t_ideal)
{
	struct tree_sim_config c;
	int rc = cluster_config(o, cl, cost, iterations, t_unit, latency, &c, t_ideal);

	if (!rc)
		rc = tree_sim_run(&c, r);
	tree_sim_config_free(&c);
	return rc;
}

int simulate_trees_cluster(const struct trees_opts *o, const struct cluster *cl,
			   const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			   const char *what)
{
	struct tree_sim_config c;
	double t_ideal;
	int rc = cluster_config(o, cl, cost, iterations, t_unit, latency, &c, &t_ideal);

	if (rc) {
		fprintf(stderr, "dls simulate: out of memory\n");
		return 1;
	}
	rc = simulate_trees(o, &c, t_ideal, what);
	tree_sim_config_free(&c);
	return rc;
}

int simulate_trees(const struct trees_opts *o, const struct tree_sim_config *c, double t_ideal,
		   const char *what)
{
	struct tree_sim_result r;
	int rc = tree_sim_run(c, &r);

	if (rc) {
		fprintf(stderr, "dls simulate: cannot simulate Tree Scheduling: %s\n",
			dls_strerror(rc));
		return 1;
	}
	printf("simulated: scheme trees (gamma %s, allocation %s, %s), %s, %d slaves, "
	       "latency %g\n",
	       tree_migrate_gamma_name(o->gamma), tree_plan_alloc_name(o->alloc),
	       o->bidirectional ? "bi-directional" : "uni-directional", what, c->npes, c->latency);
	printf("chain");
	for (int k = 0; k < c->npes; k++)
		printf(" %d", r.plan->chain[k]);
	printf("\nmigrations %lld, iterations moved %lld\n", (long long)r.migrations,
	       (long long)r.moved);
	printf("migration units (size x times):");
	for (size_t k = 0; k < r.nunits; k++)
		printf(" %lldx%lld", (long long)r.units[k].size, (long long)r.units[k].count);
	printf("\nper link (left-right:level migrations):");
	for (int k = 0; k + 1 < c->npes; k++)
		printf(" %d-%d:%d %lld", r.plan->chain[k], r.plan->chain[k + 1], r.plan->link_level[k],
		       (long long)r.link_migrations[k]);
	printf("\n");
	if (o->per_pe)
		for (int i = 0; i < c->npes; i++)
			printf("%5d tau %.3f iterations %lld busy %.6f\n", i, c->tau[i],
			       (long long)r.pe_iterations[i], r.pe_busy[i]);
	printf("T_p %.6f   T_ideal %.6f   E %.3f\n", r.t_p, t_ideal,
	       r.t_p > 0 ? t_ideal / r.t_p : 0);
	if (o->json && write_json(o->json, o, &r, c->npes, t_ideal)) {
		fprintf(stderr, "dls simulate: cannot write '%s'\n", o->json);
		rc = 1;
	}
	tree_sim_result_free(&r);
	return rc ? 1 : 0;
}
