/*
 * fuzz_record.c - a two-level hmaster's record (hmaster/twolevel_record.h)
 * as a resumed hmaster reads it, whatever the file holds (a damaged disk,
 * a hand that edited it): the input's bytes are the file.
 *
 * Invariants (a broken one aborts): no crash or sanitizer report; the read
 * either refuses with a reason or yields a record within its bounds (1 to
 * leaves children, leaves <= slaves, names terminated, V_i finite and not
 * negative); and such a record written back reads back the same.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "fuzz_input.h"
#include "twolevel_record.h"

static char path[64], again[80];

static void same(const struct twolevel_record *a, const struct twolevel_record *b)
{
	FZ_ASSERT(!strcmp(a->name, b->name) && a->nslaves == b->nslaves &&
		  a->leaves == b->leaves && a->my_id == b->my_id && a->my_key == b->my_key &&
		  a->nchildren == b->nchildren);
	for (int i = 0; i < a->nchildren; i++)
		FZ_ASSERT(!strcmp(a->children[i].name, b->children[i].name) &&
			  a->children[i].vpower == b->children[i].vpower &&
			  a->children[i].key == b->children[i].key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twolevel_record r, back;
	char why[256] = "";
	FILE *f;
	int rc;

	fz_setup();
	if (!path[0]) {
		snprintf(path, sizeof(path), "%s/dls-fuzz-record-%d",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm", (int)getpid());
		snprintf(again, sizeof(again), "%s.again", path);
	}
	f = fopen(path, "wb");
	FZ_ASSERT(f && fwrite(data, 1, size, f) == size && !fclose(f));
	rc = twolevel_record_read(path, &r, why, sizeof(why));
	if (rc) {
		FZ_ASSERT(rc == DLS_EINVAL && why[0]);
		FZ_ASSERT(r.children == NULL && r.nchildren == 0);
		return 0;
	}
	FZ_ASSERT(r.nslaves >= 1 && r.leaves >= 1 && r.leaves <= r.nslaves && r.my_id >= 0);
	FZ_ASSERT(r.nchildren >= 1 && r.nchildren <= r.leaves && r.children);
	FZ_ASSERT(memchr(r.name, 0, sizeof(r.name)));
	for (int i = 0; i < r.nchildren; i++)
		FZ_ASSERT(memchr(r.children[i].name, 0, sizeof(r.children[i].name)) &&
			  isfinite(r.children[i].vpower) && r.children[i].vpower >= 0);
	FZ_ASSERT(twolevel_record_write(again, &r, why, sizeof(why)) == DLS_OK);
	FZ_ASSERT(twolevel_record_read(again, &back, why, sizeof(why)) == DLS_OK);
	same(&r, &back);
	twolevel_record_free(&back);
	twolevel_record_free(&r);
	unlink(again);
	return 0;
}
