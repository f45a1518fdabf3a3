/*
 * slave.c - what the slave's loops (slave_loop.c, slave_tree.c) share: the
 * results held, the calls with retries and rejoining, the computation and
 * the emulation of docs/emulation.md 2 and 5, the run queue and calibration.
 */
#include "slave.h"
#include "idle_worker.h"
#include "slave_call.h"
#include "slave_cut.h"
#include "slave_internal.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls/workload.h"
#include "dls_sched.h"
#include "dls_time.h"
#include "iter_order.h"
#include "mandel.h"

void slave_config_init(struct slave_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "slave");
	c->speed = 1;
	c->emulated = 1;
	emul_steps_const(&c->load, 1);
	c->t_iter_ns = 100;
	c->poll_ms = 100;
	c->retries = 5;
	c->retry_delay_ms = 200;
	c->patience_ms = 300000;
	c->max_block_bytes = DLS_MAX_RESULT_BYTES;
	c->overlap = 1;
	c->low_priority = 1;
}

double slave_declared_speed(const struct slave_config *cfg)
{
	return cfg->declared_speed > 0 ? cfg->declared_speed : cfg->speed;
}

void slave_store_clear(struct store *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->bufs[i]);
	s->n = 0;
}

int64_t slave_store_iterations(const struct store *s)
{
	int64_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->blocks[i].count;
	return n;
}

void slave_store_free(struct store *s)
{
	slave_store_clear(s);
	free(s->blocks);
	free(s->bufs);
}

int slave_store_add(struct store *s, int64_t start, int64_t count, void *buf, size_t nbytes)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct dls_result *b = realloc(s->blocks, cap * sizeof(*b));
		void **u;

		if (!b)
			return DLS_ENOMEM;
		s->blocks = b;
		u = realloc(s->bufs, cap * sizeof(*u));
		if (!u)
			return DLS_ENOMEM;
		s->bufs = u;
		s->cap = cap;
	}
	s->blocks[s->n] = (struct dls_result){start, count, buf, nbytes, s->loop};
	s->bufs[s->n++] = buf;
	return DLS_OK;
}

static double runqueue_without(int own);

double slave_load(const struct run *r, double at)
{
	return r->cfg->emulated	    ? emul_steps_at(&r->cfg->load, at - r->t0)
	       : r->cfg->q_override ? r->cfg->q_override
				    : runqueue_without(host_peers_running(&r->peers));
}

int64_t slave_acp(const struct run *r, double at, double *q)
{
	double load = slave_load(r, at);

	if (q)
		*q = load;
	return sched_acp(r->st->vpower, load,
			 sched_kind_is_distributed((enum sched_kind)r->job.scheme.kind));
}

/* A submit() of one block, a request, a report(): the calls slave_call makes. */
struct submit_call {
	struct run *r;
	const struct dls_result *block;
};

static int submit_once(void *arg, char *why, size_t len)
{
	struct submit_call *c = arg;

	return c->r->ops->submit(c->r->ops->ctx, c->r->st->id, c->block, 1, why, len);
}

struct request_call {
	struct run *r;
	const struct dls_request *req;
	struct dls_reply *reply;
};

static int request_once(void *arg, char *why, size_t len)
{
	struct request_call *c = arg;

	return c->r->ops->request(c->r->ops->ctx, c->req, c->reply, why, len);
}

struct report_call {
	struct run *r;
	int (*report)(void *ctx, int id, const struct dls_result *res, size_t n,
		      const struct dls_times *times, char *why, size_t len);
	void *ctx;
	int id;
	const struct dls_result *blocks;
	size_t n;
};

static int report_once(void *arg, char *why, size_t len)
{
	struct report_call *c = arg;

	return c->report(c->ctx, c->id, c->blocks, c->n, &c->r->st->times, why, len);
}

/* Sends every block of *s from the keep-th on with submit(); the first
 * rides on the request (piggy-backing).  A retried submit that is refused as
 * already delivered means an earlier attempt got through (before a crash,
 * say): the master keeps the first copy. */
int slave_deliver(struct run *r, struct store *s, size_t keep)
{
	for (size_t i = keep; i < s->n; i++) {
		uint64_t unreached = r->unreached;
		struct submit_call c = {r, &s->blocks[i]};
		int rc = slave_call(r, submit_once, &c, r->why, r->len);

		/* a refusal is DLS_ESTATE or DLS_EINVAL (struct slave_ops); its
		 * reason is PROTOCOL.md 7's "already delivered" */
		if ((rc == DLS_ESTATE || rc == DLS_EINVAL) && r->unreached != unreached &&
		    strstr(r->why, "already delivered")) {
			log_warn("results [%lld, +%lld) refused after a retry (%s): an earlier "
				 "attempt got through",
				 (long long)s->blocks[i].start, (long long)s->blocks[i].count,
				 r->why);
			rc = DLS_OK;
		}
		if (rc)
			return rc;
	}
	return DLS_OK;
}

int slave_exchange(struct run *r, struct store *out, struct dls_request *req,
		   struct dls_reply *reply)
{
	int rc = out ? slave_deliver(r, out, 1) : DLS_OK;

	if (rc)
		return rc;
	req->results = out && out->n ? out->blocks : NULL;
	req->nresults = out && out->n ? 1 : 0;
	log_debug("request %u: A_i %lld, results [%lld, +%lld)%s", (unsigned)req->seq,
		  (long long)req->acp, req->nresults ? (long long)req->results[0].start : 0LL,
		  req->nresults ? (long long)req->results[0].count : 0LL,
		  out && out->n > 1 ? " and more by submit" : "");
	struct request_call c = {r, req, reply};

	return slave_call(r, request_once, &c, r->why, r->len);
}

void slave_store_trim(struct store *s, int64_t from, int64_t to, size_t result_bytes)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct dls_result *b = &s->blocks[i];

		if (b->start >= from && b->start + b->count <= to) { /* all of it goes */
			free(s->bufs[i]);
			continue;
		}
		if (b->start < from && b->start + b->count > from) /* its tail goes */
			b->count = from - b->start;
		b->nbytes = (size_t)b->count * result_bytes;
		s->blocks[k] = *b;
		s->bufs[k++] = s->bufs[i];
	}
	s->n = k;
}

int slave_store_take(struct store *dst, struct store *src)
{
	for (size_t i = 0; i < src->n; i++) {
		if (slave_store_add(dst, src->blocks[i].start, src->blocks[i].count, src->bufs[i],
				    src->blocks[i].nbytes))
			return DLS_ENOMEM; /* what was moved is dst's, the rest src's */
		dst->blocks[dst->n - 1].loop = src->blocks[i].loop;
		src->bufs[i] = NULL;
	}
	src->n = 0;
	return DLS_OK;
}

static int compute_chunk(struct run *r, int64_t start, int64_t count, struct stretch *s);

/* A chunk's end: with a cut, the results past its bound leave the store
 * (the master took them back); counted in the slave's figures. */
static int chunk_over(struct run *r, int64_t start, int64_t count)
{
	if (r->cut) {
		int64_t end;

		slave_cut_finish(r->cut);
		end = slave_cut_end(r->cut);
		if (end < start + count) {
			slave_store_trim(&r->store, end, start + count, r->work.loop.result_bytes);
			log_info("chunk [%lld, +%lld) ends at %lld: the master took back the %lld "
				 "after it",
				 (long long)start, (long long)count, (long long)end,
				 (long long)(start + count - end));
			count = end - start;
		}
	}
	r->st->chunks++;
	r->st->iterations += count;
	return DLS_OK;
}

int slave_compute(struct run *r, int64_t start, int64_t count, int64_t *kept)
{
	int rc = compute_chunk(r, start, count, NULL);

	if (kept)
		*kept = r->cut ? slave_cut_end(r->cut) - start : count;
	return rc;
}

/* A chunk that a take-back may cut is in progress. */
static int cut_live(const struct run *r)
{
	return r->cut && r->cut->cuttable;
}

double slave_sleep_before_end(struct run *r, double deadline, double lead)
{
	if (cut_live(r))
		return slave_cut_sleep(r->cut, lead, NULL);
	if (deadline - lead > dls_now())
		dls_sleep_until(deadline - lead);
	return deadline;
}

/* The real computation of [start, start + count) into r->store, in blocks
 * that fit a message; *work adds its cost in unit iterations. */
struct blocks {
	struct run *r;
	int64_t start, count;
	double work;
};

/* Real (or embedded) computation under a take-back goes in pieces of about
 * SLAVE_CUT_GRAIN_S, so that the cut's bound is seen within that time
 * whatever the iterations cost, and a body that works on runs of
 * iterations still gets runs.  Each block starts with a piece of one
 * iteration and grows from the pieces' own times: an average over the
 * chunks before says nothing of this chunk's iterations (a Mandelbrot
 * column costs 1 to 256 units a row).  Emulated pieces are one iteration
 * each: each one's cost is told to the cut for the timeline. */
#define SLAVE_CUT_GRAIN_S 2e-3

/* The next real piece's size after a piece of m iterations took secs: the
 * size that would have taken SLAVE_CUT_GRAIN_S, at most twice m (costs
 * change along a loop: a run of cheap iterations is no promise). */
static int64_t next_grain(int64_t m, double secs)
{
	double g = secs > 0 ? (double)m * SLAVE_CUT_GRAIN_S / secs : 2.0 * (double)m;

	if (g > 2.0 * (double)m)
		g = 2.0 * (double)m;
	return g < 1 ? 1 : (int64_t)g;
}

/* One block [b, b + *n) of a chunk that may be cut, in pieces (from one
 * iteration, adapted to each real piece's time), ending early (*n and
 * *end lowered) at the cut's bound, which is checked after each piece.
 * When a piece fails, *n is what the pieces before it computed (kept: the
 * slave delivers them as it leaves). */
static int compute_cut(struct blocks *k, int64_t b, int64_t *n, uint8_t *buf, uint64_t *cost,
		       int64_t *end)
{
	int64_t grain = 1;
	struct run *r = k->r;
	size_t rb = r->work.loop.result_bytes;
	int real = !r->cfg->emulated;

	for (int64_t i = 0; i < *n;) {
		int64_t m = *n - i < grain ? *n - i : grain;
		uint64_t c = 0;
		double t0 = real ? dls_now() : 0;
		int rc = work_compute(&r->work, b + i, m, buf + (size_t)i * rb, &c, r->why, r->len);

		if (rc) {
			*n = i;
			*end = b + i;
			return rc;
		}
		if (real)
			grain = next_grain(m, dls_now() - t0);
		*cost += c;
		i += m;
		if (!slave_cut_computed(r->cut, b + i - 1 - k->start, (double)c)) {
			*n = i;
			*end = b + i;
			break;
		}
	}
	return DLS_OK;
}

static int compute_blocks(void *arg)
{
	struct blocks *k = arg;
	struct run *r = k->r;
	size_t rb = r->work.loop.result_bytes;
	int64_t per_block = (int64_t)(r->cfg->max_block_bytes / rb), end = k->start + k->count;

	if (per_block < 1)
		per_block = 1;
	for (int64_t b = k->start; b < end; b += per_block) {
		int64_t n = end - b < per_block ? end - b : per_block;
		void *buf = malloc((size_t)n * rb);
		uint64_t cost = 0;
		int rc;

		if (!buf) {
			snprintf(r->why, r->len, "out of memory for %lld results of %zu octets",
				 (long long)n, rb);
			return DLS_ENOMEM;
		}
		if (r->cut)
			rc = compute_cut(k, b, &n, buf, &cost, &end);
		else if ((rc = work_compute(&r->work, b, n, buf, &cost, r->why, r->len)))
			n = 0;
		k->work += (double)cost;
		if (n == 0) {
			free(buf);
		} else if (slave_store_add(&r->store, b, n, buf, (size_t)n * rb)) {
			free(buf);
			snprintf(r->why, r->len, "out of memory");
			rc = DLS_ENOMEM;
		}
		if (rc)
			return rc;
	}
	return DLS_OK;
}

int slave_compute_stretch(struct run *r, int64_t start, int64_t count, struct stretch *s)
{
	return compute_chunk(r, start, count, s);
}

double slave_chunk_deadline(struct run *r, double deadline)
{
	return cut_live(r) ? slave_cut_deadline(r->cut) : deadline;
}

/* Emulated: sleeps (aimed, see below) until the chunk's end, which a cut
 * may lower meanwhile; returns that end. */
static double sleep_to_end(struct run *r, double deadline)
{
	/* A sleep ends late by a systematic wake-up latency (about 70 us on
	 * this VM, more when the cores are busy): aimed that much earlier,
	 * chunks end on their emulated time on average; the error left is
	 * what the report shows. */
	if (cut_live(r))
		return slave_cut_sleep(r->cut, 0, &r->wake_lag);
	dls_sleep_aimed(deadline, &r->wake_lag);
	return deadline;
}

/* slave_compute and slave_compute_stretch: the real computation (kept to
 * the cut's bound, with r->cut), then, emulated, the sleep to the chunk's
 * emulated end. */
static int compute_chunk(struct run *r, int64_t start, int64_t count, struct stretch *s)
{
	int more = s && s->t0 > 0; /* the stretch goes on */
	double now = dls_now(), c0 = more ? s->t0 : now, work;
	struct blocks k = {r, start, count, more ? s->work : 0};
	/* a computation that would hold a core a while goes to the idle
	 * worker; a short one is not worth the hand-over and its wait */
	int idle =
	    r->worker &&
	    (r->real_spi > 0 ? (double)count * r->real_spi > SLAVE_IDLE_COMPUTE_S : count > 1);
	int rc;
	double real;

	if (r->cut && slave_cut_begin(r->cut, start, count, c0,
				      r->cfg->emulated ? &r->power : NULL, r->t0,
				      r->cfg->t_iter_ns * 1e-9))
		log_warn("no memory to follow chunk [%lld, +%lld): it cannot be taken back",
			 (long long)start, (long long)count);
	rc = idle ? idle_worker_call(r->worker, compute_blocks, &k) : compute_blocks(&k);
	real = dls_now() - now;
	if (rc) {
		if (r->cut)
			slave_cut_finish(r->cut);
		return rc;
	}
	if (!idle) /* its own time, undisturbed: what the next estimate needs */
		r->real_spi = r->real_spi > 0 ? (r->real_spi + real / (double)count) / 2
					      : real / (double)count;
	work = k.work;
	if (s) { /* the next iteration's deadline counts from the same start */
		s->t0 = c0;
		s->work = work;
	}
	if (r->cfg->emulated) {
		double deadline = slave_chunk_deadline(
		    r, r->t0 + emul_finish(&r->power, c0 - r->t0, work * r->cfg->t_iter_ns * 1e-9));
		double end, overrun = 0;

		if (r->tail) /* asking ahead: the next request's time is known */
			overrun = r->tail(r, deadline);
		deadline = slave_chunk_deadline(r, deadline);
		if (overrun > 0) {
			/* the request asked ahead came back after the chunk's end:
			 * the chunk ended on time, the rest was a wait */
			r->st->times.t_comwait += overrun;
			r->st->times.t_comp += deadline - now;
			return chunk_over(r, start, count);
		}
		if (dls_now() > deadline)
			r->st->times.late_chunks++;
		else
			deadline = sleep_to_end(r, deadline);
		end = dls_now();
		r->st->times.emul_error += fabs(end - deadline);
		r->st->times.emul_bias += end - deadline;
	}
	r->st->times.t_comp += dls_now() - now;
	return chunk_over(r, start, count);
}

/*
 * Opens the job's workload; with a body of the program's own (the step API)
 * a workload this program does not have is taken as the job declares it.
 */
static int open_work(struct run *r)
{
	const struct dls_job *j = &r->job;
	struct dls_param p[DLS_MAX_PARAMS + 2];
	int n = j->nparams < DLS_MAX_PARAMS ? j->nparams : DLS_MAX_PARAMS, rc;
	char v[32];

	memcpy(p, j->params, (size_t)n * sizeof(*p));
	if (r->cfg->body && !dls_workload_find(j->workload)) {
		snprintf(v, sizeof(v), "%lld", (long long)j->iterations);
		dls_params_set(p, &n, "dls.iterations", v);
		snprintf(v, sizeof(v), "%u", (unsigned)j->result_bytes);
		dls_params_set(p, &n, "dls.result_bytes", v);
	}
	rc = work_open(&r->work, j->workload, p, (size_t)n, (enum iter_order_mode)j->order, r->why,
		       r->len);
	if (!rc && r->cfg->body) {
		r->work.body = r->cfg->body;
		r->work.body_state = r->cfg->body_ctx;
	}
	return rc;
}

/* Opens r->job's workload and checks that it makes the job's loop, and
 * hands the job to the program's body: DLS_OK, or the refusal with r->why
 * (nothing left open). */
static int open_job(struct run *r)
{
	const struct dls_job *j = &r->job;
	int rc = open_work(r);

	if (rc)
		return rc;
	if (work_is_declared(&r->work) && !r->cfg->body) {
		snprintf(r->why, r->len,
			 "workload '%s' is not in this program: register it "
			 "(dls_workload_register) or compute with a body of its own",
			 j->workload);
		work_close(&r->work);
		return DLS_ENOENT;
	}
	if (r->work.loop.iterations != j->iterations ||
	    r->work.loop.result_bytes != j->result_bytes) {
		snprintf(r->why, r->len,
			 "the master's job is %lld iterations of %u octets, but workload '%s' here "
			 "makes %lld of %u from the same parameters: the master and this slave "
			 "run different builds of it",
			 (long long)j->iterations, (unsigned)j->result_bytes, j->workload,
			 (long long)r->work.loop.iterations, (unsigned)r->work.loop.result_bytes);
		work_close(&r->work);
		return DLS_EINVAL;
	}
	if (r->cfg->body_job && (rc = r->cfg->body_job(r->cfg->body_ctx, j, r->why, r->len))) {
		work_close(&r->work);
		return rc;
	}
	return DLS_OK;
}

int slave_next_job(struct run *r, const struct dls_job *job)
{
	const struct dls_job *j = &r->job;
	struct dls_job was = r->job;
	struct work old = r->work;
	int rc;

	if (strcmp(job->run_name, j->run_name) || strcmp(job->workload, j->workload) ||
	    job->order != j->order || job->collect != j->collect) {
		snprintf(r->why, r->len,
			 "the job of the next loop is of run '%s', workload '%s': this slave "
			 "computes run '%s', workload '%s', in the same order and collection",
			 job->run_name, job->workload, j->run_name, j->workload);
		return DLS_EINVAL;
	}
	r->job = *job;
	rc = open_job(r);
	if (rc) {
		r->job = was;
		r->work = old;
		return rc;
	}
	work_close(&old);
	/* the run's loop: its master numbers loop k of the run dls.loop = k */
	r->loop = r->work.loop.number;
	r->store.loop = r->loop;
	return DLS_OK;
}

int slave_setup(struct run *r)
{
	const struct dls_job *j = &r->job;
	int rc = open_job(r);

	snprintf(r->log_label, sizeof(r->log_label), "%s", dls_log_thread_label());
	/* the run's first loop, whatever dls.loop its job names (a run of one
	 * loop may compute loop K of a workload alone) */
	r->loop = 0;
	r->store.loop = 0;
	if (rc)
		return rc;
	if (!r->cfg->emulated && !r->cfg->q_override)
		host_peers_join(&r->peers, j->run_name);
	r->power.n = r->cfg->load.n;
	for (size_t k = 0; k < r->cfg->load.n; k++) {
		r->power.at[k] = r->cfg->load.at[k];
		r->power.value[k] = r->cfg->speed / r->cfg->load.value[k];
	}
	return DLS_OK;
}

void slave_teardown(struct run *r)
{
	host_peers_leave(&r->peers);
	slave_store_free(&r->store);
	work_close(&r->work);
}

/* The cores this process may run on (its affinity mask; at least 1). */
static int usable_cores(void)
{
	cpu_set_t set;
	long n = 0;

	if (!sched_getaffinity(0, sizeof(set), &set))
		n = CPU_COUNT(&set);
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)n;
}

double slave_read_runqueue(void)
{
	return runqueue_without(0);
}

/* Q_i: the host's running threads less `own` of the run's, over the cores
 * this process may use; at least 1. */
static double runqueue_without(int own)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l1, l5, l15, q;
	int running = 1, total;

	if (f) {
		if (fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5)
			running = 1;
		fclose(f);
	}
	/* procs_running counts the whole host: on c cores, c of them share no
	 * core with anyone, so a core's queue holds procs_running / c */
	q = (double)(running - own) / usable_cores();
	return q < 1 ? 1 : q;
}

/* The CPU time this thread has used, in seconds. */
static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double slave_calibrate(int ms)
{
	struct mandel_params m = {400, 200, MANDEL_DEFAULT_MAXIT};
	uint16_t col[200];
	double t0 = dls_now(), c0 = thread_cpu_s(), wall, cpu;
	uint64_t work = 0;
	int32_t x = 0;

	/* the core's own speed: its load is Q_i's, not Speed's (Chronopoulos et al. 2002), so
	 * the work counts against this thread's CPU time, not the wall clock,
	 * which other processes on the core would stretch (a wall of 10 x ms
	 * bounds it on a core too busy to give the thread its time) */
	do {
		work += mandel_column(&m, 100 + x % 200, col);
		x++;
		wall = dls_now() - t0;
		cpu = thread_cpu_s() - c0;
	} while (cpu < ms / 1000.0 && wall < 10 * ms / 1000.0);
	return (double)work / (cpu > 0 ? cpu : wall);
}

int slave_report_all(struct run *r,
		     int (*report)(void *ctx, int id, const struct dls_result *res, size_t n,
				   const struct dls_times *times, char *why, size_t len),
		     void *ctx, int id)
{
	double c0 = dls_now();
	size_t i = 0;
	int rc = DLS_OK;

	while (i < r->store.n && !rc) {
		size_t n = 0, bytes = 0;

		while (i + n < r->store.n &&
		       (n == 0 || bytes + r->store.blocks[i + n].nbytes <= DLS_MAX_RESULT_BYTES))
			bytes += r->store.blocks[i + n++].nbytes;
		struct report_call c = {r, report, ctx, id, &r->store.blocks[i], n};

		rc = slave_call(r, report_once, &c, r->why, r->len);
		i += n;
	}
	if (!rc)
		slave_store_clear(&r->store);
	r->st->times.t_collect += dls_now() - c0;
	return rc;
}

int slave_compute_reporting(struct run *r, int64_t it, struct stretch *s,
			    struct report_clock *c)
{
	int rc = slave_compute_stretch(r, it, 1, s);

	if (!rc && c->interval > 0 && dls_now() - c->last >= c->interval) {
		rc = slave_report_now(r, c);
		s->t0 = 0;
	}
	return rc;
}

int slave_report_now(struct run *r, struct report_clock *c)
{
	int rc = slave_report_all(r, c->report, c->ctx, c->id);

	c->last = dls_now();
	return rc;
}

int slave_report_unlocked(struct run *r, struct report_clock *c, pthread_mutex_t *lock)
{
	int rc;

	pthread_mutex_unlock(lock);
	rc = slave_report_now(r, c);
	pthread_mutex_lock(lock);
	return rc;
}

void slave_wait_for_work(struct run *r, pthread_cond_t *cond, pthread_mutex_t *lock)
{
	double w0 = dls_now();

	dls_cond_wait_until(cond, lock, w0 + 0.2);
	r->st->times.t_comwait += dls_now() - w0;
}
