/*
 * run_auth.c - the run's secret, join proofs and capabilities (see run_auth.h).
 */
#include "run_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_hmac.h"

static const char JOIN_LABEL[] = "DLS-join-3";
static const char PARENT_LABEL[] = "DLS-master-3";
static const char JOURNAL_KEY_LABEL[] = "DLS-journal-key-1";
static const char NAME_LABEL[] = "DLS-name-1";

int dls_random_bytes(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n > 0) {
		ssize_t got = getrandom(p, n, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			log_err("getrandom: %s", strerror(errno));
			return DLS_EIO;
		}
		p += got;
		n -= (size_t)got;
	}
	return DLS_OK;
}

uint64_t dls_random_key(void)
{
	uint64_t k = 0;

	while (k == 0)
		if (dls_random_bytes(&k, sizeof(k)))
			abort(); /* no capability can be issued safely */
	return k;
}

uint64_t dls_fingerprint(const char *text)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	uint64_t f = 0;

	if (!text || !EVP_Digest(text, strlen(text), md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen < sizeof(f))
		return 0;
	for (size_t i = 0; i < sizeof(f); i++)
		f = f << 8 | md[i];
	return f ? f : 1;
}

int run_secret_load(struct run_secret *s, const char *path, char *why, size_t len)
{
	struct stat st;
	ssize_t got;
	int fd;

	memset(s, 0, sizeof(*s));
	if (!path || !*path)
		return DLS_OK;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, len, "cannot read the run's secret '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return DLS_EIO;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		snprintf(why, len,
			 "the run's secret '%s' has mode %04o: others may read it; chmod 600 it",
			 path, (unsigned)(st.st_mode & 07777));
		close(fd);
		return DLS_EINVAL;
	}
	got = read(fd, s->bytes, sizeof(s->bytes));
	if (got >= 0 && got == (ssize_t)sizeof(s->bytes)) {
		char extra;

		if (read(fd, &extra, 1) > 0)
			got = -2;
	}
	close(fd);
	if (got < RUN_SECRET_MIN) {
		snprintf(why, len, "the run's secret '%s' must hold %d..%d octets (%s)", path,
			 RUN_SECRET_MIN, RUN_SECRET_MAX,
			 got == -1 ? strerror(errno) : got == -2 ? "it holds more" : "it holds fewer");
		memset(s, 0, sizeof(*s));
		return DLS_EINVAL;
	}
	s->len = (size_t)got;
	s->set = 1;
	return DLS_OK;
}

int run_secret_create(struct run_secret *s, const char *path, char *why, size_t len)
{
	uint8_t key[32];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0 || dls_random_bytes(key, sizeof(key)) ||
	    write(fd, key, sizeof(key)) != (ssize_t)sizeof(key) || fsync(fd)) {
		snprintf(why, len, "cannot create the run's secret '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return DLS_EIO;
	}
	close(fd);
	OPENSSL_cleanse(key, sizeof(key));
	return run_secret_load(s, path, why, len);
}

/* An HMAC-SHA256 under the run's secret that has taken label. */
static dls_hmac *mac_start(const struct run_secret *s, const char *label)
{
	return dls_hmac_start(s->bytes, s->len, label);
}

/* HMAC-SHA256(secret, "DLS-join-3" | nonce). */
static void join_mac(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
		     uint8_t out[RUN_AUTH_PROOF_LEN])
{
	dls_hmac *ctx = mac_start(s, JOIN_LABEL);

	dls_hmac_add(ctx, nonce, nlen);
	dls_hmac_end(ctx, out);
}

void run_auth_join(const struct run_secret *s, uint8_t nonce[RUN_AUTH_NONCE_LEN],
		   uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen)
{
	if (dls_random_bytes(nonce, RUN_AUTH_NONCE_LEN))
		abort();
	*plen = 0;
	if (!s || !s->set)
		return;
	join_mac(s, nonce, RUN_AUTH_NONCE_LEN, proof);
	*plen = RUN_AUTH_PROOF_LEN;
}

void run_auth_prove(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
		    const int *ids, const uint64_t *keys, size_t n,
		    uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen)
{
	dls_hmac *ctx;

	*plen = 0;
	if (!s || !s->set)
		return;
	ctx = mac_start(s, PARENT_LABEL);
	dls_hmac_add(ctx, nonce, nlen);
	for (size_t k = 0; k < n; k++) { /* each child: id (4 octets), key (8), big-endian */
		dls_hmac_add_be(ctx, (uint32_t)ids[k], 4);
		dls_hmac_add_be(ctx, keys[k], 8);
	}
	dls_hmac_end(ctx, proof);
	*plen = RUN_AUTH_PROOF_LEN;
}

int run_auth_check_parent(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
			  const int *ids, const uint64_t *keys, size_t n, const uint8_t *proof,
			  size_t plen, char *why, size_t len)
{
	uint8_t want[RUN_AUTH_PROOF_LEN];
	size_t wlen;

	if (!s || !s->set)
		return DLS_OK;
	if (plen == 0) {
		snprintf(why, len, "the master proved no knowledge of the run's secret: it is not "
				   "this run's master (its naming-service entry may have been replaced)");
		return DLS_EINVAL;
	}
	run_auth_prove(s, nonce, nlen, ids, keys, n, want, &wlen);
	if (plen != wlen || CRYPTO_memcmp(want, proof, wlen)) {
		snprintf(why, len, "the master's proof does not match the run's secret: it is not "
				   "this run's master (its naming-service entry may have been replaced)");
		return DLS_EINVAL;
	}
	return DLS_OK;
}

void run_auth_prove_name(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
			 const char *path, uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen)
{
	dls_hmac *ctx;

	*plen = 0;
	if (!s || !s->set)
		return;
	ctx = mac_start(s, NAME_LABEL);
	dls_hmac_add(ctx, nonce, nlen);
	dls_hmac_add(ctx, (const uint8_t *)path, strlen(path));
	dls_hmac_end(ctx, proof);
	*plen = RUN_AUTH_PROOF_LEN;
}

int run_auth_check_name(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
			const char *path, const uint8_t *proof, size_t plen)
{
	uint8_t want[RUN_AUTH_PROOF_LEN];
	size_t wlen;

	run_auth_prove_name(s, nonce, nlen, path, want, &wlen);
	return wlen && plen == wlen && !CRYPTO_memcmp(want, proof, wlen);
}

int run_auth_journal_key(const struct run_secret *s, uint8_t key[RUN_AUTH_PROOF_LEN])
{
	dls_hmac *ctx;

	if (!s || !s->set)
		return 0;
	ctx = mac_start(s, JOURNAL_KEY_LABEL);
	dls_hmac_end(ctx, key);
	return 1;
}

int run_auth_init(struct run_auth *a, const struct run_secret *s)
{
	memset(a, 0, sizeof(*a));
	if (s)
		a->secret = *s;
	return pthread_mutex_init(&a->lock, NULL) ? DLS_ENOMEM : DLS_OK;
}

void run_auth_free(struct run_auth *a)
{
	OPENSSL_cleanse(&a->secret, sizeof(a->secret));
	free(a->seen);
	a->seen = NULL;
	pthread_mutex_destroy(&a->lock);
}

/* Records nonce unless seen; the lock is held.  DLS_OK, DLS_ESTATE, DLS_ENOMEM. */
static int remember_nonce(struct run_auth *a, const uint8_t *nonce)
{
	for (size_t k = 0; k < a->nseen; k++)
		if (!memcmp(a->seen[k], nonce, RUN_AUTH_NONCE_LEN))
			return DLS_ESTATE;
	if (a->nseen == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		void *p = realloc(a->seen, cap * RUN_AUTH_NONCE_LEN);

		if (!p)
			return DLS_ENOMEM;
		a->seen = p;
		a->cap = cap;
	}
	memcpy(a->seen[a->nseen++], nonce, RUN_AUTH_NONCE_LEN);
	return DLS_OK;
}

int run_auth_check_join(struct run_auth *a, const uint8_t *nonce, size_t nlen,
			const uint8_t *proof, size_t plen, char *why, size_t len)
{
	uint8_t want[RUN_AUTH_PROOF_LEN];
	int rc;

	if (!a->secret.set)
		return DLS_OK;
	if (plen == 0) {
		snprintf(why, len, "this run has a secret and the caller showed none: start it with "
				   "the run's --secret-file");
		return DLS_EINVAL;
	}
	if (nlen != RUN_AUTH_NONCE_LEN || plen != RUN_AUTH_PROOF_LEN) {
		snprintf(why, len, "credentials of %zu nonce and %zu proof octets: %d and %d expected",
			 nlen, plen, RUN_AUTH_NONCE_LEN, RUN_AUTH_PROOF_LEN);
		return DLS_EINVAL;
	}
	join_mac(&a->secret, nonce, nlen, want);
	if (CRYPTO_memcmp(want, proof, RUN_AUTH_PROOF_LEN)) {
		snprintf(why, len, "the caller's proof does not match this run's secret: it is not "
				   "one of the run's processes");
		return DLS_EINVAL;
	}
	pthread_mutex_lock(&a->lock);
	rc = remember_nonce(a, nonce);
	pthread_mutex_unlock(&a->lock);
	if (rc == DLS_ESTATE)
		snprintf(why, len, "these credentials were used before in this run (a replay)");
	else if (rc)
		snprintf(why, len, "out of memory");
	return rc == DLS_ESTATE ? DLS_EINVAL : rc;
}
