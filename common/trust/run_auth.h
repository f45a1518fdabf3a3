/*
 * run_auth.h - who may act in a run (PROTOCOL.md 14).
 *
 * A run may have a secret, a file only the run's own processes can read.
 * A process that joins proves it knows the secret without sending it: an
 * HMAC-SHA256 of a fresh nonce.  The parent checks the proof (and that the
 * nonce was never used before in this run, so a recorded join cannot be
 * replayed) and proves the secret back over the same nonce and what it
 * issued, so a child never works for a parent that does not know it.  Every
 * later call carries the child's capability, a random 64-bit key the
 * parent issued at registration (roster.h checks it).
 *
 * A run without a secret is open: anyone who reaches the parent may join,
 * and capabilities still keep one child from acting as another.
 */
#ifndef DLS_RUN_AUTH_H
#define DLS_RUN_AUTH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RUN_AUTH_NONCE_LEN 16
#define RUN_AUTH_PROOF_LEN 32 /* HMAC-SHA256 */
#define RUN_SECRET_MIN 16
#define RUN_SECRET_MAX 1024

struct run_secret {
	int set; /* 0: an open run */
	size_t len;
	unsigned char bytes[RUN_SECRET_MAX];
};

/*
 * Fills buf with n bytes from the kernel's random source: DLS_OK, or DLS_EIO
 * (errno logged) when it cannot.
 */
int dls_random_bytes(void *buf, size_t n);

/* A random capability, never 0 (aborts only if the kernel has no randomness). */
uint64_t dls_random_key(void);

/*
 * Who registered a child: the first 8 octets of the SHA-256 of text (a
 * stringified object reference), never 0; 0 for NULL, or when it cannot be
 * had.  The same process gives the same reference on every call, so a
 * parent tells a child's registration asked again from another process of
 * the same name (roster_find_again).
 */
uint64_t dls_fingerprint(const char *text);

/*
 * Reads the run's secret from path (its octets, RUN_SECRET_MIN ..
 * RUN_SECRET_MAX of them).  Refuses a file that its group or others may
 * read or write (like ssh's keys), or of the wrong size: DLS_EINVAL or
 * DLS_EIO with why naming the file and the cause.  path NULL or "": an open
 * run (s->set = 0), DLS_OK.
 */
int run_secret_load(struct run_secret *s, const char *path, char *why, size_t len);

/*
 * Creates path (which must not exist) holding 32 random octets, mode 0600,
 * and loads it into s: DLS_OK, DLS_EIO with why.
 */
int run_secret_create(struct run_secret *s, const char *path, char *why, size_t len);

/* A fresh nonce and the join proof over it (an empty proof, *plen = 0, in an open run). */
void run_auth_join(const struct run_secret *s, uint8_t nonce[RUN_AUTH_NONCE_LEN],
		   uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen);

/*
 * The parent's proof back over the caller's nonce and the n children it
 * registered (ids, keys): *plen = 0 in an open run.
 */
void run_auth_prove(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
		    const int *ids, const uint64_t *keys, size_t n,
		    uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen);

/*
 * A child checks its parent's proof: DLS_OK (right, or the child has no
 * secret), DLS_EINVAL with why otherwise (a parent that does not know the
 * run's secret: someone else's master, e.g. after a naming-service hijack).
 */
int run_auth_check_parent(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
			  const int *ids, const uint64_t *keys, size_t n, const uint8_t *proof,
			  size_t plen, char *why, size_t len);

/*
 * A server proves that it knows the run's secret to one that finds it
 * holding a name it wants (Master::prove_name, PROTOCOL.md 14):
 * HMAC-SHA256(secret, "DLS-name-1" | nonce | path); *plen = 0 in an open
 * run.
 */
void run_auth_prove_name(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
			 const char *path, uint8_t proof[RUN_AUTH_PROOF_LEN], size_t *plen);

/* 1 when proof is run_auth_prove_name's over nonce and path under s (which
 * must have a secret), else 0. */
int run_auth_check_name(const struct run_secret *s, const uint8_t *nonce, size_t nlen,
			const char *path, const uint8_t *proof, size_t plen);

/*
 * The key of the run's journals (journal_mac.h): HMAC-SHA256(secret,
 * "DLS-journal-key-1").  Returns 1 with key filled, or 0 (key untouched) in
 * an open run or for s NULL.
 */
int run_auth_journal_key(const struct run_secret *s, uint8_t key[RUN_AUTH_PROOF_LEN]);

/* A parent's view: its secret and the nonces already used in the run. */
struct run_auth {
	struct run_secret secret;
	pthread_mutex_t lock;
	uint8_t (*seen)[RUN_AUTH_NONCE_LEN];
	size_t nseen, cap;
};

/* s may be NULL (an open run).  DLS_OK or DLS_ENOMEM. */
int run_auth_init(struct run_auth *a, const struct run_secret *s);
void run_auth_free(struct run_auth *a);

/*
 * A parent checks a join: DLS_OK (an open run, or a right proof over a
 * nonce not seen before, now recorded); DLS_EINVAL with why (no proof, a
 * wrong one, a malformed nonce, or a replayed one).  Thread-safe.
 */
int run_auth_check_join(struct run_auth *a, const uint8_t *nonce, size_t nlen,
			const uint8_t *proof, size_t plen, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
