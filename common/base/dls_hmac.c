/*
 * dls_hmac.c - HMAC-SHA256 piece by piece over OpenSSL (see dls_hmac.h).
 */
#include "dls_hmac.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

dls_hmac *dls_hmac_start(const void *key, size_t keylen, const char *label)
{
	static const uint8_t none[1];
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
			       OSSL_PARAM_construct_end()};

	EVP_MAC_free(mac); /* the context keeps its own reference */
	if (!ctx || !EVP_MAC_init(ctx, keylen ? key : none, keylen, params) ||
	    !EVP_MAC_update(ctx, (const unsigned char *)label, strlen(label)))
		abort();
	return ctx;
}

void dls_hmac_add(dls_hmac *h, const void *p, size_t n)
{
	if (n && !EVP_MAC_update(h, p, n))
		abort();
}

void dls_hmac_add_be(dls_hmac *h, uint64_t v, int octets)
{
	uint8_t b[8];

	for (int i = 0; i < octets; i++)
		b[i] = (uint8_t)(v >> (8 * (octets - 1 - i)));
	dls_hmac_add(h, b, (size_t)octets);
}

void dls_hmac_end(dls_hmac *h, uint8_t out[DLS_HMAC_LEN])
{
	size_t olen = 0;

	if (!EVP_MAC_final(h, out, &olen, DLS_HMAC_LEN) || olen != DLS_HMAC_LEN)
		abort();
	EVP_MAC_CTX_free(h);
}
