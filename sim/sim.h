/*
 * sim.h - a discrete-event simulation of a master-slave run: the same scheme
 * library as the master, the real per-iteration costs of the workload, the
 * emulated cluster (V_i, Q_i(t)), a per-request service time at the master
 * and a one-way link latency, and a slave that asks for its next chunk a
 * lead before the current one ends.  It gives a run's second limit (docs/emulation.md 4):
 * the scheme's own schedule without framework overhead (overhead 0, latency
 * 0), or a model of the framework with measured overheads, at any scale.
 * With hmasters (relay mode, docs/schemes.md 5) each slave talks to its hmaster;
 * an hmaster has one merged message in flight to the master at a time and
 * sends, when its reply is back, every request that arrived meanwhile, as
 * hmaster/relay.c does.  The master serves messages one at a time, overhead_s
 * each plus per_request_s per request they carry.  Two-level mode
 * (twolevel.c): the master runs the scheme over the hmasters with
 * A_h = sum of their slaves' A_i; each hmaster runs it over its slaves on
 * the chunks it holds, hm_overhead_s a local request, and asks for the next
 * chunk once half of the current one is handed out.
 * Deterministic; not thread-safe.
 *
 * The one header of sim/ that its users include: it also brings Tree
 * Scheduling's model (tree_sim.h: tree_sim_run) and the decentralized
 * policies of docs/schemes.md appendix A (pile_sim.h: pile_sim_run).  The event heap and the
 * slaves' and hierarchy's models are private to sim/.
 */
#ifndef DLS_SIM_H
#define DLS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "emul.h"
#include "dls_sched.h"
#include "pile_sim.h"
#include "tree_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sim_pe {
	double speed;		/* V_i before normalisation (the master divides by the min) */
	double declared;	/* the Speed it declares, if not speed (0: it is) */
	struct emul_steps load; /* Q_i(t), t from the start of scheduling */
};

/* The take-back end game (sim_takeback.h): the model of what dls run
 * does (BENCHMARKS.md 5). */
enum sim_takeback {
	SIM_TAKEBACK_OFF,     /* a slave that finds nothing left is done (dls run) */
	SIM_TAKEBACK_HOLDERS, /* the victim by the holders' own estimates */
	SIM_TAKEBACK_ORACLE   /* the victim by the true chunk ends: a bound */
};

struct sim_config {
	struct sched_params sched; /* kind and options; iterations and npes are filled in */
	const uint64_t *cost;	   /* cost of each iteration in unit iterations (I entries) */
	int64_t iterations;
	const struct sim_pe *pes;
	int npes;
	double t_iter_s;     /* seconds per unit iteration at power 1 */
	double overhead_s;   /* master service time per message */
	double per_request_s; /* and per request in a message */
	double latency_s;    /* one-way link latency */
	double poll_s;	     /* A_i = 0: read Q_i again after this long */
	int overlap;	     /* slaves ask ahead: a request leaves DLS_SLAVE_LEAD_RTTS
				modelled round trips (sim_round_trip) before the
				chunk's end; 0: at its end */
	int hmasters;	     /* HDTSS relay: slave i talks to hmaster i mod hmasters (0: flat) */
	double hm_overhead_s; /* an hmaster's service time per merged message */
	int twolevel;	      /* with hmasters: two-level mode instead of relay */
	enum sim_takeback takeback; /* flat, one step: the end game modelled */
	int steps;	      /* loops of the run (0: one); flat model only: each
				 the whole loop again, the next starting once
				 the last result of this one is in, the
				 requests held there served then; as dls run
				 --loops: an adaptive technique goes on from
				 what it learnt (sched_next_step), any other
				 starts afresh with the slaves' A_i then */
	int fresh_loops;      /* every loop's scheme starts afresh (--fresh-loops) */
	const uint64_t *const *loop_cost; /* steps > 1: loop k's costs (I entries
					     each); NULL: cost in every loop */
};

struct sim_pe_result {
	int64_t chunks, iterations;
	double t_comp, t_comwait;
};

/* One chunk as the flat model ran it: its PE, its iterations, when the
 * master served it, and when the PE began and ended computing it (a chunk
 * cut by the take-back ends sooner). */
struct sim_chunk {
	int pe;
	int64_t start, count;
	double given, begin, end;
};

#define SIM_MAX_DECISIONS 16

struct sim_result {
	double t_p;	 /* first request at the master to the last result there */
	double t_ideal;	 /* total cost x t_iter / sum V_i/Q_i(t) */
	double efficiency;
	int64_t chunks;
	int recomputations;
	int64_t takebacks, taken_back; /* take-backs and their iterations (takeback) */
	struct sched_switch decisions[SIM_MAX_DECISIONS]; /* --scheme auto's first ones */
	int ndecisions;					  /* how many it made in all */
	struct sim_pe_result *pe; /* npes entries; free with sim_result_free */
	/* the flat model's every chunk, in the order served (all loops, on
	 * one clock); NULL with hmasters */
	struct sim_chunk *timeline;
	size_t ntimeline;
	/* each time step's T_p, T_ideal (the same work from its start) and
	 * chunks (steps entries, steps >= 1; t_p etc. above are the totals) */
	struct sim_step_result {
		double t_p, t_ideal;
		int64_t chunks;
	} * step;
	int steps;
};

/*
 * A slave's round trip in the model: its request's hops to the master (or
 * its hmaster) and back and the service times on the way.
 */
double sim_round_trip(const struct sim_config *c);

/*
 * Runs the simulation.  DLS_OK, DLS_EINVAL (bad configuration: also more
 * than one step with hmasters or a scheme that cannot run another step,
 * auto; a take-back with hmasters or steps), DLS_ESTATE (a take-back model
 * whose chunks do not cover the loop exactly once: a bug), DLS_ENOPOWER
 * (every A_i stays 0 for longer than a simulated day), DLS_ENOMEM.
 */
int sim_run(const struct sim_config *c, struct sim_result *out);
void sim_result_free(struct sim_result *r);

#ifdef __cplusplus
}
#endif
#endif
