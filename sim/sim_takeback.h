/*
 * sim_takeback.h - a model of the end game dls run plays
 * (PROTOCOL.md 17, BENCHMARKS.md 5): once the scheme has
 * nothing left to hand out, a slave that asks is given the undone tail of
 * the chunk that will end last, which its holder gives back.
 *
 * The master picks that chunk (the victim) either from the holders' own
 * estimates, one round of calls before (SIM_TAKEBACK_HOLDERS: each holder
 * says how many of its chunk's iterations it has done in how long, and
 * the master takes the largest "undone x elapsed / done"), or from the
 * model's true chunk ends (SIM_TAKEBACK_ORACLE, a bound).  The holder,
 * told at its cut time, keeps what it has done and the iteration it is on,
 * and gives back a share of the rest: the asking slave's rate over the sum
 * of both (iterations a second as each measured them; V_i until then).
 * Every iteration stays computed exactly once: the holder's chunk ends
 * sooner, and the tail is a chunk of the asking slave (which may be taken
 * back again).  Flat model only; private to sim/.
 */
#ifndef DLS_SIM_TAKEBACK_H
#define DLS_SIM_TAKEBACK_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"
#include "sim_slave.h"

/* Every chunk of a run as the model ran it (its holder is the chunk's pe;
 * sim.h), and what was taken back. */
struct tb_books {
	struct sim_chunk *v;
	size_t n, cap;
	int64_t takebacks, taken; /* take-backs, and their iterations */
};

/* Records a chunk given: DLS_OK or DLS_ENOMEM. */
int tb_record(struct tb_books *b, int holder, int64_t start, int64_t count, double given,
	      double begin, double end);

/*
 * Slave i asks at the master's time `now` and the scheme is exhausted:
 * takes back the tail of the victim chunk (not i's) as c->takeback says,
 * shortening it and its holder's timeline in sl and res (its request,
 * busy time and measured chunk), and gives it to slave i as a new chunk
 * whose reply reaches i at *reply_at (after the calls to the holders).
 * 1 with *out set, 0 when nothing is worth taking back (no chunk still
 * running with two iterations undone), or a negative DLS_ error.
 */
int tb_take(struct tb_books *b, const struct sim_config *c, struct sim_slave *sl, int i,
	    double now, struct sim_result *res, struct dls_range *out, double *reply_at);

/* When the last chunk ends (the run's last result, at the slaves). */
double tb_last_end(const struct tb_books *b);

/* DLS_OK when the chunks cover [0, iterations) exactly once, else DLS_ESTATE. */
int tb_check_cover(const struct tb_books *b, int64_t iterations);

void tb_free(struct tb_books *b);

#endif
