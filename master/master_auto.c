/*
 * master_auto.c - what --scheme auto decided, for the log and the report.
 */
#include <stdio.h>

#include "dls_log.h"
#include "master_internal.h"

void master_auto_describe(const struct sched *s, char *out, size_t len)
{
	struct sched_switch d[16];
	int n = sched_auto_decisions(s, d, 16);
	size_t at = 0;

	out[0] = '\0';
	for (int k = 0; k < n && k < 16 && at < len; k++) {
		int w = snprintf(out + at, len - at, "%s", k ? "; " : "");

		at += w > 0 ? (size_t)w : 0;
		if (at < len) {
			w = sched_switch_describe(&d[k], out + at, len - at);
			at += w > 0 ? (size_t)w : 0;
		}
	}
	if (n > 16 && at + 16 < len)
		snprintf(out + at, len - at, "; %d more", n - 16);
}

void master_auto_log(struct master *m)
{
	struct sched_switch d[SCHED_AUTO_MAX_DECISIONS];
	int n = sched_auto_decisions(m->sched, d, SCHED_AUTO_MAX_DECISIONS);
	char line[160];

	for (; m->auto_logged < n && m->auto_logged < SCHED_AUTO_MAX_DECISIONS; m->auto_logged++) {
		if (m->replaying)
			continue;
		sched_switch_describe(&d[m->auto_logged], line, sizeof(line));
		log_info("scheme auto: %s", line);
	}
}
