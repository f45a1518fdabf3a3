// idl_slave.cc - a DLS slave written from the installed IDL and PROTOCOL.md
// alone: no DLS header, no libdls, only the stubs omniidl makes from
// share/dls/idl/dls.idl and omniORB.  It is what a slave in another ORB or
// language has to do, and `make check` runs it against dls-master.  It
// computes the "mandelbrot" workload (PROTOCOL.md 3) in both orders
// (section 4), asks with A_i = 1 (section 2), numbers its requests
// (section 6), sends results in blocks under 1 MiB (section 5), collects
// at the end when the job says so, and answers ping() and stop() (section 8).
// It joins an open run (no secret: section 14), shows the capability it got
// at registration on every later call, and heeds only a stop() that shows it.
//   idl_slave RUN NAME -ORBInitRef NameService=corbaname::HOST:PORT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <omniORB4/CORBA.h>
#include <omniORB4/Naming.hh>

#include <vector>

#include "dls.hh"

class IdlSlave : public POA_DLS::Slave {
public:
	volatile bool stopped = false;
	volatile DLS::Capability key = 0; // section 14: set once registered
	void ping() override {}
	void stop(DLS::Capability k, const char *) override
	{
		if (key == 0 || k != key)
			throw DLS::Refused("stop: not my master's capability");
		stopped = true;
	}
	// Section 17: this slave computes its chunks whole, so it reports none
	// that could be cut, and the master never takes one back from it.
	DLS::ChunkProgress progress(DLS::Capability) override
	{
		DLS::ChunkProgress p;
		p.start = p.count = p.done = 0;
		p.elapsed = 0;
		p.cuttable = false;
		return p;
	}
	void take_back(DLS::Capability, CORBA::LongLong, CORBA::LongLong) override
	{
		throw DLS::Refused("take_back: this slave computes its chunks whole");
	}
};

struct job {
	long w = 400, h = 200, maxit = 256;
	long long n, stride = 1;
	bool interleaved;
	CORBA::ULong loop = 0; // section 18: the run's loop (dls.loop), 0 first
};

// PROTOCOL.md 4: the interleaved stride
static long long gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static long long stride_of(long long n)
{
	long long s = (long long)((__int128)n * 6180339887LL / 10000000000LL);
	if (s < 1)
		s = 1;
	while (gcd(s, n) != 1)
		s++;
	return s % n ? s % n : 1;
}

// PROTOCOL.md 3: column x, little-endian uint16 counts, row 0 first
static void column(const job &j, long x, CORBA::Octet *out)
{
	double cr = -2.0 + (x + 0.5) * 4.0 / j.w;
	for (long y = 0; y < j.h; y++) {
		double ci = -1.0 + (y + 0.5) * 2.0 / j.h, zr = 0, zi = 0;
		long n = 0;
		while (n < j.maxit) {
			double zr2 = zr * zr, zi2 = zi * zi;
			if (zr2 + zi2 > 4.0)
				break;
			zi = 2.0 * zr * zi + ci;
			zr = zr2 - zi2 + cr;
			n++;
		}
		out[2 * y] = (CORBA::Octet)(n & 0xff);
		out[2 * y + 1] = (CORBA::Octet)(n >> 8);
	}
}

// The results of [start, start + count) in blocks of at most 1 MiB.
static void compute(const job &j, long long start, long long count, DLS::ResultSeq &out)
{
	long long rb = 2 * j.h, per = DLS::MAX_RESULT_BYTES / rb > 0 ? DLS::MAX_RESULT_BYTES / rb : 1;
	for (long long b = start; b < start + count; b += per) {
		long long n = start + count - b < per ? start + count - b : per;
		CORBA::ULong k = out.length();
		out.length(k + 1);
		out[k].loop = j.loop;
		out[k].start = b;
		out[k].count = n;
		out[k].data.length((CORBA::ULong)(n * rb));
		for (long long i = 0; i < n; i++) {
			long long x = j.interleaved ? (long long)((__int128)(b + i) * j.stride % j.n)
						    : b + i;
			column(j, (long)x, out[k].data.get_buffer() + i * rb);
		}
	}
}

// Sections 3 and 18: the job (at registration, or a new loop's) into j;
// false, said, when this slave cannot compute it.
static bool take_job(const DLS::JobSpec &js, job &j)
{
	if (js.version != DLS::PROTOCOL_VERSION || strcmp(js.workload, "mandelbrot")) {
		fprintf(stderr, "idl_slave: job of version %lu, workload %s: not mine\n",
			(unsigned long)js.version, (const char *)js.workload);
		return false;
	}
	j = job();
	for (CORBA::ULong i = 0; i < js.params.length(); i++) {
		long v = atol(js.params[i].value);
		if (!strcmp(js.params[i].name, "width"))
			j.w = v;
		else if (!strcmp(js.params[i].name, "height"))
			j.h = v;
		else if (!strcmp(js.params[i].name, "maxit"))
			j.maxit = v;
		else if (!strcmp(js.params[i].name, "dls.loop"))
			j.loop = (CORBA::ULong)v;
	}
	j.n = js.iterations;
	j.interleaved = js.order == DLS::ORDER_INTERLEAVED;
	j.stride = stride_of(j.n);
	if (j.n != j.w || js.result_bytes != 2 * j.h) {
		fprintf(stderr, "idl_slave: the job's loop is not the one its parameters make\n");
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
	if (argc < 3) {
		fprintf(stderr, "usage: idl_slave RUN NAME -ORBInitRef NameService=...\n");
		return 2;
	}
	CORBA::Object_var o = orb->resolve_initial_references("RootPOA");
	PortableServer::POA_var poa = PortableServer::POA::_narrow(o);
	PortableServer::POAManager_var pm = poa->the_POAManager();
	pm->activate();
	IdlSlave *servant = new IdlSlave();
	PortableServer::ObjectId_var oid = poa->activate_object(servant);
	CORBA::Object_var selfo = poa->id_to_reference(oid);
	DLS::Slave_var self = DLS::Slave::_narrow(selfo);

	// section 1: DLS/RUN/master in the naming service (retry: it may bind later)
	CORBA::Object_var nso = orb->resolve_initial_references("NameService");
	CosNaming::NamingContext_var ns = CosNaming::NamingContext::_narrow(nso);
	CosNaming::Name name;
	name.length(3);
	name[0].id = "DLS";
	name[1].id = (const char *)argv[1]; // a copy: a char * would be adopted
	name[2].id = "master";
	DLS::Master_var master;
	for (int i = 0; i < 200 && CORBA::is_nil(master); i++) {
		try {
			master = DLS::Master::_narrow(ns->resolve(name));
		} catch (const CosNaming::NamingContext::NotFound &) {
			usleep(100000);
		}
	}
	if (CORBA::is_nil(master)) {
		fprintf(stderr, "idl_slave: no master for run %s\n", argv[1]);
		return 1;
	}

	int rc = 0;
	try {
		// section 14: an open run's credentials, a fresh nonce and no proof
		DLS::Credentials cred;
		cred.nonce.length(16);
		FILE *urandom = fopen("/dev/urandom", "rb");
		if (!urandom || fread(cred.nonce.get_buffer(), 1, 16, urandom) != 16) {
			fprintf(stderr, "idl_slave: no randomness for the nonce\n");
			return 1;
		}
		fclose(urandom);
		// section 2: register (blocks until the run's registration closes)
		DLS::Registration_var reg =
			master->register_slave(DLS::PROTOCOL_VERSION, cred, argv[2], 1.0, self);
		servant->key = reg->key;
		job j;
		if (!take_job(reg->job, j))
			return 1;
		bool at_end = reg->job.collect == DLS::COLLECT_END;
		DLS::ResultSeq held; // computed, not delivered
		CORBA::ULong seq = 0;
		long long chunks = 0, iterations = 0;
		for (;;) {
			if (servant->stopped)
				break;
			// section 5: all blocks but the last by submit(), the last on the request
			DLS::ChunkRequest req;
			req.slave_id = reg->slave_id;
			req.key = reg->key; // section 14: every call shows the capability
			req.seq = ++seq; // section 6: 1, 2, 3, ...
			req.acp = 1;
			req.second = 0; // section 5: one request on its way at a time
			memset(&req.times, 0, sizeof(req.times));
			if (!at_end && held.length()) {
				for (CORBA::ULong k = 0; k + 1 < held.length(); k++) {
					DLS::ResultSeq one;
					one.length(1);
					one[0] = held[k];
					master->submit(reg->slave_id, reg->key, one);
				}
				req.results.length(1);
				req.results[0] = held[held.length() - 1];
				held.length(0);
			}
			DLS::Reply_var rep = master->request(req);
			if (rep->kind == DLS::REPLY_DONE)
				break;
			if (rep->kind == DLS::REPLY_WAIT) {
				if (at_end) { // the first WAIT: deliver everything, a block a message
					for (CORBA::ULong k = 0; k < held.length(); k++) {
						DLS::ResultSeq one;
						one.length(1);
						one[0] = held[k];
						master->submit(reg->slave_id, reg->key, one);
					}
					held.length(0);
				}
				usleep((useconds_t)rep->wait_ms * 1000);
				continue;
			}
			// section 18: a new loop's first chunk carries its job
			if (rep->job.length() == 1 && !take_job(rep->job[0], j))
				break;
			compute(j, rep->start, rep->count, held);
			chunks++;
			iterations += rep->count;
		}
		printf("idl_slave %s: %lld chunks, %lld iterations\n", argv[2], chunks, iterations);
	} catch (const DLS::Refused &r) {
		fprintf(stderr, "idl_slave: refused: %s\n", (const char *)r.reason);
		rc = 1;
	} catch (const CORBA::Exception &e) {
		fprintf(stderr, "idl_slave: %s\n", e._name());
		rc = 1;
	}
	poa->deactivate_object(oid.in());
	servant->_remove_ref();
	orb->destroy();
	return rc;
}
