// run_trust.hh - the run's trust on the wire (run_auth.h, PROTOCOL.md 14):
// a parent's servant checks the Credentials of a join and proves the
// secret back in its answer; a child makes Credentials and checks the proof.
#ifndef DLS_RUN_TRUST_HH
#define DLS_RUN_TRUST_HH

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dls.hh"
#include "dls/err.h"
#include "run_auth.h"

// A parent's side: owns a run_auth over a copy of the secret (NULL: open run).
class RunTrust {
public:
	explicit RunTrust(const struct run_secret *secret);
	~RunTrust();
	RunTrust(const RunTrust &) = delete;
	RunTrust &operator=(const RunTrust &) = delete;

	// Returns when cred may join; else throws DLS::Refused naming op and why.
	void check_join(const DLS::Credentials &cred, const char *op);
	// The proof back over cred's nonce and the n children registered.
	void prove(const DLS::Credentials &cred, const int *ids, const uint64_t *keys, size_t n,
		   DLS::OctetSeq &proof) const;
	// Master::prove_name's answer: the name proof over nonce and path
	// (empty in an open run).
	DLS::OctetSeq *prove_name(const DLS::OctetSeq &nonce, const char *path) const;
	// The answer to one child's registration or rejoin: its id, capability,
	// V_i and the job, with the proof back.
	DLS::Registration *registration(const DLS::Credentials &cred, int id, uint64_t key,
					double vpower, const DLS::JobSpec &job) const;
	const struct run_secret *secret() const
	{
		return &auth_.secret;
	}

private:
	struct run_auth auth_;
};

// A child's side: fresh Credentials for one registration (secret may be NULL).
void trust_credentials(const struct run_secret *secret, DLS::Credentials &out);

// A child checks its parent's proof over cred's nonce and what it issued:
// DLS_OK, or DLS_EINVAL with why (not this run's parent).
int trust_check_parent(const struct run_secret *secret, const DLS::Credentials &cred,
		       const int *ids, const uint64_t *keys, size_t n, const DLS::OctetSeq &proof,
		       char *why, size_t len);

// A child rejoins parent (a DLS::Master or DLS::Coordinator) as id with the
// capability key it was issued, self being its Slave (its PlacedSlave for a
// coordinator): fresh Credentials, the call, and the checks of the answer
// (the run's proof over id and key, and the same id and key back).  The answer, or NULL with *rc = DLS_EINVAL and
// why (not this run's parent, or an answer for another slave); DLS::Refused
// and CORBA system exceptions pass through to the caller.
template <class Parent, class SelfRef>
DLS::Registration *trust_rejoin(Parent parent, const struct run_secret *secret, int id,
				uint64_t key, SelfRef self, int *rc, char *why, size_t len)
{
	DLS::Credentials cred;

	trust_credentials(secret, cred);
	DLS::Registration_var r = parent->rejoin(DLS::PROTOCOL_VERSION, cred, id, key, self);
	int rid = r->slave_id;
	uint64_t rkey = r->key;

	*rc = trust_check_parent(secret, cred, &rid, &rkey, 1, r->proof, why, len);
	if (!*rc && (rid != id || rkey != key)) {
		snprintf(why, len, "the parent answered rejoin(%d) for slave %d", id, rid);
		*rc = DLS_EINVAL;
	}
	return *rc ? NULL : r._retn();
}

#endif
