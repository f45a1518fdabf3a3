/*
 * dls_log.h - printf-style logging to stderr, for DLS's own code (the
 * settings a program may change are dls/log.h's).
 *
 * The level is checked before the arguments are evaluated.  One fprintf
 * per line.
 */
#ifndef DLS_LOG_INTERNAL_H
#define DLS_LOG_INTERNAL_H

#include "dls/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The level in force (enum dls_log_level); set with dls_log_set_level. */
extern int dls_log_level;

/* The calling thread's label ("" when it has none), for a thread it starts. */
const char *dls_log_thread_label(void);
/* Writes one line at the given level. Use the macros below. */
void dls_log_write(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define dls_log_at(lvl, ...)                                                                       \
	do {                                                                                       \
		if ((lvl) <= dls_log_level)                                                        \
			dls_log_write((lvl), __VA_ARGS__);                                         \
	} while (0)
#define log_err(...) dls_log_at(DLS_LOG_ERR, __VA_ARGS__)
#define log_warn(...) dls_log_at(DLS_LOG_WARN, __VA_ARGS__)
#define log_info(...) dls_log_at(DLS_LOG_INFO, __VA_ARGS__)
#define log_debug(...) dls_log_at(DLS_LOG_DEBUG, __VA_ARGS__)

#ifdef __cplusplus
}
#endif
#endif
