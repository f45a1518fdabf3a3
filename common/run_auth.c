/*
 * run_auth.c - the run's secret, join proofs and capabilities (see run_auth.h).
 */
#include "run_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls/log.h"

static const char JOIN_LABEL[] = "DLS-join-3";
static const char PARENT_LABEL[] = "DLS-master-3";

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

/* HMAC-SHA256(secret, label | a | b) into out (32 octets). */
static void mac(const struct run_secret *s, const char *label, const uint8_t *a, size_t alen,
		const uint8_t *b, size_t blen, uint8_t out[RUN_AUTH_PROOF_LEN])
{
	unsigned int olen = RUN_AUTH_PROOF_LEN;
	size_t llen = strlen(label);
	uint8_t *msg = malloc(llen + alen + blen + 1);

	if (!msg)
		abort(); /* a few hundred octets: no proof without them */
	memcpy(msg, label, llen);
	if (alen)
		memcpy(msg + llen, a, alen);
	if (blen)
		memcpy(msg + llen + alen, b, blen);
	if (!HMAC(EVP_sha256(), s->bytes, (int)s->len, msg, llen + alen + blen, out, &olen))
		abort();
	free(msg);
}

void run_auth_join(const struct run_secret *s, uint8_t nonce[RUN_AUTH_NONCE_LEN],
		   uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen)
{
	if (dls_random_bytes(nonce, RUN_AUTH_NONCE_LEN))
		abort();
	*plen = 0;
	if (!s || !s->set)
		return;
	mac(s, JOIN_LABEL, nonce, RUN_AUTH_NONCE_LEN, NULL, 0, proof);
	*plen = RUN_AUTH_PROOF_LEN;
}

/* The children, big-endian: id (4 octets), key (8 octets) each. */
static uint8_t *children_octets(const int *ids, const uint64_t *keys, size_t n)
{
	uint8_t *b = malloc(n * 12 + 1), *p = b;

	if (!b)
		abort();
	for (size_t k = 0; k < n; k++) {
		uint32_t id = (uint32_t)ids[k];

		for (int i = 3; i >= 0; i--)
			*p++ = (uint8_t)(id >> (8 * i));
		for (int i = 7; i >= 0; i--)
			*p++ = (uint8_t)(keys[k] >> (8 * i));
	}
	return b;
}

void run_auth_prove(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
		    const int *ids, const uint64_t *keys, size_t n,
		    uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen)
{
	uint8_t *c, *msg;

	*plen = 0;
	if (!s || !s->set)
		return;
	c = children_octets(ids, keys, n);
	msg = malloc(nlen + n * 12 + 1);
	if (!msg)
		abort();
	memcpy(msg, nonce, nlen);
	memcpy(msg + nlen, c, n * 12);
	mac(s, PARENT_LABEL, msg, nlen + n * 12, NULL, 0, proof);
	*plen = RUN_AUTH_PROOF_LEN;
	free(c);
	free(msg);
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
	mac(&a->secret, JOIN_LABEL, nonce, nlen, NULL, 0, want);
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
