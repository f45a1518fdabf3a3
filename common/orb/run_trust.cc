// run_trust.cc - see run_trust.hh.
#include "run_trust.hh"

#include <stdio.h>
#include <stdlib.h>

#include "dls/err.h"

RunTrust::RunTrust(const struct run_secret *secret)
{
	if (run_auth_init(&auth_, secret))
		abort(); /* a mutex that cannot be made */
}

RunTrust::~RunTrust()
{
	run_auth_free(&auth_);
}

void RunTrust::check_join(const DLS::Credentials &cred, const char *op)
{
	char why[256] = "", msg[320];
	int rc = run_auth_check_join(&auth_, cred.nonce.get_buffer(), cred.nonce.length(),
				     cred.proof.get_buffer(), cred.proof.length(), why, sizeof(why));

	if (rc == DLS_ENOMEM)
		throw CORBA::NO_MEMORY();
	if (rc) {
		snprintf(msg, sizeof(msg), "%s: %s", op, why);
		throw DLS::Refused(msg);
	}
}

// out holds the n octets of p.
static void octets(DLS::OctetSeq &out, const uint8_t *p, size_t n)
{
	out.length((CORBA::ULong)n);
	for (size_t k = 0; k < n; k++)
		out[(CORBA::ULong)k] = p[k];
}

void RunTrust::prove(const DLS::Credentials &cred, const int *ids, const uint64_t *keys, size_t n,
		     DLS::OctetSeq &proof) const
{
	uint8_t p[RUN_AUTH_PROOF_LEN];
	size_t plen;

	run_auth_prove(&auth_.secret, cred.nonce.get_buffer(), cred.nonce.length(), ids, keys, n,
		       p, &plen);
	octets(proof, p, plen);
}

DLS::OctetSeq *RunTrust::prove_name(const DLS::OctetSeq &nonce, const char *path) const
{
	DLS::OctetSeq *proof = new DLS::OctetSeq;
	uint8_t p[RUN_AUTH_PROOF_LEN];
	size_t plen;

	run_auth_prove_name(&auth_.secret, nonce.get_buffer(), nonce.length(), path, p, &plen);
	octets(*proof, p, plen);
	return proof;
}

DLS::Registration *RunTrust::registration(const DLS::Credentials &cred, int id, uint64_t key,
					  double vpower, const DLS::JobSpec &job) const
{
	DLS::Registration *r = new DLS::Registration;

	r->slave_id = id;
	r->key = key;
	r->virtual_power = vpower;
	r->job = job;
	prove(cred, &id, &key, 1, r->proof);
	return r;
}

void trust_credentials(const struct run_secret *secret, DLS::Credentials &out)
{
	uint8_t nonce[RUN_AUTH_NONCE_LEN], proof[RUN_AUTH_PROOF_LEN];
	size_t plen;

	run_auth_join(secret, nonce, proof, &plen);
	octets(out.nonce, nonce, RUN_AUTH_NONCE_LEN);
	octets(out.proof, proof, plen);
}

int trust_check_parent(const struct run_secret *secret, const DLS::Credentials &cred,
		       const int *ids, const uint64_t *keys, size_t n, const DLS::OctetSeq &proof,
		       char *why, size_t len)
{
	return run_auth_check_parent(secret, cred.nonce.get_buffer(), cred.nonce.length(), ids,
				     keys, n, proof.get_buffer(), proof.length(), why, len);
}
