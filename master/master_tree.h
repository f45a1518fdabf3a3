/*
 * master_tree.h - the master as Tree Scheduling's coordinator P0 (seed 000
 * section 3, seed 001 section 4.1, SCHEMES.md 6): it registers the slaves,
 * builds the bitonic cluster tree and migration chain from their
 * throughputs, gives each its neighbours and its initial iterations, takes
 * the results that slaves report at intervals (or when idle), and ends the
 * run at I.  Work then moves between neighbours without it; slaves tell it
 * what they handed over, so that it knows who holds what when one dies: a
 * dead slave's undelivered iterations go to its nearest living left
 * neighbour and the chain closes around the gap.
 *
 * Uses the master's registration, image and snapshot (master.h); the
 * master is created with cfg.tree.enabled.  Thread-safe like master.h.
 */
#ifndef DLS_MASTER_TREE_H
#define DLS_MASTER_TREE_H

#include "master.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A slave's place in the chain. */
struct master_tree_place {
	double vpower;
	int64_t start, count, stride; /* its initial iterations */
	double tau;		      /* its throughput, as registered */
	int left_id, right_id;	      /* -1 at an end */
	double left_tau, right_tau;
};

/* What the coordinator must do after a slave was lost. */
struct master_tree_repair {
	int to; /* the living slave that gets the iterations below; -1: none left */
	struct dls_range *ranges;
	size_t nranges;
	int64_t iterations;
	int left, right; /* living slaves whose neighbours changed (-1: none) */
};

/*
 * Registers a slave of throughput `speed` (Speed, or emulated V_i/Q_i),
 * blocks until registration closes, and places it: the chain is built once,
 * over every slave registered by then.  DLS_OK, or a refusal (why filled).
 */
int master_tree_register(struct master *m, const char *name, double speed, int *id,
			 struct master_tree_place *place, char *why);

/*
 * Results of slave id (any iterations of the loop: work moves between
 * slaves without the coordinator).  Checked whole first; iterations already
 * delivered (recomputed after a failure) are skipped.
 */
int master_tree_report(struct master *m, int id, const struct dls_result *res, size_t n,
		       const struct dls_times *times, char *why);

/*
 * Slave `from` handed start, start + stride, ... (count) to slave `to`.
 * When `to` is already lost, rep says where those iterations go now
 * (rep->to >= 0 and rep->nranges > 0); free it with master_tree_repair_free.
 */
int master_tree_migrated(struct master *m, int from, int to, int64_t start, int64_t count,
			 int64_t stride, struct master_tree_repair *rep, char *why);

/* Declares slave id lost and fills rep.  DLS_OK or DLS_ENOENT. */
int master_tree_lost(struct master *m, int id, const char *cause, struct master_tree_repair *rep);

void master_tree_repair_free(struct master_tree_repair *rep);

/* The current living neighbours of slave id (after repairs) and their tau. */
void master_tree_neighbours(struct master *m, int id, int *left, double *left_tau, int *right,
			    double *right_tau);

/* Ids of the slaves that are neither lost nor done (at most max). */
size_t master_tree_living(struct master *m, int *ids, size_t max);

/* Seed 000 Table 2 and the chain, for the report: copies (free() each). */
struct master_tree_stats {
	int64_t migrations, moved, duplicates, reassigned;
	size_t nunits;
	int64_t *unit_size, *unit_count;
	int npes;
	int *chain;	    /* slave ids, left to right */
	int *link_level;    /* npes - 1 */
	int64_t *link_migrations; /* npes - 1 */
};
int master_tree_stats_get(struct master *m, struct master_tree_stats *out);
void master_tree_stats_free(struct master_tree_stats *s);

#ifdef __cplusplus
}
#endif
#endif
