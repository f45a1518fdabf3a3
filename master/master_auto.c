/*
 * master_auto.c - what --scheme auto decided, for the log and the report.
 */
#include <stdio.h>

#include "dls/log.h"
#include "master_internal.h"

static int describe_one(const struct sched_switch *d, char *out, size_t len)
{
	if (!(d->t_from > 0))
		return snprintf(out, len, "%s -> %s at %lld left (nothing measured)",
				sched_kind_name(d->from), sched_kind_name(d->to),
				(long long)d->remaining);
	return snprintf(out, len, "%s -> %s at %lld left (predicted %.2f s -> %.2f s)",
			sched_kind_name(d->from), sched_kind_name(d->to), (long long)d->remaining,
			d->t_from, d->t_to);
}

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
			w = describe_one(&d[k], out + at, len - at);
			at += w > 0 ? (size_t)w : 0;
		}
	}
	if (n > 16 && at + 16 < len)
		snprintf(out + at, len - at, "; %d more", n - 16);
}

void master_auto_log(struct master *m)
{
	struct sched_switch d[64];
	int n = sched_auto_decisions(m->sched, d, 64);
	char line[160];

	for (; m->auto_logged < n && m->auto_logged < 64; m->auto_logged++) {
		if (m->replaying)
			continue;
		describe_one(&d[m->auto_logged], line, sizeof(line));
		log_info("scheme auto: %s", line);
	}
}
