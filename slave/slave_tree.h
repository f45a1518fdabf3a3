/*
 * slave_tree.h - a slave in Tree Scheduling (Kim and Purtilo 1996 section 3, docs/schemes.md
 * 6.4): it computes the iterations the coordinator placed with it, one at
 * a time; between iterations it serves its neighbours' demands by handing
 * over the tail of its unstarted iterations (tree_migrate_count); when it
 * runs out it sends one demand to its left neighbour (and its right one,
 * bi-directional) and waits; a demand that reaches it while it has nothing
 * waits and is served first when work arrives, so work ripples right.
 * Results go to the coordinator every report interval, and whenever it
 * runs out of work.  It stops when the coordinator says so.
 *
 * Plain C: its remote calls are struct slave_tree_ops (slave_client.cc);
 * its servant (slave_servant.cc) passes incoming demands, transfers and
 * neighbour changes to the slave_tree_on_* functions, from ORB threads.
 */
#ifndef DLS_SLAVE_TREE_H
#define DLS_SLAVE_TREE_H

#include "dls/slave.h"
#include "pile_policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the coordinator tells a slave when it places it (IDL TreeAssignment). */
struct tree_assignment {
	int id;
	double vpower;
	struct dls_job job;
	int64_t start, count, stride;
	double tau, left_tau, right_tau;
	int left_id, right_id; /* -1: none */
	double report_interval;
	int gamma; /* enum tree_gamma */
	int bidirectional;
	/* a decentralized policy (docs/schemes.md appendix A, slave_pile.h)
	 * instead of Tree Scheduling, its parameters, and how many slaves it
	 * may call */
	int piles;
	enum pile_policy policy;
	struct pile_params pile;
	int npes;
};

enum tree_side { TREE_LEFT, TREE_RIGHT };

struct slave_tree_ops {
	void *ctx;
	int (*register_tree)(void *ctx, const char *name, double speed, struct tree_assignment *a,
			     char *why, size_t len);
	int (*report)(void *ctx, int id, const struct dls_result *res, size_t n,
		      const struct dls_times *times, char *why, size_t len);
	int (*migrated)(void *ctx, int from, int to, int64_t start, int64_t count, int64_t stride,
			char *why, size_t len);
	/* calls on the neighbour on that side */
	int (*demand)(void *ctx, enum tree_side side, int from, char *why, size_t len);
	int (*transfer)(void *ctx, enum tree_side side, int from, int64_t start, int64_t count,
			int64_t stride, char *why, size_t len);
	void (*registered)(void *ctx, int id, const struct dls_job *job);
	/* joins a coordinator that resumed from its journal (as struct
	 * slave_ops' rejoin); NULL: a lost coordinator ends the run */
	int (*rejoin)(void *ctx, int id, char *why, size_t len);
	/* workpile and roc: calls on slave `to` (any slave of the run) */
	int (*balance)(void *ctx, int to, int from, const struct pile_msg *m, char *why,
		       size_t len);
	int (*give)(void *ctx, int to, int from, int64_t start, int64_t count, int64_t stride,
		    char *why, size_t len);
};

/* Extra figures of a tree run (with struct slave_stats). */
struct slave_tree_stats {
	int64_t migrations_out, moved_out, migrations_in, moved_in;
};

struct slave_tree;

struct slave_tree *slave_tree_create(void);
void slave_tree_destroy(struct slave_tree *t);

/*
 * Registers with the coordinator and runs until it says stop.  The speed
 * registered is tau = Speed / Q (emulated: V / Q(0)).  A placement under
 * workpile, roc or ripple runs slave_pile_run instead of the tree loop.  DLS_OK,
 * or as slave_run.
 */
int slave_tree_run(struct slave_tree *t, const struct slave_config *cfg,
		   const struct slave_tree_ops *ops, struct slave_stats *st,
		   struct slave_tree_stats *ts, char *why, size_t len);

/* Incoming (any thread): a neighbour's demand; DLS_OK or DLS_EINVAL (not a neighbour). */
int slave_tree_on_demand(struct slave_tree *t, int from);
/*
 * Incoming: iterations start, start + stride, ... (count) from a neighbour or
 * the coordinator (from = -1).  DLS_OK; DLS_EINVAL with why filled when the
 * range is not inside the loop (or the slave is not placed yet); DLS_ENOMEM.
 */
int slave_tree_on_transfer(struct slave_tree *t, int from, int64_t start, int64_t count,
			   int64_t stride, char *why, size_t len);
/*
 * Incoming: a balance message of slave `from` (workpile, roc); DLS_OK, or
 * DLS_ESTATE when this slave does not run such a policy (or is not placed).
 */
int slave_tree_on_balance(struct slave_tree *t, int from, const struct pile_msg *m);

/* Incoming: the coordinator closed the chain around a dead slave. */
void slave_tree_on_neighbours(struct slave_tree *t, int left, double left_tau, int right,
			      double right_tau);
/* Incoming: the run is over. */
void slave_tree_on_stop(struct slave_tree *t);

#ifdef __cplusplus
}
#endif
#endif
