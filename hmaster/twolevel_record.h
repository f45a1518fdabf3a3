/*
 * twolevel_record.h - what a two-level hmaster must remember to be resumed
 * after a crash: its id and capability at its parent, and each child's
 * name, V_i and the capability this hmaster issued to it.  The work it held
 * is not in it: the parent requeues that when the resumed hmaster tells it
 * (PROTOCOL.md 15).  A JSON file (jansson) of mode 0600, since it holds
 * capabilities, written whole to a temporary file, synced and renamed over
 * the old one, so a crash leaves the old record or the new, never half.
 */
#ifndef DLS_TWOLEVEL_RECORD_H
#define DLS_TWOLEVEL_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

struct twolevel_record_child {
	char name[64]; /* as struct dls_slave_status's */
	double vpower; /* the sum of its slaves' V_i */
	uint64_t key;  /* the capability this hmaster issued to it */
};

struct twolevel_record {
	char name[64];	  /* the hmaster's own name (it must match when resumed) */
	int nslaves;	  /* --slaves: every slave below it */
	int leaves;	  /* the slaves its children registered */
	int my_id;	  /* its id at its parent */
	uint64_t my_key;  /* the parent's capability for it */
	int nchildren;
	struct twolevel_record_child *children; /* by id here */
};

/* Writes r to path as described above: DLS_OK, or an error with why. */
int twolevel_record_write(const char *path, const struct twolevel_record *r, char *why,
			  size_t len);

/*
 * Reads the record at path into r (free with twolevel_record_free): DLS_OK,
 * DLS_ENOENT (no such file) or DLS_EINVAL (not a record: a field missing,
 * of the wrong type or out of range, named in why).
 */
int twolevel_record_read(const char *path, struct twolevel_record *r, char *why, size_t len);

/* Frees what twolevel_record_read allocated; r is empty again. */
void twolevel_record_free(struct twolevel_record *r);

#endif
