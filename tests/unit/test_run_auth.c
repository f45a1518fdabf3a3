/*
 * The run's secret and its proofs without sockets (run_auth.h): the file's
 * mode and size, a join proof that only the secret makes, a replayed join,
 * the parent's proof back, and an open run.
 */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dls/err.h"
#include "run_auth.h"
#include "suites.h"

static void test_secret_file(void)
{
	char dir[] = "/tmp/dls-auth-XXXXXX", path[64], why[512];
	struct run_secret s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.secret", dir);
	CU_ASSERT_EQUAL(run_secret_load(&s, NULL, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(s.set, 0); /* an open run */
	CU_ASSERT_EQUAL(run_secret_load(&s, path, why, sizeof(why)), DLS_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "run.secret"));
	CU_ASSERT_EQUAL_FATAL(run_secret_create(&s, path, why, sizeof(why)), DLS_OK);
	CU_ASSERT(s.set && s.len == 32);
	CU_ASSERT_EQUAL(run_secret_create(&s, path, why, sizeof(why)), DLS_EIO); /* exists */
	chmod(path, 0640);
	CU_ASSERT_EQUAL(run_secret_load(&s, path, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "mode 0640"));
	chmod(path, 0600);
	CU_ASSERT_EQUAL(truncate(path, 8), 0);
	CU_ASSERT_EQUAL(run_secret_load(&s, path, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "16..1024 octets"));
	unlink(path);
	rmdir(dir);
}

static void test_proofs(void)
{
	struct run_secret a = {1, 16, "0123456789abcdef"}, b = {1, 16, "0123456789abcdeF"}, open;
	struct run_auth parent;
	uint8_t nonce[RUN_AUTH_NONCE_LEN], proof[RUN_AUTH_PROOF_LEN], back[RUN_AUTH_PROOF_LEN];
	size_t plen, blen;
	int ids[2] = {4, 5};
	uint64_t keys[2] = {dls_random_key(), dls_random_key()};
	char why[256];

	memset(&open, 0, sizeof(open));
	CU_ASSERT_EQUAL_FATAL(run_auth_init(&parent, &a), DLS_OK);
	/* no proof, or one made with another secret: refused */
	run_auth_join(&open, nonce, proof, &plen);
	CU_ASSERT_EQUAL(plen, 0);
	CU_ASSERT_EQUAL(run_auth_check_join(&parent, nonce, sizeof(nonce), proof, plen, why,
					    sizeof(why)),
			DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "--secret-file"));
	run_auth_join(&b, nonce, proof, &plen);
	CU_ASSERT_EQUAL(run_auth_check_join(&parent, nonce, sizeof(nonce), proof, plen, why,
					    sizeof(why)),
			DLS_EINVAL);
	/* the run's own: accepted once; the same credentials again are a replay */
	run_auth_join(&a, nonce, proof, &plen);
	CU_ASSERT_EQUAL(plen, RUN_AUTH_PROOF_LEN);
	CU_ASSERT_EQUAL(run_auth_check_join(&parent, nonce, sizeof(nonce), proof, plen, why,
					    sizeof(why)),
			DLS_OK);
	CU_ASSERT_EQUAL(run_auth_check_join(&parent, nonce, sizeof(nonce), proof, plen, why,
					    sizeof(why)),
			DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "replay"));
	CU_ASSERT_EQUAL(run_auth_check_join(&parent, nonce, 3, proof, plen, why, sizeof(why)),
			DLS_EINVAL);
	/* the parent's proof covers the nonce, the ids and the keys */
	run_auth_prove(&a, nonce, sizeof(nonce), ids, keys, 2, back, &blen);
	CU_ASSERT_EQUAL(run_auth_check_parent(&a, nonce, sizeof(nonce), ids, keys, 2, back, blen,
					      why, sizeof(why)),
			DLS_OK);
	keys[1] ^= 1;
	CU_ASSERT_EQUAL(run_auth_check_parent(&a, nonce, sizeof(nonce), ids, keys, 2, back, blen,
					      why, sizeof(why)),
			DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "not this run's master"));
	/* a master without the secret proves nothing; a child with none checks nothing */
	run_auth_prove(&open, nonce, sizeof(nonce), ids, keys, 2, back, &blen);
	CU_ASSERT_EQUAL(blen, 0);
	CU_ASSERT_EQUAL(run_auth_check_parent(&a, nonce, sizeof(nonce), ids, keys, 2, back, blen,
					      why, sizeof(why)),
			DLS_EINVAL);
	CU_ASSERT_EQUAL(run_auth_check_parent(&open, nonce, sizeof(nonce), ids, keys, 2, back,
					      blen, why, sizeof(why)),
			DLS_OK);
	run_auth_free(&parent);
	/* an open run's parent takes anyone */
	CU_ASSERT_EQUAL_FATAL(run_auth_init(&parent, NULL), DLS_OK);
	CU_ASSERT_EQUAL(run_auth_check_join(&parent, nonce, 0, proof, 0, why, sizeof(why)), DLS_OK);
	run_auth_free(&parent);
}

/* PROTOCOL.md 14's formulas, against values from Python's hmac module. */
static void test_known_answers(void)
{
	struct run_secret a = {1, 16, "0123456789abcdef"};
	struct run_auth parent;
	uint8_t nonce[RUN_AUTH_NONCE_LEN], out[RUN_AUTH_PROOF_LEN];
	static const uint8_t join[RUN_AUTH_PROOF_LEN] = {
		0x60, 0xf8, 0x83, 0x7e, 0x78, 0xd9, 0xb0, 0x47, 0xbe, 0xac, 0x39,
		0x90, 0x38, 0x3b, 0x00, 0x8d, 0xe5, 0x4d, 0x4c, 0x69, 0x8c, 0x29,
		0x79, 0xb0, 0x31, 0x7d, 0x4f, 0x66, 0x84, 0x53, 0x68, 0x77};
	static const uint8_t back[RUN_AUTH_PROOF_LEN] = {
		0x4f, 0xd4, 0x6a, 0x64, 0xbe, 0x79, 0xdd, 0xe9, 0x83, 0x43, 0x46,
		0xfa, 0x78, 0xed, 0x0d, 0x7c, 0x58, 0xdd, 0xaa, 0xab, 0x6c, 0x8f,
		0xe7, 0x09, 0x94, 0x07, 0xf8, 0x55, 0x83, 0xbe, 0xe5, 0x16};
	int id = 4;
	uint64_t key = 0x0102030405060708ULL;
	size_t len;
	char why[256];

	for (int i = 0; i < RUN_AUTH_NONCE_LEN; i++)
		nonce[i] = (uint8_t)i;
	CU_ASSERT_EQUAL_FATAL(run_auth_init(&parent, &a), DLS_OK);
	CU_ASSERT_EQUAL(run_auth_check_join(&parent, nonce, sizeof(nonce), join, sizeof(join), why,
					    sizeof(why)),
			DLS_OK);
	run_auth_free(&parent);
	run_auth_prove(&a, nonce, sizeof(nonce), &id, &key, 1, out, &len);
	CU_ASSERT_EQUAL(len, RUN_AUTH_PROOF_LEN);
	CU_ASSERT_EQUAL(memcmp(out, back, sizeof(back)), 0);
}

int run_auth_suite_add(void)
{
	CU_pSuite s = CU_add_suite("run secret and proofs", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "secret file", test_secret_file) ||
	       !CU_add_test(s, "join and parent proofs", test_proofs) ||
	       !CU_add_test(s, "known answers", test_known_answers);
}
