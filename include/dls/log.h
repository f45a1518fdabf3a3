/*
 * dls_log.h - printf-style logging to stderr.
 *
 * Each line: time, role[pid], the writing thread's label if it has one,
 * level, message.  The level comes from the DLS_LOG_LEVEL environment
 * variable (err, warn, info, debug; default warn), read when the program or
 * libdls is loaded, or from dls_log_set_level(); it is checked before the
 * arguments are evaluated.  Thread-safe (one fprintf per line).
 */
#ifndef DLS_LOG_H
#define DLS_LOG_H

#ifdef __cplusplus
extern "C" {
#endif

enum dls_log_level { DLS_LOG_ERR, DLS_LOG_WARN, DLS_LOG_INFO, DLS_LOG_DEBUG };

extern int dls_log_level;

/* Sets the role name shown on every line (copied, at most 31 characters). */
void dls_log_set_role(const char *role);
/* Sets the level; -1 reads DLS_LOG_LEVEL from the environment again. */
void dls_log_set_level(int level);
/*
 * Labels every line the calling thread writes from now on (copied, at most
 * 63 characters; NULL or "" removes it): an embedded slave's thread shows
 * "slave 'NAME'", so that two slaves of one program can be told apart.
 */
void dls_log_set_thread_label(const char *label);
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
