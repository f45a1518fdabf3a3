// bad_client.cc - a slave that misbehaves on purpose (tests/integration/
// t_bad_requests.sh): every refusal the master owes is checked, then it
// computes its share correctly so the run completes.  Prints one line per
// check; exits 1 if any bad request was accepted.
//
//   bad_client RUN                  a member of an open run that misbehaves
//   bad_client --intruder RUN N     a stranger without the run's secret, while
//                                   N real slaves work (t_hostile.sh)
//   bad_client --intruder-trees RUN N   the same against Tree Scheduling
//   bad_client --hijack RUN FROM    binds FROM's master as RUN's master
//   bad_client --flood RUN N        N forged requests and results (wrong keys)
//   bad_client --liar RUN [LEAF]    a member of an open run that returns
//                                   plausible wrong values for every chunk
//                                   (each count one higher, below maxit),
//                                   below DLS/RUN/LEAF (default master)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "dls.hh"
#include "mandel.h"
#include "orb_util.hh"
#include "ping_slave.hh"
#include "proto_conv.hh"
#include "run_trust.hh"

static int failures;

// answers the master's pings like any slave

#define EXPECT_REFUSED(what, call)                                                                 \
	do {                                                                                       \
		try {                                                                              \
			call;                                                                      \
			printf("ACCEPTED (bug): %s\n", what);                                     \
			failures++;                                                                \
		} catch (const DLS::Refused &r) {                                                  \
			printf("refused: %s: %s\n", what, (const char *)r.reason);                 \
		}                                                                                  \
	} while (0)

static struct mandel_params mp; // the run's image, from the job's parameters

// The results of [start, start + count) in `nbytes` octets (natural order).
static DLS::ResultBlock block(long long start, long long count, long long nbytes)
{
	DLS::ResultBlock b;
	std::vector<uint16_t> col((size_t)mp.height);

	b.loop = 0;
	b.start = start;
	b.count = count;
	b.data.length((CORBA::ULong)nbytes);
	for (long long i = 0; i < count && (i + 1) * mp.height * 2 <= nbytes; i++) {
		mandel_column(&mp, (int32_t)i + (int32_t)start, col.data());
		memcpy(b.data.get_buffer() + i * mp.height * 2, col.data(), (size_t)mp.height * 2);
	}
	return b;
}

// Sets the first count of a block (little-endian uint16).
static void set_count(DLS::ResultBlock &b, unsigned v)
{
	b.data[0] = (CORBA::Octet)(v & 0xff);
	b.data[1] = (CORBA::Octet)(v >> 8);
}

static DLS::ChunkRequest req(int id, unsigned seq, int acp, DLS::Capability key)
{
	DLS::ChunkRequest r;

	r.slave_id = id;
	r.key = key;
	r.seq = seq;
	r.acp = acp;
	r.second = 0;
	r.results.length(0);
	memset(&r.times, 0, sizeof(r.times));
	return r;
}

// Waits up to 10 s for DLS/<run>/<leaf> (nil if it never comes).
static CORBA::Object_ptr resolve(const char *run, const char *leaf)
{
	char path[192], why[256];
	int err;

	dls_name_path(path, run, leaf);
	for (int i = 0; i < 200; i++) {
		CORBA::Object_ptr obj = dls_name_resolve(path, &err, why, sizeof(why));
		if (!CORBA::is_nil(obj))
			return obj;
		omni_thread::sleep(0, 50000000);
	}
	return CORBA::Object::_nil();
}

// The real slave DLS/<run>/slave.<id>, to attack; nil (counted a failure) if absent.
static DLS::Slave_ptr real_slave(const char *run, int id)
{
	char leaf[32];

	snprintf(leaf, sizeof(leaf), "slave.%d", id);
	CORBA::Object_var o = resolve(run, leaf);
	DLS::Slave_ptr sl = DLS::Slave::_narrow(o);
	if (CORBA::is_nil(sl)) {
		printf("FAILED: slave.%d not found to attack\n", id);
		failures++;
	}
	return sl;
}

// The same for a placed slave of a Tree Scheduling or policy run, which
// must serve DLS::PlacedSlave.
static DLS::PlacedSlave_ptr real_placed_slave(const char *run, int id)
{
	DLS::Slave_var sl = real_slave(run, id);
	DLS::PlacedSlave_ptr p = DLS::PlacedSlave::_narrow(sl);

	if (!CORBA::is_nil(sl) && CORBA::is_nil(p)) {
		printf("FAILED: slave.%d is not a DLS::PlacedSlave\n", id);
		failures++;
	}
	return p;
}

// Credentials made with a secret that is not the run's.
static DLS::Credentials wrong_secret(void)
{
	struct run_secret s;
	DLS::Credentials c;

	memset(&s, 0, sizeof(s));
	s.set = 1;
	s.len = 32;
	memset(s.bytes, 'x', s.len);
	trust_credentials(&s, c);
	return c;
}

// A stranger to a run with a secret, while its slaves work: joins without
// the secret or with another, guesses ids and capabilities for every call
// that acts in the run, and tells the slaves to stop.
static void intrude(DLS::Master_ptr m, const char *run, int nslaves, DLS::Slave_ptr self)
{
	const CORBA::ULong V = DLS::PROTOCOL_VERSION;
	DLS::Credentials none, bad = wrong_secret(), odd;
	DLS::ResultSeq rs;

	trust_credentials(NULL, none);
	odd.nonce.length(3);
	odd.proof.length(5);
	EXPECT_REFUSED("join without the run's secret", m->register_slave(V, none, "x", 1.0, self));
	EXPECT_REFUSED("join with another secret", m->register_slave(V, bad, "x", 1.0, self));
	EXPECT_REFUSED("join with malformed credentials", m->register_slave(V, odd, "x", 1.0, self));
	EXPECT_REFUSED("join a group without the secret",
		       m->register_group(V, none, "x", DLS::StringSeq(), DLS::DoubleSeq(), self));
	DLS::DoubleSeq_var vp;
	EXPECT_REFUSED("join as a cluster without the secret",
		       m->register_cluster(V, none, "x", DLS::DoubleSeq(), self, vp.out()));
	EXPECT_REFUSED("rejoin with another secret", m->rejoin(V, bad, 0, 1, self));
	rs.length(1);
	rs[0] = block(0, 1, 2 * mp.height);
	for (int id = 0; id < nslaves; id++) {
		EXPECT_REFUSED("rejoin as a real slave", m->rejoin(V, none, id, id + 1, self));
		for (DLS::Capability k : {(DLS::Capability)0, (DLS::Capability)1,
					  (DLS::Capability)id + 1}) {
			EXPECT_REFUSED("slave_lost of a real slave", m->slave_lost(id, k, "intruder"));
			EXPECT_REFUSED("submit as a real slave", m->submit(id, k, rs));
			EXPECT_REFUSED("request as a real slave", m->request(req(id, 1, 1, k)));
		}
		DLS::Slave_var sl = real_slave(run, id);
		if (CORBA::is_nil(sl))
			continue;
		EXPECT_REFUSED("stop a real slave", sl->stop(0, "intruder"));
		EXPECT_REFUSED("stop a real slave with a guessed key", sl->stop(id + 1, "intruder"));
		EXPECT_REFUSED("ask a real slave how far it is", sl->progress(id + 1));
		EXPECT_REFUSED("take back a real slave's chunk", sl->take_back(0, 0, 1));
	}
}

// The same against Tree Scheduling: the coordinator and the tree slaves.
static void intrude_trees(DLS::Coordinator_ptr co, const char *run, int nslaves,
			  DLS::Slave_ptr self)
{
	const CORBA::ULong V = DLS::PROTOCOL_VERSION;
	DLS::Credentials none, bad = wrong_secret();
	DLS::ResultSeq rs;
	DLS::SlaveTimes t;
	// not a placed slave: the secret is checked first, and refuses it
	DLS::PlacedSlave_var placed = DLS::PlacedSlave::_unchecked_narrow(self);

	memset(&t, 0, sizeof(t));
	trust_credentials(NULL, none);
	EXPECT_REFUSED("join the tree without the secret",
		       co->register_tree_slave(V, none, "x", 1.0, placed));
	EXPECT_REFUSED("join the tree with another secret",
		       co->register_tree_slave(V, bad, "x", 1.0, placed));
	rs.length(1);
	rs[0] = block(0, 1, 2 * mp.height);
	for (int id = 0; id < nslaves; id++) {
		EXPECT_REFUSED("report as a real slave", co->report(id, 1, rs, t));
		EXPECT_REFUSED("migrated as a real slave", co->migrated(id, 1, (id + 1) % nslaves,
									0, 1, 1));
		DLS::Capability pk = 0;
		EXPECT_REFUSED("a peer's reference as a real slave",
			       CORBA::release(co->peer(id, 1, (id + 1) % nslaves, pk)));
		DLS::PlacedSlave_var sl = real_placed_slave(run, id);
		if (CORBA::is_nil(sl))
			continue;
		EXPECT_REFUSED("demand from a stranger", sl->demand(-7, 1));
		EXPECT_REFUSED("transfer from a stranger", sl->transfer(0, 1, 0, 1, 1));
		EXPECT_REFUSED("transfer as the coordinator", sl->transfer(-1, 1, 0, 1, 1));
		EXPECT_REFUSED("new neighbours from a stranger",
			       sl->neighbours(1, -1, DLS::PlacedSlave::_nil(), 0, 0, -1,
					      DLS::PlacedSlave::_nil(), 0, 0));
		EXPECT_REFUSED("stop a tree slave", sl->stop(0, "intruder"));
		EXPECT_REFUSED("take back a tree slave's chunk", sl->take_back(1, 0, 1));
		EXPECT_REFUSED("balance from a stranger", sl->balance(0, 1, 0, 5, 5, 0, 0));
		EXPECT_REFUSED("end a loop of a tree slave", sl->end_loop(1, 0));
		DLS::TreeAssignment next;
		next.reg.key = 1;
		EXPECT_REFUSED("place a tree slave for a next loop", sl->next_loop(1, next));
	}
}

// Registers with an open run's master: its id, capability and the image
// (mp); -1 when it cannot.
static int join_open_run(DLS::Master_ptr m, DLS::Slave_ptr self, const char *name,
			 DLS::Capability *key, long long *rb)
{
	DLS::Credentials cred;
	struct dls_job job;
	char why[256];

	trust_credentials(NULL, cred);
	DLS::Registration_var reg =
		m->register_slave(DLS::PROTOCOL_VERSION, cred, name, 1.0, self);
	if (proto_job_in(reg->job, &job, why, sizeof(why)) ||
	    strcmp(job.workload, "mandelbrot") ||
	    mandel_params_from(job.params, (size_t)job.nparams, &mp, why, sizeof(why))) {
		printf("FAILED: the job is not a Mandelbrot image: %s\n", why);
		return -1;
	}
	*key = reg->key;
	*rb = job.result_bytes;
	return (int)reg->slave_id;
}

// Raises every count below maxit by one: values the workload's check
// accepts, and wrong.
static void falsify(DLS::ResultBlock &b)
{
	for (CORBA::ULong k = 0; k + 1 < b.data.length(); k += 2) {
		unsigned v = b.data[k] | b.data[k + 1] << 8;

		v += v < (unsigned)mp.maxit;
		b.data[k] = (CORBA::Octet)(v & 0xff);
		b.data[k + 1] = (CORBA::Octet)(v >> 8);
	}
}

// Computes every chunk it is given, 2 ms each (so that the real slaves
// share the loop), each delivered with the next request, the one held now
// ([*held_s, +held_c), or none) first, until DONE; a liar falsifies each
// and stops when refused (its reason in why).  How many it delivered.
static long long compute_until_done(DLS::Master_ptr m, int id, DLS::Capability key, long long rb,
				    unsigned *seq, long long held_s, long long held_c, int lie,
				    std::string *why)
{
	long long delivered = 0;

	for (;;) {
		DLS::ChunkRequest r = req(id, (*seq)++, 1, key);
		if (held_s >= 0) {
			r.results.length(1);
			r.results[0] = block(held_s, held_c, held_c * rb);
			if (lie)
				falsify(r.results[0]);
		}
		DLS::Reply_var rep;
		try {
			rep = m->request(r);
		} catch (const DLS::Refused &e) {
			if (!lie)
				throw;
			*why = (const char *)e.reason;
			return delivered;
		}
		delivered += held_s >= 0;
		held_s = -1;
		if (rep->kind == DLS::REPLY_DONE)
			return delivered;
		if (rep->kind == DLS::REPLY_WAIT) {
			omni_thread::sleep(0, 20000000);
			continue;
		}
		held_s = rep->start;
		held_c = rep->count;
		omni_thread::sleep(0, 2000000);
	}
}

// The liar: delivers every chunk falsified until the master refuses it
// (directly, or below a relay hmaster: told DONE).
static int lie(DLS::Master_ptr m, DLS::Slave_ptr self)
{
	DLS::Capability key;
	long long rb, lies;
	int id = join_open_run(m, self, "liar", &key, &rb);
	unsigned seq = 1;
	std::string why;

	if (id < 0)
		return 1;
	lies = compute_until_done(m, id, key, rb, &seq, -1, 0, 1, &why);
	if (why.empty()) {
		printf("liar told the run is done after %lld wrong chunks delivered\n", lies);
		return 0;
	}
	printf("liar refused after %lld wrong chunks delivered: %s\n", lies, why.c_str());
	return 0;
}

static DLS::Slave_ptr ping_only_self(void)
{
	PingOnlySlave *servant = new PingOnlySlave();
	PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(servant);
	DLS::Slave_ptr self = servant->_this();
	servant->_remove_ref(); // the POA owns it now
	return self;
}

// The other modes: 0 when every attack was refused.
static int other_mode(int argc, char **argv)
{
	char why[256];

	if (!strcmp(argv[1], "--hijack") && argc >= 4) {
		char path[192];
		CORBA::Object_var from = resolve(argv[3], "master");

		dls_name_path(path, argv[2], "master");
		if (CORBA::is_nil(from) || dls_name_bind(path, from, why, sizeof(why))) {
			fprintf(stderr, "bad_client: cannot hijack '%s'\n", path);
			return 1;
		}
		printf("bound %s's master as %s\n", argv[3], path);
		return 0;
	}
	if (!strcmp(argv[1], "--liar") && argc >= 3) {
		CORBA::Object_var obj = resolve(argv[2], argc >= 4 ? argv[3] : "master");
		DLS::Slave_var self = ping_only_self();

		return lie(DLS::Master::_narrow(obj), self);
	}
	if (argc < 4)
		return 2;
	if (!strcmp(argv[1], "--flood")) { // N forged requests and results, as fast as it can
		CORBA::Object_var obj = resolve(argv[2], "master");
		DLS::Master_var m = DLS::Master::_narrow(obj);
		long n = atol(argv[3]), refused = 0;
		DLS::ResultSeq none;

		for (long i = 0; i < n; i++) {
			try {
				if (i % 2)
					m->submit((CORBA::Long)(i % 4), 12345, none);
				else
					m->request(req((int)(i % 4), (unsigned)i + 1, 1, 12345));
			} catch (const DLS::Refused &) {
				refused++;
			}
		}
		printf("flood: %ld of %ld forged calls refused\n", refused, n);
		return refused == n ? 0 : 1;
	}
	int trees = !strcmp(argv[1], "--intruder-trees");
	CORBA::Object_var obj = resolve(argv[2], trees ? "treesched" : "master");
	DLS::Slave_var self = ping_only_self();

	mp = (struct mandel_params){400, 200, 256};
	if (trees)
		intrude_trees(DLS::Coordinator::_narrow(obj), argv[2], atoi(argv[3]), self);
	else
		intrude(DLS::Master::_narrow(obj), argv[2], atoi(argv[3]), self);
	printf("intruder done, %d attacks accepted\n", failures);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* a test watches the lines as they come */
	if (dls_orb_init(&argc, argv, 30000) || argc < 2) {
		fprintf(stderr, "usage: bad_client [--intruder|--intruder-trees|--hijack|--flood|--liar] RUN ... "
				"-ORBInitRef NameService=...\n");
		return 2;
	}
	if (argv[1][0] == '-') {
		int rc = other_mode(argc, argv);

		dls_orb_destroy();
		return rc;
	}
	CORBA::Object_var obj = resolve(argv[1], "master");
	DLS::Master_var m = DLS::Master::_narrow(obj);
	DLS::Slave_var self = ping_only_self();

	const CORBA::ULong V = DLS::PROTOCOL_VERSION;
	DLS::Credentials cred;
	trust_credentials(NULL, cred); // an open run
	EXPECT_REFUSED("register speaking protocol version 1",
		       m->register_slave(1, cred, "bad", 1.0, self));
	EXPECT_REFUSED("register speaking the next protocol version",
		       m->register_slave(V + 1, cred, "bad", 1.0, self));
	EXPECT_REFUSED("register without a Slave reference",
		       m->register_slave(V, cred, "bad", 1.0, DLS::Slave::_nil()));
	EXPECT_REFUSED("register with a NaN speed", m->register_slave(V, cred, "bad", NAN, self));
	EXPECT_REFUSED("register with a negative speed",
		       m->register_slave(V, cred, "bad", -1.0, self));
	DLS::Capability key;
	long long rb;
	int id = join_open_run(m, self, "bad", &key, &rb);
	if (id < 0)
		return 1;
	unsigned seq = 1;

	EXPECT_REFUSED("request from unknown slave id 999", m->request(req(999, 1, 1, key)));
	EXPECT_REFUSED("request with A_i = 0", m->request(req(id, seq, 0, key)));
	EXPECT_REFUSED("request with another capability", m->request(req(id, seq, 1, key ^ 1)));
	EXPECT_REFUSED("slave_lost with another capability", m->slave_lost(id, key ^ 1, "x"));
	DLS::Credentials fresh1, fresh2; // new nonces: the capability is what is refused
	trust_credentials(NULL, fresh1);
	trust_credentials(NULL, fresh2);
	EXPECT_REFUSED("rejoin with another capability", m->rejoin(V, fresh1, id, key ^ 1, self));
	EXPECT_REFUSED("rejoin as unknown slave id 999", m->rejoin(V, fresh2, 999, key, self));

	DLS::Reply_var rep = m->request(req(id, seq++, 1, key));
	while (rep->kind == DLS::REPLY_WAIT) // the gate may hold us briefly
		rep = m->request(req(id, seq++, 1, key));
	if (rep->kind != DLS::REPLY_WORK) {
		printf("no work for the bad client\n");
		return failures ? 1 : 0;
	}
	long long s = rep->start, c = rep->count;
	DLS::ResultSeq rs;
	rs.length(1);

	rs[0] = block(s + c, 1, rb);
	EXPECT_REFUSED("result for a range the slave does not hold", m->submit(id, key, rs));
	rs[0] = block(s, c, c * rb - 1);
	EXPECT_REFUSED("result with one octet too few", m->submit(id, key, rs));
	rs[0] = block(s, c, c * rb + 2);
	EXPECT_REFUSED("result with one count too many", m->submit(id, key, rs));
	rs[0] = block(-5, 1, rb);
	EXPECT_REFUSED("result with a negative start", m->submit(id, key, rs));
	rs[0] = block(s, c, c * rb);
	set_count(rs[0], (unsigned)mp.maxit + 1);
	EXPECT_REFUSED("result with a count above maxit", m->submit(id, key, rs));
	set_count(rs[0], 0);
	EXPECT_REFUSED("result with a count of 0", m->submit(id, key, rs));
	rs[0] = block(s, c, c * rb);
	EXPECT_REFUSED("result from unknown slave id 999", m->submit(999, key, rs));
	EXPECT_REFUSED("result without the capability", m->submit(id, 0, rs));
	// one chunk in flight (PROTOCOL.md 5): asking ahead while [s, s + c) is
	// held is accepted, but then it must go before the next request
	long long held_s = -1, held_c = 0;
	rep = m->request(req(id, seq++, 1, key));
	if (rep->kind == DLS::REPLY_WORK) {
		held_s = rep->start;
		held_c = rep->count;
		DLS::ChunkRequest early = req(id, seq, 1, key);
		EXPECT_REFUSED("request that leaves an older chunk undelivered", m->request(early));
	}
	m->submit(id, key, rs); // the real results: accepted
	printf("accepted: the results of [%lld, %lld)\n", s, s + c);
	EXPECT_REFUSED("a second result for the same range", m->submit(id, key, rs));
	DLS::ChunkRequest twice = req(id, seq, 1, key);
	twice.results = rs;
	EXPECT_REFUSED("a request carrying results already delivered", m->request(twice));

	// now behave, so that the real slaves share the loop
	compute_until_done(m, id, key, rb, &seq, held_s, held_c, 0, NULL);
	printf("bad client done, %d bad requests accepted\n", failures);
	dls_orb_destroy();
	return failures ? 1 : 0;
}
