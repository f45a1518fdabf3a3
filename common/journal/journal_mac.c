/*
 * journal_mac.c - HMAC-SHA256 over a journal's records (see journal_mac.h).
 */
#include "journal_mac.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#define RUN_LABEL "DLS-journal-run-1"
#define EVENT_LABEL "DLS-journal-event-1"

static EVP_MAC_CTX *mac_start(const struct journal_key *key, const char *label)
{
	static const uint8_t none[1];
	EVP_MAC *hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = hmac ? EVP_MAC_CTX_new(hmac) : NULL;
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
			       OSSL_PARAM_construct_end()};
	int set = key && key->set;

	EVP_MAC_free(hmac); /* the context keeps its own reference */
	if (!ctx || !EVP_MAC_init(ctx, set ? key->bytes : none, set ? JOURNAL_KEY_LEN : 0, params) ||
	    !EVP_MAC_update(ctx, (const unsigned char *)label, strlen(label)))
		abort(); /* libcrypto without HMAC-SHA256: no journal can be written */
	return ctx;
}

static void add(EVP_MAC_CTX *ctx, const void *p, size_t n)
{
	if (n && !EVP_MAC_update(ctx, p, n))
		abort();
}

static void add_u64(EVP_MAC_CTX *ctx, uint64_t v, int octets)
{
	uint8_t b[8];

	for (int i = 0; i < octets; i++)
		b[i] = (uint8_t)(v >> (8 * (octets - 1 - i)));
	add(ctx, b, (size_t)octets);
}

static void add_bytes(EVP_MAC_CTX *ctx, const void *p, size_t n)
{
	add_u64(ctx, n, 8);
	add(ctx, p, n);
}

static void mac_end(EVP_MAC_CTX *ctx, uint8_t out[JOURNAL_MAC_LEN])
{
	size_t olen = 0;

	if (!EVP_MAC_final(ctx, out, &olen, JOURNAL_MAC_LEN) || olen != JOURNAL_MAC_LEN)
		abort();
	EVP_MAC_CTX_free(ctx);
}

void journal_mac_run(const struct journal_key *key, int format, const char *config,
		     uint8_t out[JOURNAL_MAC_LEN])
{
	EVP_MAC_CTX *ctx = mac_start(key, RUN_LABEL);

	add_u64(ctx, (uint32_t)format, 4);
	add_bytes(ctx, config, strlen(config));
	mac_end(ctx, out);
}

void journal_mac_event(const struct journal_key *key, const uint8_t prev[JOURNAL_MAC_LEN],
		       int64_t id, const char *kind, const char *body,
		       const struct dls_result *blocks, size_t n, uint8_t out[JOURNAL_MAC_LEN])
{
	EVP_MAC_CTX *ctx = mac_start(key, EVENT_LABEL);

	add(ctx, prev, JOURNAL_MAC_LEN);
	add_u64(ctx, (uint64_t)id, 8);
	add_bytes(ctx, kind, strlen(kind));
	add_bytes(ctx, body, strlen(body));
	add_u64(ctx, n, 8);
	for (size_t i = 0; i < n; i++) {
		add_u64(ctx, (uint64_t)blocks[i].start, 8);
		add_u64(ctx, (uint64_t)blocks[i].count, 8);
		add_bytes(ctx, blocks[i].data, blocks[i].nbytes);
	}
	mac_end(ctx, out);
}
