/*
 * master_verify.h - results that can be checked (dls-master --verify F,
 * PROTOCOL.md 19): a secret draw picks about the fraction F of the chunks
 * delivered, and each one picked is handed as ordinary work to another
 * slave, which cannot tell it from any other chunk.  Its octets are
 * compared with those delivered: two equal copies settle the chunk; a
 * mismatch sends it to a third slave, and so on until two copies agree.
 * A slave whose copy loses is a liar: it is dropped from the run for good,
 * the work it holds goes to the others, and every iteration it delivered
 * in the current loop is computed again.  A loop ends only once every
 * chunk picked in it is settled.
 *
 * Every step follows from the calls the master serves and from the draw,
 * which is a MAC of the chunk under a key the master made (journaled with
 * the configuration): a replayed journal makes the same decisions.
 *
 * Called with the master's lock held.
 */
#ifndef DLS_MASTER_VERIFY_H
#define DLS_MASTER_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

/* The most copies of one chunk compared (the first delivery included). */
#define VERIFY_MAX_VOTES 6

/* One version of a chunk's octets and the slaves that computed it. */
struct verify_version {
	uint8_t *data;
	int voters[VERIFY_MAX_VOTES];
	int nvoters;
};

/* A delivered chunk under verification. */
struct verify_entry {
	int64_t start, count;
	int origin; /* the slave whose delivery is checked */
	struct verify_version ver[VERIFY_MAX_VOTES];
	int nver;
	int holder;    /* the slave computing a copy now; -1: none */
	uint64_t nth;  /* the holder's nth chunk given (its ledger's count) */
	uint8_t *copy; /* the holder's octets so far, in iteration order */
	uint8_t *got;  /* per iteration of the chunk: the holder delivered it */
	int64_t ngot;
	int void_; /* its origin lied: no vote is taken; kept only until the
		      holder of a copy delivers it (its results are dropped) */
};

/* The ranges a slave delivered in the current loop (a liar's are computed
 * again). */
struct verify_delivered {
	struct dls_range *v;
	size_t n, cap;
};

/* The master's book of verification. */
struct verify_book {
	struct verify_entry *v;
	size_t n, cap;
	struct verify_delivered *delivered; /* per slave, this loop */
	int nslaves;
	struct dls_verify_status st; /* the counts, over the run */
};

/* The master's state (master_internal.h). */
struct master;

/* The book of nslaves slaves: DLS_OK or DLS_ENOMEM. */
int master_verify_init(struct verify_book *b, int nslaves);
void master_verify_free(struct verify_book *b);

/* The blocks of one call split in two: those of the chunks under
 * verification that the caller holds (copies) and the others (plain). */
struct verify_split {
	const struct dls_result *plain, *copies;
	size_t nplain, ncopies;
	struct dls_result *mem; /* NULL when nothing was split */
};

/*
 * Splits res[0..n) of slave id: a block inside a copy it holds, of
 * iterations of it that did not come yet (by an earlier call or an
 * earlier block of this one), goes to copies; any other to plain, the
 * ledger's (without a copy held: plain is res, no memory).  DLS_OK or
 * DLS_ENOMEM; free with master_verify_split_free.
 */
int master_verify_split(struct master *m, int id, const struct dls_result *res, size_t n,
			struct verify_split *s);
void master_verify_split_free(struct verify_split *s);

/*
 * Checks the copies of slave id before anything is taken: the right size;
 * with piggy-back collection, every copy it was given before its newest
 * chunk is complete with them.  DLS_OK, or DLS_EINVAL with why
 * (MASTER_WHY_LEN).
 */
int master_verify_check(struct master *m, int id, const struct verify_split *s, char *why);

/* Whether block r of slave id is a copy (master_verify_split's rule), as
 * the blocks before it in its call were taken. */
int master_verify_is_copy(const struct master *m, int id, const struct dls_result *r);

/* Takes block r of slave id if it is a copy (master_verify_is_copy),
 * checked: a copy complete is compared, and may settle its piece or find a
 * liar (the loop may then end: master_complete_if_due).  1 when r was a
 * copy, 0 when it is the ledger's. */
int master_verify_take(struct master *m, int id, const struct dls_result *r);

/* Block r of slave id was just accepted: kept as what it delivered this
 * loop, and drawn for verification with the run's fraction. */
void master_verify_delivered(struct master *m, int id, const struct dls_result *r);

/* A chunk under verification that slave id may compute now (not its own,
 * none it voted on): 1 with *c, the copy then held by id; else 0. */
int master_verify_next(struct master *m, int id, struct dls_range *c);

/* Slave id left the run (lost): the copies it held go to others; a chunk
 * that no slave is left to settle is given up, with a line (the loop may
 * then end: master_complete_if_due). */
void master_verify_release(struct master *m, int id);

/* Whether slave id holds a copy. */
int master_verify_holds(const struct master *m, int id);

/* Whether every chunk picked in the current loop is settled. */
int master_verify_settled(const struct master *m);

/* The loop ended: what slaves delivered in it is forgotten. */
void master_verify_new_loop(struct master *m);

/* Whether slave id was found to return wrong results: why filled. */
int master_verify_refuses(const struct master *m, int id, char *why);

#endif
