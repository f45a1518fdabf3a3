/*
 * simulate_flat.c - `dls simulate` of a master-slave scheme (see
 * simulate_flat.h): the model's configuration from the options, FSC's
 * inputs from the model, a workload's costs loop by loop, the printed run
 * and its JSON and pictures.
 */
#include "simulate_flat.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "dls/err.h"
#include "pictures.h"
#include "simulate_json.h"

#define PROG SIMULATE_PROG

const char *const simulate_takeback_names[] = {"off", "holders", "oracle"};

void simulate_open_workload(const char *name, const struct dls_param *p, int n, struct work *wk)
{
	char why[256];

	if (work_open(wk, name, p, (size_t)n, ITER_ORDER_NATURAL, why, sizeof(why)))
		cli_usage_error(PROG, "--workload", name, why);
	if (work_is_declared(wk)) {
		work_close(wk);
		cli_usage_error(PROG, "--workload", name, "its body is needed for its costs");
	}
}

/* FSC's inputs when --h and --sd are not given: a chunk's scheduling
 * overhead is the modelled round trip, the iteration time's sd that of
 * the costs at power 1 (both 0, the library's h = sd, if the costs are
 * all equal). */
static void fsc_from_model(struct sim_config *sim)
{
	double mean = 0, var = 0;

	for (int64_t i = 0; i < sim->iterations; i++)
		mean += (double)sim->cost[i];
	mean /= (double)sim->iterations;
	for (int64_t i = 0; i < sim->iterations; i++)
		var += ((double)sim->cost[i] - mean) * ((double)sim->cost[i] - mean);
	var /= (double)sim->iterations;
	if (!(var > 0) || !(sim_round_trip(sim) > 0) || !(sim->t_iter_s > 0)) {
		printf("fsc: h = sd (the model has no overhead or no spread of costs)\n");
		return;
	}
	sim->sched.fsc_h = sim_round_trip(sim);
	sim->sched.fsc_sigma = sqrt(var) * sim->t_iter_s;
	printf("fsc: h %.1f us (the modelled round trip), iteration sd %.1f us\n",
	       sim->sched.fsc_h * 1e6, sim->sched.fsc_sigma * 1e6);
}

/* Frees loop_costs' answer (not its [0], the caller's). */
static void loop_costs_free(uint64_t **lc, int loops)
{
	for (int k = 1; lc && k < loops; k++)
		free(lc[k]);
	free(lc);
}

/*
 * A run of `loops` loops of o's workload: loop k's cost of each iteration
 * (in the order's sequence), computed as dls reference would with
 * dls.loop = k; [0] is cost0, the loop 0 costs already made.  NULL when
 * out of memory; exits 1 when the workload fails.
 */
static uint64_t **loop_costs(const struct flat_opts *o, int64_t n, int loops,
			     const uint64_t *cost0)
{
	uint64_t **lc = calloc((size_t)loops, sizeof(*lc)), *col = malloc((size_t)n * 8);
	struct iter_order order;
	char why[256];

	if (!lc || !col) {
		free(lc);
		free(col);
		return NULL;
	}
	lc[0] = (uint64_t *)cost0;
	iter_order_init(&order, o->mode, n);
	for (int k = 1; k < loops; k++) {
		struct dls_param p[DLS_MAX_PARAMS];
		int np = o->nparams;
		struct work wk;

		memcpy(p, o->params, (size_t)o->nparams * sizeof(*p));
		lc[k] = malloc((size_t)n * sizeof(**lc));
		if (!lc[k] || work_params_set_loop(p, &np, (uint32_t)k)) {
			loop_costs_free(lc, k + 1);
			free(col);
			return NULL;
		}
		simulate_open_workload(o->workload, p, np, &wk);
		if (wk.loop.iterations != n || work_sequential(&wk, NULL, col, why, sizeof(why))) {
			fprintf(stderr, PROG ": workload '%s', loop %d: %s\n", o->workload, k,
				wk.loop.iterations != n ? "another number of iterations" : why);
			exit(1);
		}
		work_close(&wk);
		for (int64_t i = 0; i < n; i++)
			lc[k][i] = col[iter_order_column(&order, i)];
	}
	free(col);
	return lc;
}

/* The model's configuration from the options (its pes and loop costs the caller's). */
static void configure(const struct flat_opts *o, struct sim_pe *pes, const struct cluster *cl,
		      const uint64_t *cost, int64_t n, struct sim_config *sim)
{
	for (int i = 0; i < cl->n; i++) {
		pes[i].speed = cl->speed[i];
		pes[i].declared = cl->declared[i];
		pes[i].load = cl->load[i];
	}
	memset(sim, 0, sizeof(*sim));
	sim->sched = o->sched;
	sim->sched.correlated = o->mode == ITER_ORDER_NATURAL;
	sim->cost = cost;
	sim->iterations = n;
	sim->pes = pes;
	sim->npes = cl->n;
	sim->t_iter_s = o->t_iter_ns * 1e-9;
	sim->overhead_s = o->overhead_us * 1e-6;
	sim->per_request_s = o->per_request_us * 1e-6;
	sim->hmasters = o->hmasters;
	sim->hm_overhead_s = o->hm_overhead_us * 1e-6;
	sim->twolevel = o->twolevel;
	sim->latency_s = o->latency_us * 1e-6;
	sim->poll_s = o->poll_ms * 1e-3;
	sim->overlap = o->overlap;
	sim->steps = o->loops;
	sim->fresh_loops = o->fresh_loops;
	sim->takeback = o->takeback;
}

/* The run as dls run's summary shows one: per PE, per loop, the whole,
 * the take-backs and auto's decisions. */
static void print_run(const struct flat_opts *o, const struct cluster *cl,
		      const struct sim_result *res, const char *what)
{
	printf("simulated: scheme %s, %s, order %s, %d slaves, %d hmasters%s, overhead %.1f "
	       "us + %.1f us a request, latency %.1f us, overlap %s\n",
	       sched_kind_name(o->sched.kind), what, iter_order_name(o->mode), cl->n,
	       o->hmasters, o->hmasters ? (o->twolevel ? " (twolevel)" : " (relay)") : "",
	       o->overhead_us, o->per_request_us, o->latency_us, o->overlap ? "on" : "off");
	if (o->per_pe)
		for (int i = 0; i < cl->n; i++)
			printf("%5d V %.2f chunks %lld iterations %lld T_com+wait/T_comp %.3f/%.3f\n",
			       i, cl->speed[i], (long long)res->pe[i].chunks,
			       (long long)res->pe[i].iterations, res->pe[i].t_comwait,
			       res->pe[i].t_comp);
	if (res->steps > 1)
		for (int k = 0; k < res->steps; k++)
			printf("step %d: T_p %.3f s   T_ideal %.3f s   E %.3f   chunks %lld\n",
			       k + 1, res->step[k].t_p, res->step[k].t_ideal,
			       res->step[k].t_p > 0 ? res->step[k].t_ideal / res->step[k].t_p : 0,
			       (long long)res->step[k].chunks);
	printf("T_p %.3f s   T_ideal %.3f s   E %.3f   chunks %lld   recomputations %d%s\n",
	       res->t_p, res->t_ideal, res->efficiency, (long long)res->chunks,
	       res->recomputations, res->steps > 1 ? "   (all steps)" : "");
	if (o->takeback)
		printf("take-back (%s): %lld take-backs, %lld iterations taken back\n",
		       simulate_takeback_names[o->takeback], (long long)res->takebacks,
		       (long long)res->taken_back);
	for (int k = 0; k < res->ndecisions && k < SIM_MAX_DECISIONS; k++) {
		char line[160];

		sched_switch_describe(&res->decisions[k], line, sizeof(line));
		printf("scheme auto: %s\n", line);
	}
}

/* Writes the run's JSON to path: 0, or -1 (said). */
static int write_json(const struct flat_opts *o, const struct cluster *cl,
		      const struct sim_config *sim, const struct sim_result *res, const char *path)
{
	json_t *obj = json_pack(
	    "{sssisisssssfsfsbsfsfsfsIsi}", "scheme", sched_kind_name(o->sched.kind), "slaves",
	    cl->n, "hmasters", o->hmasters, "hmode",
	    o->hmasters ? (o->twolevel ? "twolevel" : "relay") : "flat", "order",
	    iter_order_name(o->mode), "overhead_us", o->overhead_us, "latency_us", o->latency_us,
	    "overlap", o->overlap, "t_p", res->t_p, "t_ideal", res->t_ideal, "efficiency",
	    res->efficiency, "chunks", (json_int_t)res->chunks, "recomputations",
	    res->recomputations);
	json_t *per_step = json_array();
	int bad;

	for (int k = 0; per_step && k < res->steps; k++)
		json_array_append_new(
		    per_step,
		    json_pack("{sfsfsfsI}", "t_p", res->step[k].t_p, "t_ideal", res->step[k].t_ideal,
			      "efficiency",
			      res->step[k].t_p > 0 ? res->step[k].t_ideal / res->step[k].t_p : 0,
			      "chunks", (json_int_t)res->step[k].chunks));
	if (obj && o->takeback) {
		json_object_set_new(obj, "take_back",
				    json_string(simulate_takeback_names[o->takeback]));
		json_object_set_new(obj, "takebacks", json_integer(res->takebacks));
		json_object_set_new(obj, "taken_back", json_integer(res->taken_back));
	}
	if (obj && per_step)
		json_object_set_new(obj, "steps", per_step);
	else
		json_decref(per_step);
	bad = !obj || simulate_json_run(obj, res, cl->speed, cl->n, sim->iterations,
					sim->latency_s) ||
	      json_dump_file(obj, path, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
	json_decref(obj);
	if (bad)
		fprintf(stderr, PROG ": cannot write '%s'\n", path);
	return bad ? -1 : 0;
}

/* The JSON, and the pictures drawn from it (from a temporary JSON when
 * only pictures are asked for): 0, or -1 (said). */
static int write_outputs(const struct flat_opts *o, const struct cluster *cl,
			 const struct sim_config *sim, const struct sim_result *res)
{
	char tmp_json[4200] = "";
	const char *json = o->json;
	int rc;

	if (!json && !o->gantt && !o->report)
		return 0;
	if (!json) {
		const char *tmp = getenv("TMPDIR");
		int fd;

		snprintf(tmp_json, sizeof(tmp_json), "%s/dls-simulate-XXXXXX.json",
			 tmp && *tmp ? tmp : "/tmp");
		fd = mkstemps(tmp_json, 5);
		if (fd < 0) {
			fprintf(stderr, PROG ": cannot make a temporary file: %s\n", strerror(errno));
			return -1;
		}
		close(fd);
		json = tmp_json;
	}
	rc = write_json(o, cl, sim, res, json) ||
	     pictures_draw(json, o->gantt, o->report, PROG, stdout, "");
	if (*tmp_json)
		unlink(tmp_json);
	return rc ? -1 : 0;
}

int simulate_flat(const struct flat_opts *o, const struct cluster *cl, const uint64_t *cost,
		  int64_t n, const char *what)
{
	struct sim_pe *pes = calloc((size_t)cl->n, sizeof(*pes));
	uint64_t **lcost = NULL;
	struct sim_config sim;
	struct sim_result res;
	int rc;

	if (!pes || (o->workload && o->loops > 1 && !(lcost = loop_costs(o, n, o->loops, cost)))) {
		fprintf(stderr, PROG ": out of memory\n");
		free(pes);
		return 1;
	}
	configure(o, pes, cl, cost, n, &sim);
	sim.loop_cost = (const uint64_t *const *)lcost;
	if (sim.sched.kind == SCHED_FSC && !sim.sched.fsc_h)
		fsc_from_model(&sim);
	rc = sim_run(&sim, &res);
	if (rc) {
		fprintf(stderr, PROG ": cannot simulate: %s\n", dls_strerror(rc));
	} else {
		print_run(o, cl, &res, what);
		rc = write_outputs(o, cl, &sim, &res);
		sim_result_free(&res);
	}
	loop_costs_free(lcost, o->loops);
	free(pes);
	return rc ? 1 : 0;
}
