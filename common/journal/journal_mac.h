/*
 * journal_mac.h - the chain of MACs that makes a journal tamper-evident
 * (PROTOCOL.md 15, "The journal's MACs").
 *
 * Every record of a journal carries an HMAC-SHA256 under the journal's key,
 * and each event's MAC covers the MAC of the record before it, so that a
 * record changed, removed, inserted or moved breaks the chain at the first
 * record it touches.  The key comes from the run's secret (run_auth.h,
 * run_auth_journal_key); a run without a secret uses the empty key, which
 * still catches an edit by hand or a damaged file, but not a forger who
 * recomputes the chain.
 *
 * The octets each MAC covers, integers big-endian, every text and octet
 * string preceded by its length as 8 octets:
 *
 *   run:    "DLS-journal-run-1" | format (4) | config
 *   event:  "DLS-journal-event-1" | the MAC before (32: the run's for the
 *           first event) | id (8) | kind | body | blocks (8) |
 *           for each block: start (8) | count (8) | data
 */
#ifndef DLS_JOURNAL_MAC_H
#define DLS_JOURNAL_MAC_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

#define JOURNAL_KEY_LEN 32
#define JOURNAL_MAC_LEN 32

/* A journal's MAC key: set 0 is an open run's (the empty key). */
struct journal_key {
	int set;
	uint8_t bytes[JOURNAL_KEY_LEN];
};

/* The MAC of the run's record: its format and configuration (JSON text).
 * key may be NULL (the empty key). */
void journal_mac_run(const struct journal_key *key, int format, const char *config,
		     uint8_t out[JOURNAL_MAC_LEN]);

/*
 * The MAC of event `id` chained to `prev` (the MAC of the record before):
 * its kind, body (JSON text) and n result blocks.  key may be NULL.
 */
void journal_mac_event(const struct journal_key *key, const uint8_t prev[JOURNAL_MAC_LEN],
		       int64_t id, const char *kind, const char *body,
		       const struct dls_result *blocks, size_t n, uint8_t out[JOURNAL_MAC_LEN]);

#ifdef __cplusplus
}
#endif
#endif
