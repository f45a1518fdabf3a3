// heat_sim.cc - an existing CORBA simulation that lends its spare cycles to
// a DLS run.
//
// The program is what a DLS user already has: an omniORB server with an
// interface of its own (Heat::Simulation, heat.idl) that other programs
// query while a rod warms up.  It embeds a DLS slave on ITS ORB and POA
// (dls_embed_use_orb) and computes a loop body of ITS own, registered as
// the workload "heat.sweep": iteration x diffuses a hot band along a rod of
// `cells` cells with conductivity k(x) until the centre has cooled, and
// returns the final profile as doubles (smaller k, more steps: the cost
// varies about twentyfold along the sweep).
//
//   heat_sim --run RUN [--name NAME] [--ior FILE] [--linger SECONDS]
//            -ORBInitRef NameService=...   (simulates on for SECONDS after the run)
//   heat_sim --reference FILE [--param count=N --param cells=C]  (sequential)
//   heat_sim --query IOR          (a client of the simulation's interface)
//   heat_sim --steps T --slaves K --run RUN [--out FILE] -ORBInitRef ...
//            a time-stepping simulation: T time steps, each one loop of a DLS
//            run of T loops that this program's embedded master serves to
//            K slaves in this program; step t + 1's parameter `hot` (the
//            hot band's temperature) comes from step t's results
//   heat_sim --steps T --reference FILE   (the same T steps, sequential)
//
// The master, which does not have this body, is told the loop's shape:
//   dls-master --slaves 2 --run RUN --workload heat.sweep --param count=48
//     --param cells=32 --param dls.iterations=48 --param dls.result_bytes=256
//     --param dls.dtype='<f8' --out sweep.npy
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <vector>

#include <dls/embed.hh>
#include <dls/err.h>
#include <dls/workload.h>

#include "heat.hh"

// --- the simulation the program exists for -----------------------------------

#define ROD 64

class Simulation_i : public POA_Heat::Simulation {
public:
	Simulation_i() : running_(true), steps_(0)
	{
		memset(t_, 0, sizeof(t_));
		pthread_mutex_init(&lock_, NULL);
	}
	CORBA::Double temperature(CORBA::Long cell) override
	{
		if (cell < 0 || cell >= ROD)
			throw CORBA::BAD_PARAM();
		pthread_mutex_lock(&lock_);
		double v = t_[cell];
		pthread_mutex_unlock(&lock_);
		return v;
	}
	CORBA::LongLong steps() override
	{
		pthread_mutex_lock(&lock_);
		long long s = steps_;
		pthread_mutex_unlock(&lock_);
		return s;
	}
	// One time step: the left end is held at 1, heat flows right.
	void step()
	{
		double next[ROD];

		pthread_mutex_lock(&lock_);
		for (int i = 0; i < ROD; i++) {
			double l = i ? t_[i - 1] : 1.0, r = i + 1 < ROD ? t_[i + 1] : t_[i];
			next[i] = t_[i] + 0.25 * (l - 2 * t_[i] + r);
		}
		memcpy(t_, next, sizeof(t_));
		steps_++;
		pthread_mutex_unlock(&lock_);
	}
	std::atomic<bool> running_;

private:
	double t_[ROD];
	long long steps_;
	pthread_mutex_t lock_;
};

static void *simulate(void *arg)
{
	Simulation_i *sim = (Simulation_i *)arg;

	while (sim->running_) {
		sim->step();
		usleep(1000);
	}
	return NULL;
}

// --- the loop body it gives DLS ------------------------------------------------

struct sweep {
	long long count;
	int cells;
	double hot; // the hot band's temperature at the start
};

static int sweep_open(void *user, const struct dls_param *p, size_t n, struct dls_loop *loop,
		      void **state, char *why, size_t len)
{
	static const char *const known[] = {"count", "cells", "hot", NULL};
	struct sweep *s = (struct sweep *)user;
	int64_t count = 48, cells = 32;
	double hot = 1.0;

	if (dls_params_known(p, n, known, why, len) ||
	    dls_param_int(p, n, "count", 1, 1000000, &count, why, len) ||
	    dls_param_int(p, n, "cells", 3, 4096, &cells, why, len) ||
	    dls_param_double(p, n, "hot", 0.2, 100, &hot, why, len))
		return DLS_EINVAL;
	s->count = count;
	s->cells = (int)cells;
	s->hot = hot;
	*state = s;
	loop->iterations = count;
	loop->result_bytes = (uint32_t)(cells * sizeof(double));
	snprintf(loop->dtype, sizeof(loop->dtype), "<f8");
	return DLS_OK;
}

// Loop index x: a hot middle third cools through both ends (held at 0).
static uint64_t sweep_one(const struct sweep *s, long long x, double *t)
{
	double k = 0.02 + 0.46 * ((double)x + 0.5) / (double)s->count;
	double *next = new double[s->cells];
	int c = s->cells, steps = 0;

	for (int i = 0; i < c; i++)
		t[i] = i >= c / 3 && i < 2 * c / 3 ? s->hot : 0.0;
	while (t[c / 2] > 0.1 && steps < 1000000) {
		for (int i = 0; i < c; i++) {
			double l = i ? t[i - 1] : 0.0, r = i + 1 < c ? t[i + 1] : 0.0;
			next[i] = t[i] + k * (l - 2.0 * t[i] + r);
		}
		memcpy(t, next, (size_t)c * sizeof(double));
		steps++;
	}
	delete[] next;
	return (uint64_t)steps * (uint64_t)c;
}

static int sweep_body(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		      char *why, size_t len)
{
	const struct sweep *s = (const struct sweep *)state;
	double *o = (double *)out;

	for (int64_t x = first; x < first + count; x++, o += s->cells)
		*cost += sweep_one(s, x, o);
	return DLS_OK;
}

static struct sweep sweep_state;
static const struct dls_workload sweep_workload = {"heat.sweep", &sweep_state, sweep_open, NULL,
						   sweep_body, NULL, NULL};

// --- the three ways to run it ---------------------------------------------------

// The whole sweep in this process, as raw doubles (what the master's .npy holds).
static int reference(const char *path, int argc, char **argv)
{
	struct dls_param p[DLS_MAX_PARAMS];
	int n = 0;
	char why[256];
	struct dls_loop loop;
	void *state;

	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--param")) {
			char *eq = strchr(argv[i + 1], '=');
			if (!eq)
				continue;
			*eq = '\0';
			dls_params_set(p, &n, argv[i + 1], eq + 1);
		}
	if (sweep_open(&sweep_state, p, (size_t)n, &loop, &state, why, sizeof(why))) {
		fprintf(stderr, "heat_sim: %s\n", why);
		return 2;
	}
	FILE *f = fopen(path, "wb");
	double *row = new double[sweep_state.cells];
	for (long long x = 0; f && x < loop.iterations; x++) {
		sweep_one(&sweep_state, x, row);
		fwrite(row, sizeof(double), (size_t)sweep_state.cells, f);
	}
	delete[] row;
	return f && !fclose(f) ? 0 : 1;
}

// --- a time-stepping simulation: one DLS loop a time step -----------------------

#define STEP_COUNT 48
#define STEP_CELLS 32

// Step t + 1's `hot` from step t's results (count x cells doubles, loop
// index order): a function of every value, in a fixed order, so that a
// run and the sequential reference agree to the bit.
static double next_hot(const std::vector<double> &r)
{
	double sum = 0;

	for (double v : r)
		sum += v;
	return 0.5 + 4.0 * sum / (double)r.size();
}

static void step_params(struct dls_param *p, int *n, double hot)
{
	char v[32];

	*n = 0;
	snprintf(v, sizeof(v), "%d", STEP_COUNT);
	dls_params_set(p, n, "count", v);
	snprintf(v, sizeof(v), "%d", STEP_CELLS);
	dls_params_set(p, n, "cells", v);
	snprintf(v, sizeof(v), "%.17g", hot);
	dls_params_set(p, n, "hot", v);
}

// The sequential T steps, every step's results one after the other.
static int reference_steps(const char *path, int steps)
{
	std::vector<double> r((size_t)STEP_COUNT * STEP_CELLS);
	struct dls_param p[DLS_MAX_PARAMS];
	struct dls_loop loop;
	double hot = 1.0;
	void *state;
	char why[256];
	int n;
	FILE *f = fopen(path, "wb");

	for (int t = 0; f && t < steps; t++) {
		step_params(p, &n, hot);
		if (sweep_open(&sweep_state, p, (size_t)n, &loop, &state, why, sizeof(why)))
			return 2;
		for (long long x = 0; x < STEP_COUNT; x++)
			sweep_one(&sweep_state, x, &r[(size_t)x * STEP_CELLS]);
		fwrite(r.data(), sizeof(double), r.size(), f);
		printf("step %d: hot %.6f\n", t, hot);
		hot = next_hot(r);
	}
	return f && !fclose(f) ? 0 : 1;
}

static std::vector<double> step_results((size_t)STEP_COUNT * STEP_CELLS);

// Each result of the current step as the master accepts it.
static void on_step_result(void *user, uint32_t loop, int64_t index, const void *data,
			   size_t bytes)
{
	(void)user;
	(void)loop;
	memcpy(&step_results[(size_t)index * STEP_CELLS], data, bytes);
}

// T time steps, each a loop of one DLS run: the master and K slaves in this
// program, on its ORB.
static int time_steps(int steps, int nslaves, const char *run, const char *out)
{
	struct dls_embed_master_options mo;
	struct dls_embed_master *m = NULL;
	std::vector<struct dls_embed_slave *> slaves((size_t)nslaves);
	struct dls_param p[DLS_MAX_PARAMS];
	char why[256];
	double hot = 1.0, t_p;
	int n, rc;
	FILE *f = out ? fopen(out, "wb") : NULL;

	if (out && !f) {
		fprintf(stderr, "heat_sim: cannot write %s\n", out);
		return 1;
	}
	step_params(p, &n, hot);
	dls_embed_master_options_init(&mo);
	mo.run = run;
	mo.slaves = nslaves;
	mo.workload = "heat.sweep";
	mo.params = p;
	mo.nparams = n;
	mo.scheme = "gss";
	mo.loops = steps;
	mo.on_loop_result = on_step_result;
	rc = dls_embed_master_start(&mo, &m, why, sizeof(why));
	for (int k = 0; !rc && k < nslaves; k++) {
		struct dls_embed_slave_options so;
		char name[32];

		dls_embed_slave_options_init(&so);
		so.run = run;
		snprintf(name, sizeof(name), "step-slave.%d", k);
		so.name = name; // copied when the slave starts
		rc = dls_embed_slave_start(&so, &slaves[(size_t)k], why, sizeof(why));
	}
	for (int t = 0; !rc && t < steps; t++) {
		uint32_t loop;

		rc = dls_embed_master_loop_wait(m, &loop, &t_p, why, sizeof(why));
		if (rc)
			break;
		if (f)
			fwrite(step_results.data(), sizeof(double), step_results.size(), f);
		printf("step %u: hot %.6f, T_p %.3f s\n", (unsigned)loop, hot, t_p);
		hot = next_hot(step_results);
		step_params(p, &n, hot);
		if (t + 1 < steps)
			rc = dls_embed_master_next_loop(m, p, n, why, sizeof(why));
	}
	if (rc)
		fprintf(stderr, "heat_sim: time steps: %s: %s\n", dls_strerror(rc), why);
	if (m) {
		char mwhy[256];
		int mrc = dls_embed_master_wait(m, NULL, mwhy, sizeof(mwhy));

		if (!rc && mrc) {
			fprintf(stderr, "heat_sim: the master failed: %s\n", mwhy);
			rc = mrc;
		}
	}
	for (int k = 0; k < nslaves; k++) {
		struct dls_slave_stats st;

		if (slaves[(size_t)k])
			dls_embed_slave_wait(slaves[(size_t)k], &st, why, sizeof(why));
	}
	if (f && fclose(f))
		rc = 1;
	return rc ? 1 : 0;
}

// A client of the simulation: what other programs do with it.
static int query(CORBA::ORB_ptr orb, const char *ior)
{
	try {
		CORBA::Object_var obj = orb->string_to_object(ior);
		Heat::Simulation_var sim = Heat::Simulation::_narrow(obj);

		printf("steps %lld, temperature of cell 8: %.6f\n", (long long)sim->steps(),
		       sim->temperature(8));
		return 0;
	} catch (const CORBA::Exception &e) {
		fprintf(stderr, "heat_sim: the simulation did not answer: %s\n", e._name());
		return 1;
	}
}

static const char *arg_of(int argc, char **argv, const char *name, const char *def)
{
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], name))
			return argv[i + 1];
	return def;
}

int main(int argc, char **argv)
{
	int steps = atoi(arg_of(argc, argv, "--steps", "0"));

	if (steps > 0 && arg_of(argc, argv, "--reference", NULL))
		return reference_steps(arg_of(argc, argv, "--reference", NULL), steps);
	if (arg_of(argc, argv, "--reference", NULL))
		return reference(arg_of(argc, argv, "--reference", NULL), argc, argv);

	// the program's own ORB and POA, as it always had them
	CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
	CORBA::Object_var o = orb->resolve_initial_references("RootPOA");
	PortableServer::POA_var poa = PortableServer::POA::_narrow(o);
	PortableServer::POAManager_var pm = poa->the_POAManager();
	pm->activate();
	if (arg_of(argc, argv, "--query", NULL)) {
		int rc = query(orb, arg_of(argc, argv, "--query", NULL));

		orb->destroy();
		return rc;
	}

	if (steps > 0) {
		int rc;

		if (dls_embed_use_orb(orb, poa) || dls_workload_register(&sweep_workload)) {
			fprintf(stderr, "heat_sim: cannot lend the ORB to DLS\n");
			return 1;
		}
		rc = time_steps(steps, atoi(arg_of(argc, argv, "--slaves", "2")),
				arg_of(argc, argv, "--run", "heat"), arg_of(argc, argv, "--out", NULL));
		dls_orb_stop();
		orb->destroy();
		return rc;
	}

	Simulation_i *sim = new Simulation_i();
	PortableServer::ObjectId_var oid = poa->activate_object(sim);
	CORBA::Object_var ref = poa->id_to_reference(oid);
	const char *ior_file = arg_of(argc, argv, "--ior", NULL);
	if (ior_file) {
		CORBA::String_var ior = orb->object_to_string(ref);
		FILE *f = fopen(ior_file, "w");
		if (!f || fprintf(f, "%s\n", (const char *)ior) < 0 || fclose(f)) {
			fprintf(stderr, "heat_sim: cannot write %s\n", ior_file);
			return 1;
		}
	}
	pthread_t th;
	pthread_create(&th, NULL, simulate, sim);

	// DLS on the same ORB: the loop body above, a slave in its own thread
	struct dls_embed_slave_options so;
	struct dls_embed_slave *slave;
	struct dls_slave_stats st;
	char why[256];
	int rc;

	dls_embed_slave_options_init(&so);
	so.run = arg_of(argc, argv, "--run", "heat");
	so.name = arg_of(argc, argv, "--name", "heat_sim");
	if (dls_embed_use_orb(orb, poa) || dls_workload_register(&sweep_workload)) {
		fprintf(stderr, "heat_sim: cannot lend the ORB to DLS\n");
		return 1;
	}
	rc = dls_embed_slave_start(&so, &slave, why, sizeof(why));
	if (!rc)
		rc = dls_embed_slave_wait(slave, &st, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "heat_sim: the DLS slave failed: %s: %s\n", dls_strerror(rc), why);
	} else {
		printf("DLS slave %d: %lld iterations in %lld chunks, %.3f s computing\n", st.id,
		       (long long)st.iterations, (long long)st.chunks, st.times.t_comp);
		// the simulation served its own clients all along; ask it once more
		Heat::Simulation_var me = Heat::Simulation::_narrow(ref);
		printf("simulation: %lld steps, cell 8 at %.6f\n", (long long)me->steps(),
		       me->temperature(8));
	}
	sleep((unsigned)atoi(arg_of(argc, argv, "--linger", "0")));
	sim->running_ = false;
	pthread_join(th, NULL);
	poa->deactivate_object(oid.in());
	sim->_remove_ref(); // the POA let go of it; so do we
	dls_orb_stop();	    // lets go of the ORB; the program destroys it
	orb->destroy();
	return rc ? 1 : 0;
}
