/*
 * slave_placement.h - what the coordinator (dls-treesched) gives a slave it
 * places, and the calls a placed slave makes: Tree Scheduling's loop
 * (slave_tree.h) and the decentralized policies' (slave_pile.h) both start
 * from one placement and speak through one table of calls, which the
 * ORB adapter fills (slave_client.cc) and the fuzzer fakes
 * (tests/fuzz/fuzz_tree_slave.c).
 */
#ifndef DLS_SLAVE_PLACEMENT_H
#define DLS_SLAVE_PLACEMENT_H

#include "slave.h"
#include "pile_policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the coordinator tells a slave when it places it (IDL
 * TreeAssignment): its id and power, the loop, its first iterations, its
 * neighbours in Tree Scheduling's chain, or the policy it runs instead. */
struct placement {
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

/* A neighbour in Tree Scheduling's chain. */
enum tree_side { TREE_LEFT, TREE_RIGHT };

/* The calls a placed slave makes, each DLS_OK or an error with why: on the
 * coordinator (register_tree, report, migrated, rejoin), on a neighbour
 * (demand, transfer: Tree Scheduling), on any slave of the run (balance,
 * give: the decentralized policies); registered tells the adapter the
 * slave's id and job once placed. */
struct placed_ops {
	void *ctx;
	int (*register_tree)(void *ctx, const char *name, double speed, struct placement *a,
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

/* What a placed slave handed over and got (with struct dls_slave_stats). */
struct placed_stats {
	int64_t migrations_out, moved_out, migrations_in, moved_in;
};

#ifdef __cplusplus
}
#endif
#endif
