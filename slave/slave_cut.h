/*
 * slave_cut.h - the chunk a master-slave slave computes now, as the
 * master's take-back sees it (PROTOCOL.md 17): how far it is (progress) and
 * a bound the master may lower while it computes (take_back), so that the
 * undone tail of the chunk that would end last goes to an idle slave.
 *
 * The slave's loop is the only one that begins and ends chunks and records
 * what it computed; the servant's threads read the progress and lower the
 * bound.  Emulated (docs/emulation.md 2), an iteration counts as done once its
 * emulated time has passed, and the chunk ends at the emulated time of the
 * work below the bound; real (or a program's own body), the computation
 * checks the bound between pieces of a few milliseconds.
 */
#ifndef DLS_SLAVE_CUT_H
#define DLS_SLAVE_CUT_H

#include <pthread.h>
#include <stdint.h>

#include "emul.h"
#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

struct slave_cut {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* the bound was lowered */
	int on;		     /* a chunk is in progress */
	int cuttable;	     /* ... and may be cut (not while it is a stretch) */
	int64_t start, count; /* the chunk as given */
	int64_t end;	      /* the bound: [start, end) is computed and kept */
	int64_t computed;     /* iterations computed for real so far */
	double c0;	      /* when the chunk began (dls_now) */
	/* emulated: the timeline (power from t0) and the work of each
	 * iteration computed, summed from the chunk's start (unit iterations) */
	int emulated;
	const struct emul_steps *power;
	double t0, t_iter_s;
	double *cum;
	int64_t cap;
	int64_t takebacks, taken; /* chunks cut, iterations given away */
	/* what slave_cut_progress showed last, for an asker that finds the
	 * lock held by a computing thread that does not let go of it */
	pthread_mutex_t seen_lock;
	struct dls_progress seen;
	double seen_c0;
};

/* How long slave_cut_progress waits for the lock before it answers with
 * what it showed last. */
#define SLAVE_CUT_LOCK_WAIT_MS 200

/* An idle cut: DLS_OK or DLS_ENOMEM.  slave_cut_destroy frees. */
int slave_cut_init(struct slave_cut *c);
void slave_cut_destroy(struct slave_cut *c);

/*
 * The loop begins chunk [start, start + count) at c0: emulated with power
 * (valid until slave_cut_finish) from time t0 and t_iter_s seconds a unit
 * iteration, or real (power NULL).  DLS_OK or DLS_ENOMEM (then the chunk
 * is not cuttable, and computes whole).
 */
int slave_cut_begin(struct slave_cut *c, int64_t start, int64_t count, double c0,
		    const struct emul_steps *power, double t0, double t_iter_s);

/*
 * The iterations up to start + k are computed; emulated, they come one by
 * one and `work` is the cost of iteration start + k (unit iterations), for
 * the timeline.  Returns non-zero while iteration start + k + 1 is below the
 * bound (the computation goes on), 0 once the chunk was cut there.
 */
int slave_cut_computed(struct slave_cut *c, int64_t k, double work);

/*
 * Ends the chunk in progress at what is computed (one iteration at least):
 * what is below the bound is kept and delivered, the rest never computed
 * (the slave is about to leave).  Nothing when no chunk is in progress or
 * it cannot be cut.  Any thread.
 */
void slave_cut_short(struct slave_cut *c);

/* The bound now: the chunk's kept end (start + count when never cut). */
int64_t slave_cut_end(struct slave_cut *c);

/*
 * Emulated, once every iteration below the bound is computed: the time its
 * emulated work ends at (it moves earlier when the bound is lowered).
 */
double slave_cut_deadline(struct slave_cut *c);

/*
 * Emulated: sleeps until `lead` seconds before the deadline, waking when
 * the bound is lowered to aim again.  aimed (NULL: a plain sleep): the
 * wake-up latency learnt so far (dls_sleep_aimed's).  Returns the deadline
 * at the end.
 */
double slave_cut_sleep(struct slave_cut *c, double lead, double *aimed);

/* The chunk is over: progress says none, a take_back changes nothing. */
void slave_cut_finish(struct slave_cut *c);

/* The servant's progress(): the chunk now (count 0: none); when the
 * computing thread holds the lock past SLAVE_CUT_LOCK_WAIT_MS, the chunk as
 * it was shown last, not advanced (a stuck computation). */
void slave_cut_progress(struct slave_cut *c, struct dls_progress *p);

/*
 * The servant's take_back(start, end): lowers the bound of the current
 * chunk, which began at start, to end (start < end <= its bound).
 * DLS_OK (also when the chunk is no longer the current one: nothing to do,
 * the master drops results of what it took), or DLS_EINVAL with why for an
 * end outside the chunk.
 */
int slave_cut_take(struct slave_cut *c, int64_t start, int64_t end, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
