/*
 * sched_testutil.h - helpers shared by the scheduler test suites: run a
 * scheme to exhaustion and render its schedule as `dls chunks` prints it.
 */
#ifndef DLS_SCHED_TESTUTIL_H
#define DLS_SCHED_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "sched_drive.h"

/* Fills *p for kind, I and the given A vector (npes values; NULL = npes ones). */
void tu_params(struct sched_params *p, enum sched_kind kind, int64_t iterations, int npes,
	       const int64_t *acp);

/*
 * Drives p with d and writes the schedule to buf as `dls chunks` would
 * ("125 117 ..." or "(2,163) (3,151) ...").  Returns the sched_drive code.
 */
int tu_schedule(const struct sched_params *p, const struct sched_drive_spec *d, char *buf,
		size_t len);

/* The chunk function as a string ("125 117 ..."); returns the code. */
int tu_function(const struct sched_params *p, char *buf, size_t len);

/* Expands "125x4 62x4" into "125 125 125 125 62 62 62 62". */
const char *tu_expand(const char *compact);

#endif
