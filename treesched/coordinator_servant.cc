// coordinator_servant.cc - DLS::Coordinator operations -> the coordinator
// core, and the coordinator's own calls to slaves after a failure.
#include "coordinator_servant.hh"

#include <stdlib.h>

#include <vector>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "orb_util.hh"
#include "proto_conv.hh"
#include "tree_migrate.h"
#include "log_limit.h"

Coordinator_i::Coordinator_i(struct coordinator *c, const DLS::JobSpec &job,
			     int ping_timeout_ms, const struct run_secret *secret)
	: SlaveRefs(ping_timeout_ms), c_(c), link_(c), job_(job), trust_(secret)
{
}

DLS::TreeAssignment *Coordinator_i::register_tree_slave(CORBA::ULong version,
							const DLS::Credentials &cred,
							const char *name, CORBA::Double speed,
							DLS::PlacedSlave_ptr self)
{
	Link::Inside inside(link_);
	struct coordinator_place p;
	char why[COORDINATOR_WHY_LEN] = "";
	int id = -1, rc;

	proto_require_version(version, "register_tree_slave");
	trust_.check_join(cred, "register_tree_slave");
	if (CORBA::is_nil(self))
		throw DLS::Refused("register_tree_slave: self must be a DLS::PlacedSlave reference");
	require_reachable(self, "register_tree_slave", name);
	// its reference goes into the journal, so that a resumed coordinator
	// can call it
	CORBA::String_var contact = dls_orb()->object_to_string(self);
	rc = coordinator_register(c_, name, speed, contact, &id, &p, why);
	if (rc)
		dls_refuse(rc, why);
	remember_ref(id, self);
	DLS::TreeAssignment *a = assignment(id, p, job_);
	trust_.prove(cred, &id, &p.key, 1, a->reg.proof);
	return a;
}

DLS::TreeAssignment *Coordinator_i::assignment(int id, const struct coordinator_place &p,
					       const DLS::JobSpec &job)
{
	const struct coordinator_config *c = coordinator_config_of(c_);
	DLS::TreeAssignment *a = new DLS::TreeAssignment;

	a->reg.slave_id = id;
	a->reg.key = p.key;
	a->reg.virtual_power = p.vpower;
	a->reg.job = job;
	a->peer_key = p.peer_key;
	a->left_key = p.left_key;
	a->right_key = p.right_key;
	a->start = p.start;
	a->count = p.count;
	a->stride = p.stride;
	a->tau = p.tau;
	a->left_id = p.left_id;
	a->left_tau = p.left_tau;
	a->right_id = p.right_id;
	a->right_tau = p.right_tau;
	a->report_interval = c->report_interval;
	a->gamma = tree_migrate_gamma_name(c->gamma);
	a->bidirectional = c->bidirectional ? 1 : 0;
	// the neighbours' references: registration has closed, so every slave
	// placed in the chain has registered its contact
	a->left = reach(p.left_id);
	a->right = reach(p.right_id);
	a->policy = c->policy[0] ? c->policy : "trees";
	proto_pile_params_out(&c->pile, a->pile);
	// every slave may call every other: each asks peer() for those it calls
	a->npes = coordinator_piles(c) ? coordinator_placed(c_) : 0;
	return a;
}

int Coordinator_i::end_loop(int id, uint32_t loop, char *why, size_t len)
{
	DLS::PlacedSlave_var ref = reach(id);

	if (CORBA::is_nil(ref)) {
		snprintf(why, len, "no reference");
		return DLS_ENOENT;
	}
	try {
		ref->end_loop(coordinator_child_key(c_, id), loop);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

int Coordinator_i::next_loop(int id, char *why, size_t len)
{
	DLS::PlacedSlave_var ref = reach(id);
	struct coordinator_place p;
	struct dls_job job;

	if (CORBA::is_nil(ref) || coordinator_place(c_, id, &p)) {
		snprintf(why, len, "no reference");
		return DLS_ENOENT;
	}
	coordinator_job(c_, &job);
	try {
		DLS::TreeAssignment_var a = assignment(id, p, proto_job_out(job));

		ref->next_loop(p.key, a.in());
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

DLS::PlacedSlave_ptr Coordinator_i::peer(CORBA::Long slave_id, DLS::Capability key, CORBA::Long peer_id,
				   DLS::Capability_out peer_key)
{
	Link::Inside inside(link_);
	char why[COORDINATOR_WHY_LEN] = "";
	uint64_t k;
	int lost, rc = coordinator_peer(c_, slave_id, key, peer_id, &k, &lost, why);

	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused peer lookups");

		log_limited(&lim, (int)slave_id, "refused slave %d the reference of slave %d: %s",
			    (int)slave_id,
			 (int)peer_id, why);
		dls_refuse(rc, why);
	}
	peer_key = 0;
	if (lost) // nil: take it as dead
		return DLS::PlacedSlave::_nil();
	DLS::PlacedSlave_ptr ref = reach(peer_id);
	if (CORBA::is_nil(ref))
		dls_refuse(DLS_ESTATE, "peer: no reference to that slave (not registered yet)");
	peer_key = k;
	return ref;
}

void Coordinator_i::report(CORBA::Long slave_id, DLS::Capability key, const DLS::ResultSeq &results,
			   const DLS::SlaveTimes &times)
{
	Link::Inside inside(link_);
	std::vector<struct dls_result> res;
	struct dls_times t;
	char why[COORDINATOR_WHY_LEN] = "";
	int rc;

	proto_results_in(results, res);
	proto_times_in(times, &t);
	rc = coordinator_report(c_, slave_id, key, res.data(), res.size(), &t, why);
	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused reports");

		log_limited(&lim, (int)slave_id, "refused a report of slave %d: %s", (int)slave_id,
			    why);
		dls_refuse(rc, why);
	}
}

void Coordinator_i::migrated(CORBA::Long from_slave_id, DLS::Capability key, CORBA::Long to_slave_id,
			     CORBA::LongLong start, CORBA::LongLong count, CORBA::LongLong stride)
{
	Link::Inside inside(link_);
	struct coordinator_repair rep;
	char why[COORDINATOR_WHY_LEN] = "";
	int rc = coordinator_migrated(c_, from_slave_id, key, to_slave_id, start, count, stride,
				      &rep, why);

	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused migration notices");

		log_limited(&lim, (int)from_slave_id, "refused a migration notice of slave %d: %s",
			    (int)from_slave_id, why);
		coordinator_repair_free(&rep);
		dls_refuse(rc, why);
	}
	if (rep.nranges)
		repair(rep);
	coordinator_repair_free(&rep);
}

DLS::Registration *Coordinator_i::rejoin(CORBA::ULong version, const DLS::Credentials &cred,
					 CORBA::Long slave_id, DLS::Capability key,
					 DLS::PlacedSlave_ptr self)
{
	Link::Inside inside(link_);
	char why[COORDINATOR_WHY_LEN] = "";
	double vpower = 0;
	int id = slave_id, rc;
	uint64_t k = key;

	proto_require_version(version, "rejoin");
	trust_.check_join(cred, "rejoin");
	if (CORBA::is_nil(self))
		throw DLS::Refused("rejoin: self must be a DLS::PlacedSlave reference");
	rc = coordinator_rejoin(c_, id, k, &vpower, why);
	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused rejoins");

		log_limited(&lim, id, "refused rejoin(%d): %s", id, why);
		dls_refuse(rc, why);
	}
	remember_ref(id, self); // after the key was checked: never a stranger's
	return trust_.registration(cred, id, k, vpower, job_);
}

void Coordinator_i::withdraw(CORBA::ULong version, const DLS::Credentials &cred, const char *name)
{
	Link::Inside inside(link_);
	char why[COORDINATOR_WHY_LEN] = "";
	int rc;

	proto_require_version(version, "withdraw");
	trust_.check_join(cred, "withdraw");
	rc = coordinator_withdraw(c_, name, why);
	if (rc)
		dls_refuse(rc, why);
}

DLS::RunStatus *Coordinator_i::status()
{
	Link::Inside inside(link_);
	struct dls_status s;

	if (coordinator_snapshot(c_, &s))
		throw CORBA::NO_MEMORY();
	DLS::RunStatus *out = proto_status_out(s);
	dls_status_free(&s);
	return out;
}

void Coordinator_i::tell_neighbours(int id)
{
	struct coordinator_side left, right;

	if (id < 0)
		return;
	coordinator_neighbours(c_, id, &left, &right);
	DLS::PlacedSlave_var ref = reach(id);
	if (CORBA::is_nil(ref)) {
		log_warn("cannot give slave %d its new neighbours: no reference to it", id);
		return;
	}
	DLS::PlacedSlave_var l = reach(left.id), r = reach(right.id);
	try {
		ref->neighbours(coordinator_child_key(c_, id), left.id, l, left.tau, left.peer_key,
				right.id, r, right.tau, right.peer_key);
	} catch (const CORBA::Exception &e) {
		char why[256];

		dls_corba_error(e, why, sizeof(why));
		log_warn("cannot give slave %d its new neighbours: %s", id, why);
	}
}

// Hands [start, +count) to slave `to`; a slave whose own registration call
// has not returned yet refuses the coordinator's key: it is asked again
// (for up to 5 s) rather than leaving its books and the slave's apart.
static void hand_over(struct coordinator *c, DLS::PlacedSlave_ptr ref, int to, int64_t start,
		      int64_t count)
{
	char why[256];

	for (int tries = 0;; tries++) {
		try {
			ref->transfer(-1, coordinator_child_key(c, to), start, count, 1);
			return;
		} catch (const DLS::Refused &e) {
			snprintf(why, sizeof(why), "%s", (const char *)e.reason);
			if (tries >= 50)
				break;
			dls_sleep_ms(100);
		} catch (const CORBA::Exception &e) { // liveness will find it lost
			dls_corba_error(e, why, sizeof(why));
			break;
		}
	}
	log_warn("cannot hand [%lld, +%lld) to slave %d: %s", (long long)start, (long long)count,
		 to, why);
}

void Coordinator_i::repair(const struct coordinator_repair &rep)
{
	if (rep.to >= 0 && rep.nranges) {
		DLS::PlacedSlave_var ref = reach(rep.to);

		for (size_t k = 0; k < rep.nranges && !CORBA::is_nil(ref); k++)
			hand_over(c_, ref, rep.to, rep.ranges[k].start, rep.ranges[k].count);
	}
	tell_neighbours(rep.left);
	tell_neighbours(rep.right);
	coordinator_repaired(c_, rep.serial);
}

DLS::PlacedSlave_ptr Coordinator_i::reach(int id)
{
	DLS::Slave_var ref = slave_ref(id);
	char contact[4096];

	if (!CORBA::is_nil(ref)) // it registered as a PlacedSlave
		return DLS::PlacedSlave::_unchecked_narrow(ref);
	if (coordinator_contact(c_, id, contact, sizeof(contact)))
		return DLS::PlacedSlave::_nil();
	try {
		CORBA::Object_var obj = dls_orb()->string_to_object(contact);
		DLS::PlacedSlave_var s = DLS::PlacedSlave::_unchecked_narrow(obj);
		remember_ref(id, s);
		return DLS::PlacedSlave::_duplicate(s);
	} catch (const CORBA::Exception &e) {
		char why[256];

		dls_corba_error(e, why, sizeof(why));
		log_warn("slave %d: its contact is unusable: %s", id, why);
		return DLS::PlacedSlave::_nil();
	}
}

int Coordinator_i::ping_slave(int id, char *why, size_t len)
{
	DLS::PlacedSlave_var ref = reach(id);

	return dls_ping(ref, why, len);
}

void Coordinator_i::resume()
{
	struct coordinator_repair *reps;
	size_t n;

	// the slaves' references come from their journaled contacts as each
	// is first called (reach)
	coordinator_take_pending(c_, &reps, &n);
	for (size_t k = 0; k < n; k++) {
		log_warn("carrying out again repair %lld: %lld iterations to slave %d",
			 (long long)reps[k].serial, (long long)reps[k].iterations, reps[k].to);
		repair(reps[k]);
		coordinator_repair_free(&reps[k]);
	}
	free(reps);
}
