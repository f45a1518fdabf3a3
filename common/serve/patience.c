/*
 * patience.c - waiting out a parent that is there but slow (see patience.h).
 */
#include "patience.h"

#include "dls_log.h"
#include "dls_time.h"

int patience_wait_out(double *since, int patience_ms, double began, double min_gap_s,
		      const char *who, const char *why)
{
	double now = dls_now();

	if (!*since) {
		*since = now;
		if (patience_ms > 0)
			log_warn("%s took a call but did not answer in time (%s): asking again "
				 "for up to %d ms (it may be overloaded)",
				 who, why, patience_ms);
	}
	if (now - *since >= patience_ms / 1000.0) {
		log_warn("%s has not answered for %.1f s: taken as gone", who, now - *since);
		return 0;
	}
	if (now - began < min_gap_s)
		dls_sleep_until(began + min_gap_s);
	return 1;
}
