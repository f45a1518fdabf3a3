/*
 * run_report.h - the end of a run, for the master and Tree Scheduling's
 * coordinator alike: Chronopoulos et al. 2002's per-PE table (T_com+wait / T_comp, chunks,
 * iterations), T_p, and for emulated runs T_ideal and the efficiency
 * E = T_ideal / T_p (docs/emulation.md 2); Tree Scheduling adds its chain and
 * Kim and Purtilo 1996's Table 2.  As text, CSV and JSON, with the image files.
 */
#ifndef DLS_RUN_REPORT_H
#define DLS_RUN_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "emul.h"
#include "dls_proto.h"
#include "iter_order.h"
#include "result_store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tree Scheduling's figures: the chain and Kim and Purtilo 1996's Table 2. */
struct run_report_tree {
	int64_t migrations, moved, duplicates, reassigned;
	size_t nunits;
	int64_t *unit_size, *unit_count;
	int npes;
	int *chain;		  /* slave ids, left to right */
	int *link_level;	  /* npes - 1 */
	int64_t *link_migrations; /* npes - 1 */
	/* workpile and roc (piles != 0): work moves between any two slaves, so
	 * per pair instead of per link: npairs (giver, receiver, migrations) */
	int piles;
	size_t npairs;
	int *pair_from, *pair_to;
	int64_t *pair_count;
};

/* Frees the arrays of t. */
void run_report_tree_free(struct run_report_tree *t);

struct timeline;

/* One loop of a run of many loops: its number, when it began and ended
 * (dls_now time), T_p, T_ideal (0: unknown), E and its work. */
struct run_report_loop {
	uint32_t loop;
	int64_t iterations;
	double t_start, t_end, t_p, t_ideal, efficiency;
	uint64_t work;
	double gap;	   /* from the loop before's last result to this loop's start
			      gate opening (0 for the first) */
	double all_given;  /* from the start gate opening to the last slave being
			      given its first chunk of the loop */
};

struct run_report {
	struct dls_job job; /* what the run was */
	struct dls_status snap;
	uint64_t work;	/* the loop's total cost in unit iterations (0: not known) */
	double t_ideal; /* 0 when the cluster's power is not known */
	double efficiency;
	const struct run_report_tree *tree; /* NULL: not Tree Scheduling */
	/* NULL, or every chunk of a master-slave run (the JSON's "timeline");
	 * set after run_report_build, owned by the caller */
	const struct timeline *timeline;
	/* NULL, or each loop of a run of many loops (run_report_set_loops) */
	const struct run_report_loop *loops;
	size_t nloops;
};

/* What to write at the end, and the cluster's power for T_ideal. */
struct run_outputs {
	const char *png, *raw;		    /* Mandelbrot's image files; NULL = not written */
	const char *npy;		    /* every workload's results as .npy */
	const char *csv, *json;
	int quiet;			    /* no table on stdout */
	const struct emul_steps *power; /* sum V_i/Q_i(t) since scheduling started (may be NULL) */
	double t_iter_ns;		/* emulated cost of one unit iteration at power 1 */
};

/*
 * Fills *r: it takes over *snap (freed by run_report_free) and takes the
 * work from the complete results (the workload's cost of each); with
 * o->power and o->t_iter_ns, T_ideal and E: the time the cluster's power
 * schedule takes over the work from clock_lead seconds in, where the slaves'
 * load clocks stood when scheduling started (master_clock_lead).  tree may
 * be NULL; it must outlive r.
 */
void run_report_build(struct run_report *r, const struct dls_job *job, struct dls_status *snap,
		      const struct result_store *rs, const struct run_outputs *o, double clock_lead,
		      const struct run_report_tree *tree);
void run_report_free(struct run_report *r);

/*
 * A run of n > 1 loops (loops outlives r): T_p becomes the run's, from the
 * first loop's start to the last one's end (the time between loops
 * counts); the work and T_ideal the loops' sums, E their ratio (0 when a
 * loop's T_ideal is unknown); the table and the JSON add the loops.
 */
void run_report_set_loops(struct run_report *r, const struct run_report_loop *loops, size_t n);

/* Chronopoulos et al. 2002's table and the summary lines, for a person. */
void run_report_table(const struct run_report *r, FILE *out);

/* One row per PE, with a header; DLS_OK or DLS_EIO. */
int run_report_csv(const struct run_report *r, const char *path);

/* The run's summary and per-PE rows; DLS_OK or DLS_EIO. */
int run_report_json(const struct run_report *r, const char *path);

/*
 * Writes what o asks for: the table on stdout (unless quiet), the result
 * files, CSV and JSON.  Returns 0, or 1 when a file could not be written
 * (logged).
 */
int run_report_write(const struct run_report *r, const struct result_store *rs,
		     const struct run_outputs *o);

/* The job's parameters as "name=value name=value", for a person. */
void run_report_params(const struct dls_job *job, char *out, size_t len);

#ifdef __cplusplus
}
#endif
#endif
