/*
 * log.h - how much DLS says, and how its lines are labelled.
 *
 * DLS writes its lines to stderr: time, role[pid], the writing thread's
 * label if it has one, level, message.  The level comes from the
 * DLS_LOG_LEVEL environment variable (err, warn, info, debug; default
 * warn), read when the program or libdls is loaded, or from
 * dls_log_set_level().  Thread-safe.
 */
#ifndef DLS_LOG_H
#define DLS_LOG_H

#ifdef __cplusplus
extern "C" {
#endif

enum dls_log_level { DLS_LOG_ERR, DLS_LOG_WARN, DLS_LOG_INFO, DLS_LOG_DEBUG };

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

#ifdef __cplusplus
}
#endif
#endif
