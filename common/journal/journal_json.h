/*
 * journal_json.h - the JSON pieces that the master's and the coordinator's
 * journals (master/master_journal.c, treesched/coordinator_journal.c)
 * write and read alike: capabilities as 16 hex digits, a slave's times,
 * a workload's parameters, and bounded string copies.
 */
#ifndef DLS_JOURNAL_JSON_H
#define DLS_JOURNAL_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A capability as a JSON string of 16 hex digits (new reference). */
json_t *journal_key_json(uint64_t key);

/* Reads a capability written by journal_key_json: DLS_OK or DLS_EINVAL. */
int journal_key_from_json(const json_t *v, uint64_t *key);

/* A slave's times as [t_comp, t_comwait, emul_error, emul_bias, late,
 * t_collect]; a value that is not finite is written 0 (JSON has none). */
json_t *journal_times_json(const struct dls_times *t);

/* Reads journal_times_json's array: DLS_OK or DLS_EINVAL. */
int journal_times_from_json(json_t *v, struct dls_times *t);

/* A workload's parameters as [[name, value], ...] (new reference). */
json_t *journal_params_json(const struct dls_param *params, int n);

/*
 * Reads journal_params_json's list into params (at most DLS_MAX_PARAMS):
 * DLS_OK, or DLS_EINVAL with why (len octets) naming the bad entry.
 */
int journal_params_from_json(json_t *v, struct dls_param *params, int *n, char *why,
			     size_t len);

/*
 * Copies src into dst (size octets): DLS_OK, or DLS_EINVAL with why saying
 * "the journal's <what> '<src>' is too long".
 */
int journal_copy_str(char *dst, size_t size, const char *src, const char *what, char *why,
		     size_t len);

#ifdef __cplusplus
}
#endif
#endif
