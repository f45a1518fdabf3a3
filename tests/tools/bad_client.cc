// bad_client.cc - a slave that misbehaves on purpose (tests/integration/
// t_bad_requests.sh): every refusal the master owes is checked, then it
// computes its share correctly so the run completes.  Prints one line per
// check; exits 1 if any bad request was accepted.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <vector>

#include "dls.hh"
#include "mandel.h"
#include "orb_util.hh"
#include "ping_slave.hh"
#include "proto_conv.hh"

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

static DLS::ChunkRequest req(int id, unsigned seq, int acp)
{
	DLS::ChunkRequest r;

	r.slave_id = id;
	r.seq = seq;
	r.acp = acp;
	r.results.length(0);
	memset(&r.times, 0, sizeof(r.times));
	return r;
}

int main(int argc, char **argv)
{
	char why[256];
	int err;

	if (dls_orb_init(&argc, argv, 30000) || argc < 2) {
		fprintf(stderr, "usage: bad_client RUN -ORBInitRef NameService=...\n");
		return 2;
	}
	char path[192];
	dls_name_path(path, argv[1], "master");
	CORBA::Object_var obj;
	for (int i = 0; i < 200; i++) {
		obj = dls_name_resolve(path, &err, why, sizeof(why));
		if (!CORBA::is_nil(obj))
			break;
		omni_thread::sleep(0, 50000000);
	}
	DLS::Master_var m = DLS::Master::_narrow(obj);
	PingOnlySlave *servant = new PingOnlySlave();
	PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(servant);
	DLS::Slave_var self = servant->_this();
	servant->_remove_ref(); // the POA owns it now

	const CORBA::ULong V = DLS::PROTOCOL_VERSION;
	EXPECT_REFUSED("register speaking protocol version 1",
		       m->register_slave(1, "bad", 1.0, self));
	EXPECT_REFUSED("register speaking protocol version 3",
		       m->register_slave(V + 1, "bad", 1.0, self));
	EXPECT_REFUSED("register without a Slave reference",
		       m->register_slave(V, "bad", 1.0, DLS::Slave::_nil()));
	EXPECT_REFUSED("register with a NaN speed", m->register_slave(V, "bad", NAN, self));
	EXPECT_REFUSED("register with a negative speed", m->register_slave(V, "bad", -1.0, self));
	DLS::Registration_var reg = m->register_slave(V, "bad", 1.0, self);
	int id = reg->slave_id;
	struct dls_job job;
	if (proto_job_in(reg->job, &job, why, sizeof(why)) ||
	    strcmp(job.workload, "mandelbrot") ||
	    mandel_params_from(job.params, (size_t)job.nparams, &mp, why, sizeof(why))) {
		printf("FAILED: the job is not a Mandelbrot image: %s\n", why);
		return 1;
	}
	unsigned seq = 1;

	EXPECT_REFUSED("request from unknown slave id 999", m->request(req(999, 1, 1)));
	EXPECT_REFUSED("request with A_i = 0", m->request(req(id, seq, 0)));

	DLS::Reply rep = m->request(req(id, seq++, 1));
	while (rep.kind == DLS::REPLY_WAIT) // the gate may hold us briefly
		rep = m->request(req(id, seq++, 1));
	if (rep.kind != DLS::REPLY_WORK) {
		printf("no work for the bad client\n");
		return failures ? 1 : 0;
	}
	long long s = rep.start, c = rep.count, rb = job.result_bytes;
	DLS::ResultSeq rs;
	rs.length(1);

	rs[0] = block(s + c, 1, rb);
	EXPECT_REFUSED("result for a range the slave does not hold", m->submit(id, rs));
	rs[0] = block(s, c, c * rb - 1);
	EXPECT_REFUSED("result with one octet too few", m->submit(id, rs));
	rs[0] = block(s, c, c * rb + 2);
	EXPECT_REFUSED("result with one count too many", m->submit(id, rs));
	rs[0] = block(-5, 1, rb);
	EXPECT_REFUSED("result with a negative start", m->submit(id, rs));
	rs[0] = block(s, c, c * rb);
	set_count(rs[0], (unsigned)mp.maxit + 1);
	EXPECT_REFUSED("result with a count above maxit", m->submit(id, rs));
	set_count(rs[0], 0);
	EXPECT_REFUSED("result with a count of 0", m->submit(id, rs));
	rs[0] = block(s, c, c * rb);
	EXPECT_REFUSED("result from unknown slave id 999", m->submit(999, rs));
	DLS::ChunkRequest early = req(id, seq, 1);
	EXPECT_REFUSED("request that does not deliver the chunk held", m->request(early));
	m->submit(id, rs); // the real results: accepted
	printf("accepted: the results of [%lld, %lld)\n", s, s + c);
	EXPECT_REFUSED("a second result for the same range", m->submit(id, rs));
	DLS::ChunkRequest twice = req(id, seq, 1);
	twice.results = rs;
	EXPECT_REFUSED("a request carrying results already delivered", m->request(twice));

	// now behave: compute every chunk we are given until the run is done
	long long held_s = -1, held_c = 0;
	for (;;) {
		DLS::ChunkRequest r = req(id, seq++, 1);
		if (held_s >= 0) {
			r.results.length(1);
			r.results[0] = block(held_s, held_c, held_c * rb);
		}
		rep = m->request(r);
		held_s = -1;
		if (rep.kind == DLS::REPLY_DONE)
			break;
		if (rep.kind == DLS::REPLY_WAIT) {
			omni_thread::sleep(0, 20000000);
			continue;
		}
		held_s = rep.start;
		held_c = rep.count;
	}
	printf("bad client done, %d bad requests accepted\n", failures);
	dls_orb_destroy();
	return failures ? 1 : 0;
}
