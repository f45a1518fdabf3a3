/*
 * status.h - a consistent copy of a scheduler's state (a master's, a
 * coordinator's, or a two-level hmaster's own): the final table of an
 * embedded master (dls_embed_master_wait), and what `dls status` shows;
 * and a slave's own totals.
 */
#ifndef DLS_STATUS_H
#define DLS_STATUS_H

#include <stdint.h>

#include "dls/job.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A slave's state in the table. */
enum dls_slave_state {
	DLS_SLAVE_REGISTERED,
	DLS_SLAVE_ACTIVE,
	DLS_SLAVE_WAITING,
	DLS_SLAVE_DONE,
	DLS_SLAVE_LOST
};

struct dls_slave_status {
	int id;
	char name[64];
	enum dls_slave_state state;
	double speed, vpower;
	int64_t acp;
	int64_t chunks, iterations, held, requeued_chunks;
	struct dls_times times;
	int distrusted; /* --verify found it returning wrong results */
};

/* What --verify did (PROTOCOL.md 19), over the run. */
struct dls_verify_status {
	double fraction;		 /* 0: the run does not verify */
	int64_t pieces, iterations;	 /* pieces picked (a chunk picked is checked
					    in pieces), their iterations */
	int64_t agreed, disputed;	 /* settled at the first copy; after more */
	int64_t of_liars;		 /* dropped: computed again, their slave lied */
	int64_t copies, copied;		 /* copies computed, their iterations */
	int64_t unverifiable;		 /* picked while no other slave could check */
	int64_t unresolved;		 /* no two copies agreed, no slave left */
	int64_t recomputed;		 /* iterations of liars computed again */
	int liars;
};

struct dls_status {
	const char *scheme;
	char scheme_choices[512]; /* --scheme auto: its decisions, "" for another scheme */
	int64_t iterations, assigned, delivered, requeued;
	int64_t takebacks, taken_back; /* chunk tails taken back, their iterations */
	struct dls_verify_status verify;
	int recomputations;
	int started, done;
	double elapsed; /* since scheduling started; T_p once done */
	int nslaves;
	struct dls_slave_status *slaves; /* nslaves entries; free with dls_status_free */
	uint32_t loop, loops; /* a run of many loops: the current one (0 first) of
				 how many (0 or 1: a run of one loop) */
};

/* A slave's own totals when it ended (dls_embed_slave_wait). */
struct dls_slave_stats {
	int id;	       /* its id in the run */
	double vpower; /* its V_i, as the master normalized it */
	int64_t chunks, iterations;
	struct dls_times times;
};

/* Frees what a status holds (its rows); the struct itself is the caller's. */
void dls_status_free(struct dls_status *s);

/* "registered", "active", "waiting", "done", "lost"; "?" out of range. */
const char *dls_slave_state_name(enum dls_slave_state s);

#ifdef __cplusplus
}
#endif
#endif
