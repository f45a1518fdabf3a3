/*
 * journal_mac.c - HMAC-SHA256 over a journal's records (see journal_mac.h).
 */
#include "journal_mac.h"

#include <string.h>

#include "dls_hmac.h"

#define RUN_LABEL "DLS-journal-run-1"
#define EVENT_LABEL "DLS-journal-event-1"

static dls_hmac *mac_start(const struct journal_key *key, const char *label)
{
	int set = key && key->set;

	return dls_hmac_start(set ? key->bytes : NULL, set ? JOURNAL_KEY_LEN : 0, label);
}

static void add_bytes(dls_hmac *h, const void *p, size_t n)
{
	dls_hmac_add_be(h, n, 8);
	dls_hmac_add(h, p, n);
}

void journal_mac_run(const struct journal_key *key, int format, const char *config,
		     uint8_t out[JOURNAL_MAC_LEN])
{
	dls_hmac *ctx = mac_start(key, RUN_LABEL);

	dls_hmac_add_be(ctx, (uint32_t)format, 4);
	add_bytes(ctx, config, strlen(config));
	dls_hmac_end(ctx, out);
}

void journal_mac_event(const struct journal_key *key, const uint8_t prev[JOURNAL_MAC_LEN],
		       int64_t id, const char *kind, const char *body,
		       const struct dls_result *blocks, size_t n, uint8_t out[JOURNAL_MAC_LEN])
{
	dls_hmac *ctx = mac_start(key, EVENT_LABEL);

	dls_hmac_add(ctx, prev, JOURNAL_MAC_LEN);
	dls_hmac_add_be(ctx, (uint64_t)id, 8);
	add_bytes(ctx, kind, strlen(kind));
	add_bytes(ctx, body, strlen(body));
	dls_hmac_add_be(ctx, n, 8);
	for (size_t i = 0; i < n; i++) {
		dls_hmac_add_be(ctx, (uint64_t)blocks[i].start, 8);
		dls_hmac_add_be(ctx, (uint64_t)blocks[i].count, 8);
		add_bytes(ctx, blocks[i].data, blocks[i].nbytes);
	}
	dls_hmac_end(ctx, out);
}
