/*
 * log_limit.h - warnings that a flood cannot turn into a flood of lines:
 * refusals of calls from strangers (a wrong capability, a forged request),
 * which anyone who reaches a servant can make by the thousand.
 *
 * Each kind (one static struct log_limit at each place that refuses) writes
 * its first LOG_LIMIT_LINES lines of every LOG_LIMIT_WINDOW_S seconds as
 * usual; the rest are counted, and one line sums them up once the window
 * is over: "refused results: 12399 more in the last 10 s (slave 0, slave 3
 * and 2 others)".  So a flood writes a few hundred octets a second per kind.
 * Thread-safe.
 */
#ifndef DLS_LOG_LIMIT_H
#define DLS_LOG_LIMIT_H

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOG_LIMIT_LINES 5
#define LOG_LIMIT_WINDOW_S 10.0
#define LOG_LIMIT_FROM 3 /* callers named in a summary */

struct log_limit {
	const char *kind; /* "refused results", for the summary */
	pthread_mutex_t lock;
	double window_start;
	int written;	  /* lines written in this window */
	long suppressed;  /* lines counted, not written, in this window */
	int from[LOG_LIMIT_FROM], nfrom, more_from;
	struct log_limit *next; /* in the list that log_limit_flush walks */
	int listed;
};

/* (every member, in order: C++ has no designated initializers before C++20) */
#define LOG_LIMIT_INIT(kind_text)                                                                  \
	{                                                                                          \
		(kind_text), PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, {0}, 0, 0, NULL, 0                \
	}

/*
 * A warning of this kind from caller `from` (the id it claims; -1: none):
 * written, or counted for the window's summary.
 */
void log_limited(struct log_limit *l, int from, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Writes the summary of every kind whose window is over (all: at the end
 * of a run, every kind with something counted).  Any thread. */
void log_limit_flush(int all);

#ifdef __cplusplus
}
#endif
#endif
