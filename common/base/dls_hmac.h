/*
 * dls_hmac.h - HMAC-SHA256 fed piece by piece (OpenSSL's EVP_MAC): the one
 * construction behind the run's proofs (run_auth.h) and the journal's
 * chain (journal_mac.h).  A library without HMAC-SHA256 aborts: no proof
 * or record could be made.
 */
#ifndef DLS_HMAC_H
#define DLS_HMAC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLS_HMAC_LEN 32

struct evp_mac_ctx_st;
typedef struct evp_mac_ctx_st dls_hmac;

/* An HMAC under key (keylen octets; 0: the empty key) that has taken label. */
dls_hmac *dls_hmac_start(const void *key, size_t keylen, const char *label);

/* Feeds n octets (n 0: nothing). */
void dls_hmac_add(dls_hmac *h, const void *p, size_t n);

/* Feeds v as `octets` octets, big-endian (octets 1..8). */
void dls_hmac_add_be(dls_hmac *h, uint64_t v, int octets);

/* The MAC into out, and h freed. */
void dls_hmac_end(dls_hmac *h, uint8_t out[DLS_HMAC_LEN]);

#ifdef __cplusplus
}
#endif
#endif
