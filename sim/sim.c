/*
 * sim.c - the simulated run mirrors the master and slave cores: every slave
 * asks at time 0; the master serves the requests pending when it is free in
 * ACPSA order (larger A_i first, then arrival, then id), one at a time,
 * overhead_s each; a reply takes latency_s to arrive, the chunk takes its
 * emulated cost (emul_finish over the slave's power schedule), and the next
 * request, carrying the results, takes latency_s to come back.  Asking
 * ahead (overlap), a slave's request leaves a lead before its chunk ends;
 * and where the master allowed depth 2 (serve_depth) and that chunk took
 * less than a round trip, the request after it leaves when the chunk ends
 * if the first one's reply is not in by then (the flat model only: an
 * hmaster allows one request at a time).  A time-stepping loop (steps > 1,
 * flat only) runs the loop again once the last result of a step is in:
 * every slave's request is then at the master (held there since the step
 * ran out), its chunk times with it, and the scheme starts the next step
 * (sched_next_step).
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "serve.h"
#include "sim_slave.h"
#include "sim_takeback.h"
#include "sim_twolevel.h"

void sim_result_free(struct sim_result *r)
{
	free(r->pe);
	free(r->step);
	free(r->timeline);
	r->pe = NULL;
	r->step = NULL;
	r->timeline = NULL;
	r->ntimeline = 0;
}

/* The master's scheme: the run's, with the master's service time per
 * request as the model knows it (auto's model queues on it). */
static struct sched_params master_params(const struct sim_config *c)
{
	struct sched_params p = c->sched;

	p.service_s = c->overhead_s + c->per_request_s;
	return p;
}

/* The books' chunks become the result's timeline (the books keep none). */
static void keep_timeline(struct tb_books *b, struct sim_result *out)
{
	out->timeline = b->v;
	out->ntimeline = b->n;
	b->v = NULL;
	b->n = b->cap = 0;
}

/* The request slave s sent at s->asked tells the master the times of its
 * chunks that had ended by then (the adaptive techniques learn from them). */
static void report_measured(struct sched *sched, struct sim_slave *s, int i)
{
	int kept = 0;

	for (int k = 0; k < s->nunreported; k++) {
		struct sim_measured *m = &s->unreported[k];

		if (m->end <= s->asked)
			sched_measure(sched, i, m->start, m->count, m->compute, m->elapsed);
		else
			s->unreported[kept++] = *m;
	}
	s->nunreported = kept;
}

/* Serves one request of slave i at the master, its reply reaching the slave
 * at `reply` (`reported`: its ACPSA report is already recorded, as for a
 * merged message).  The chunk starts once the reply is in and the slave's
 * current chunk is done; the slave's next request leaves lead_s before the
 * chunk's end (not before its start), or when the chunk before ends if that
 * one is a second request on its way (flat: the master grants depth 2), and
 * reaches its hop at the returned time, or -1 when the loop is exhausted
 * for it.  *last_end tracks the latest chunk end. */
static double serve(const struct sim_config *c, struct sched *sched, struct sim_slave *sl, int i,
		    int64_t acp, int reported, int flat, double reply, struct sim_result *out,
		    double *last_end, struct tb_books *tb, int *rc)
{
	struct dls_range ch;
	double begin, end, prev = sl[i].busy;
	/* the chunk before ended at prev: was this request still on its way,
	 * its predecessor's reply allowing a second and that chunk shorter
	 * than a round trip?  (The model's round trips do not vary, so the
	 * slave's bound of DLS_SLAVE_SECOND_SHARE fastest ones never bites.) */
	int second = c->overlap && sl[i].depth == 2 && sl[i].len < sim_round_trip(c) &&
		     sl[i].asked <= prev && prev < reply;

	report_measured(sched, &sl[i], i);
	*rc = reported ? sched_serve(sched, i, acp, &ch) : sched_next(sched, i, acp, &ch);
	if (*rc == DLS_EDONE && tb && c->takeback) { /* the end game (reply: the master's time + latency) */
		*rc = tb_take(tb, c, sl, i, reply - c->latency_s, out, &ch, &reply);
		second = 0;
		*rc = *rc == 1 ? DLS_OK : *rc == 0 ? DLS_EDONE : *rc;
	}
	begin = reply > sl[i].busy ? reply : sl[i].busy;
	out->pe[i].t_comwait += begin - sl[i].busy;
	if (*rc == DLS_EDONE) {
		*rc = DLS_OK;
		return -1;
	}
	if (*rc)
		return -1;
	end = sim_chunk_end(c, &sl[i], begin, ch.start, ch.count);
	if (tb && (*rc = tb_record(tb, i, ch.start, ch.count, reply - c->latency_s, begin, end)))
		return -1;
	out->pe[i].t_comp += end - begin;
	out->pe[i].chunks++;
	out->pe[i].iterations += ch.count;
	out->chunks++;
	if (sl[i].nunreported < 2)
		sl[i].unreported[sl[i].nunreported++] =
			(struct sim_measured){ch.start, ch.count, end - begin, end - sl[i].busy, end};
	sl[i].busy = end;
	sl[i].asked = second ? prev
		      : end - sim_slave_lead(c) > begin ? end - sim_slave_lead(c) : begin;
	sl[i].depth = flat ? serve_depth(ch.count, sched_remaining(sched), c->npes) : 1;
	sl[i].len = end - begin;
	if (end > *last_end)
		*last_end = end;
	return sl[i].asked + c->latency_s;
}

static int sim_hier(const struct sim_config *c, struct sched *sched, struct sim_slave *sl,
		    struct sim_result *out);

/* When step k began: the sum of the steps' T_p before it. */
static double step_began(const struct sim_result *out, int k)
{
	double t = 0;

	for (int j = 0; j < k; j++)
		t += out->step[j].t_p;
	return t;
}

/* The chunks of the steps before step k. */
static int64_t chunks_before(const struct sim_result *out, int k)
{
	int64_t n = 0;

	for (int j = 0; j < k; j++)
		n += out->step[j].chunks;
	return n;
}

/* Step k - 1 (from 0) ended with its last result in at `end`: closes its
 * figures, hands the scheme every chunk time not yet reported (they come
 * with the results), starts step k, and every slave's request, held at the
 * master, is served from then on. */
/* The work of loop k in seconds at power 1, with its costs in c->cost. */
static double loop_work(struct sim_config *c, int k)
{
	double work = 0;

	if (c->loop_cost)
		c->cost = c->loop_cost[k];
	for (int64_t i = 0; i < c->iterations; i++)
		work += (double)c->cost[i];
	return work * c->t_iter_s;
}

/* The scheme of loop k >= 1, as the master makes it: an adaptive technique
 * or auto goes on from what it learnt (sched_next_step) unless every loop
 * starts afresh; any other starts anew with each slave's A_i at `end`. */
static int next_scheme(const struct sim_config *c, struct sched **sched, struct sim_slave *sl,
		       double end)
{
	struct sched_params p = master_params(c);
	int64_t *acp;
	int rc;

	if (!c->fresh_loops && sched_kind_learns_across_steps(c->sched.kind))
		return sched_next_step(*sched);
	acp = calloc((size_t)c->npes, sizeof(*acp));
	if (!acp)
		return DLS_ENOMEM;
	for (int i = 0; i < c->npes; i++)
		acp[i] = sched_kind_is_weighted(c->sched.kind)
			     ? (int64_t)(sl[i].vpower * 1000 + 0.5)
			     : sim_slave_acp_at(c, &sl[i], &c->pes[i], end);
	p.iterations = c->iterations;
	p.npes = c->npes;
	p.acp = acp;
	sched_destroy(*sched);
	*sched = NULL;
	rc = sched_create(&p, sched);
	free(acp);
	return rc;
}

static int next_step(struct sim_config *c, struct sched **sched, struct sim_slave *sl,
		     struct sim_result *out, const struct emul_steps *total, int k, double end)
{
	double work;
	int rc;

	out->step[k - 1].t_p = end - step_began(out, k - 1);
	out->step[k - 1].chunks = out->chunks - chunks_before(out, k - 1);
	for (int i = 0; i < c->npes; i++) {
		sl[i].asked = INFINITY; /* every chunk time goes with the results */
		report_measured(*sched, &sl[i], i);
	}
	rc = next_scheme(c, sched, sl, end);
	if (rc)
		return rc;
	work = loop_work(c, k);
	out->step[k].t_ideal = emul_finish(total, end, work) - end;
	for (int i = 0; i < c->npes; i++) {
		sl[i].active = 1;
		sl[i].busy = sl[i].asked = end;
		sl[i].ready = end + c->latency_s; /* the last result reached the master */
		sl[i].depth = 1;
		sl[i].len = 0;
	}
	return DLS_OK;
}

/* The Speed a PE declares (V_i's numerator); its true speed emulates it. */
static double declared_of(const struct sim_pe *pe)
{
	return pe->declared > 0 ? pe->declared : pe->speed;
}

/* Each slave's emulated state at the start (V_i over the slowest
 * declared, its power over time, its first request and A_i), the
 * cluster's total power in *total.  DLS_OK or DLS_EINVAL. */
static int slaves_start(const struct sim_config *c, struct sim_slave *sl, int64_t *acp0,
			struct emul_steps *total)
{
	double min_speed = INFINITY;

	for (int i = 0; i < c->npes; i++) {
		if (!(c->pes[i].speed > 0) || !(c->pes[i].declared >= 0))
			return DLS_EINVAL;
		if (declared_of(&c->pes[i]) < min_speed)
			min_speed = declared_of(&c->pes[i]);
	}
	for (int i = 0; i < c->npes; i++) {
		const struct sim_pe *pe = &c->pes[i];

		sl[i].vpower = declared_of(pe) / min_speed; /* what the master believes */
		sl[i].power = pe->load;
		for (size_t k = 0; k < pe->load.n; k++)
			sl[i].power.value[k] = pe->speed / pe->load.value[k];
		if (emul_power_add(total, pe->speed, &pe->load))
			return DLS_EINVAL;
		sl[i].active = 1;
		sl[i].ready = c->latency_s;
		sl[i].asked = 0;
		acp0[i] = sim_slave_acp_at(c, &sl[i], pe, 0);
		if (sched_kind_is_weighted(c->sched.kind))
			acp0[i] = (int64_t)(sl[i].vpower * 1000 + 0.5);
	}
	return DLS_OK;
}

/*
 * The flat run, event by event: the master serves the requests pending
 * when it is free in ACPSA order, a slave with A_i = 0 polls again (or is
 * dismissed once nothing is left), and each loop after the first starts
 * once the last result of the one before is in.  *step is the last loop
 * run and *last_end when its last chunk ended.
 */
static int flat_events(struct sim_config *c, struct sched **sched, struct sim_slave *sl,
		       struct sim_result *out, struct emul_steps *total, struct tb_books *books,
		       int *step, double *last_end)
{
	double master_free = 0;
	int rc, active = c->npes;

	while (active > 0 || *step + 1 < out->steps) {
		double now, first = INFINITY;
		int best = -1;
		int64_t best_acp = 0;

		if (active == 0) { /* the step's last result is in: the next step */
			rc = next_step(c, sched, sl, out, total, ++*step, *last_end);
			if (rc)
				return rc;
			active = c->npes;
		}
		for (int i = 0; i < c->npes; i++)
			if (sl[i].active && sl[i].ready < first)
				first = sl[i].ready;
		now = first > master_free ? first : master_free;
		/* the requests pending now, in ACPSA order */
		for (int i = 0; i < c->npes; i++) {
			int64_t a;

			if (!sl[i].active || sl[i].ready > now)
				continue;
			a = sim_slave_acp_at(c, &sl[i], &c->pes[i], sl[i].asked);
			if (a < 1 && sched_remaining(*sched) == 0) {
				/* nothing left: the master dismisses it (master_orb.cc) */
				sl[i].active = 0;
				active--;
				continue;
			}
			if (a < 1) { /* it would not have asked: poll again */
				sl[i].ready += c->poll_s;
				sl[i].asked += c->poll_s;
				if (sl[i].asked > 86400)
					return DLS_ENOPOWER;
				continue;
			}
			if (best < 0 || sched_acpsa_before(a, sl[i].ready, best_acp, sl[best].ready)) {
				best = i;
				best_acp = a;
			}
		}
		if (best < 0)
			continue;
		master_free = now + c->overhead_s + c->per_request_s;
		sl[best].ready = serve(c, *sched, sl, best, best_acp, 0, 1, master_free + c->latency_s,
				       out, last_end, books, &rc);
		if (rc)
			return rc;
		if (sl[best].ready < 0) {
			sl[best].active = 0;
			active--;
		}
	}
	return DLS_OK;
}

/* The flat run's figures once its events are over: the take-backs' books,
 * T_p (from the first request at the master, latency_s, to the last
 * result there, last_end + latency_s), the last loop's, E, auto's
 * decisions and the timeline. */
static int flat_finish(const struct sim_config *c, const struct sched *sched,
		       struct sim_result *out, struct tb_books *books, int step, double last_end)
{
	int rc;

	out->recomputations = sched_recomputations(sched);
	out->ndecisions = sched_auto_decisions(sched, out->decisions, SIM_MAX_DECISIONS);
	if (c->takeback) { /* chunks ended sooner than served: the books say when */
		rc = tb_check_cover(books, c->iterations);
		if (rc)
			return rc;
		last_end = tb_last_end(books);
		out->takebacks = books->takebacks;
		out->taken_back = books->taken;
	}
	out->t_p = last_end;
	out->step[step].t_p = last_end - step_began(out, step);
	out->step[step].chunks = out->chunks - chunks_before(out, step);
	out->efficiency = out->t_p > 0 ? out->t_ideal / out->t_p : 0;
	keep_timeline(books, out);
	return DLS_OK;
}

int sim_run(const struct sim_config *given, struct sim_result *out)
{
	struct sim_config cc = *given, *c = &cc; /* c->cost is the current loop's */
	struct sim_slave *sl;
	struct sched *sched = NULL;
	struct sched_params p = master_params(c);
	struct emul_steps total = {0};
	struct tb_books books = {0};
	int64_t *acp0;
	double last_end = 0, work = 0;
	int rc, step = 0;

	memset(out, 0, sizeof(*out));
	if (c->npes < 1 || c->iterations < 1 || !c->cost || c->t_iter_s < 0 || c->overhead_s < 0 ||
	    c->latency_s < 0 || c->poll_s <= 0 || c->steps < 0 || (c->steps > 1 && c->hmasters > 0) ||
	    (c->takeback && (c->hmasters > 0 || c->steps > 1)))
		return DLS_EINVAL;
	out->steps = c->steps > 1 ? c->steps : 1;
	sl = calloc((size_t)c->npes, sizeof(*sl));
	acp0 = calloc((size_t)c->npes, sizeof(*acp0));
	out->pe = calloc((size_t)c->npes, sizeof(*out->pe));
	out->step = calloc((size_t)out->steps, sizeof(*out->step));
	rc = !sl || !acp0 || !out->pe || !out->step ? DLS_ENOMEM
						    : slaves_start(c, sl, acp0, &total);
	if (rc)
		goto done;
	for (int k = out->steps - 1; k >= 0; k--) /* ends with loop 0's costs */
		work += loop_work(c, k);
	out->t_ideal = emul_finish(&total, 0, work);
	work = loop_work(c, 0);
	out->step[0].t_ideal = emul_finish(&total, 0, work);
	if (c->hmasters > 0 && c->twolevel) { /* its own schedules, per level */
		rc = sim_twolevel(c, sl, out);
		out->step[0].t_p = out->t_p;
		out->step[0].chunks = out->chunks;
		goto done;
	}
	p.iterations = c->iterations;
	p.npes = c->npes;
	p.acp = acp0;
	rc = sched_create(&p, &sched);
	if (rc)
		goto done;
	if (c->hmasters > 0) {
		rc = sim_hier(c, sched, sl, out);
		if (rc)
			goto done;
		out->step[0].t_p = out->t_p;
		out->step[0].chunks = out->chunks;
		out->recomputations = sched_recomputations(sched);
		out->efficiency = out->t_p > 0 ? out->t_ideal / out->t_p : 0;
		goto done;
	}
	rc = flat_events(c, &sched, sl, out, &total, &books, &step, &last_end);
	if (!rc)
		rc = flat_finish(c, sched, out, &books, step, last_end);
done:
	tb_free(&books);
	sched_destroy(sched);
	free(sl);
	free(acp0);
	if (rc)
		sim_result_free(out);
	return rc;
}

/*
 * Relay mode: the slaves' requests reach their hmaster; an hmaster that has
 * no message in flight sends every request it holds as one message, which
 * the master serves in message order once it is free; the replies come back
 * through the hmaster.  The first message of each hmaster waits for the
 * first request of all its slaves (hmaster/relay.c).
 */
/* The hmaster that can send first (-1: none): free, with a request
 * waiting (its first message waits for every slave below), and when. */
static int next_sender(const struct sim_config *c, const struct sim_slave *sl,
		       const double *busy, const int *sent_first, double *send)
{
	int h = -1;

	*send = INFINITY;
	for (int k = 0; k < c->hmasters; k++) {
		double first = INFINITY, all = 0, t;

		for (int i = k; i < c->npes; i += c->hmasters) {
			if (!sl[i].active)
				continue;
			if (sl[i].ready < first)
				first = sl[i].ready;
			if (sl[i].ready > all)
				all = sl[i].ready;
		}
		if (first == INFINITY)
			continue;
		t = sent_first[k] ? first : all; /* the first message carries all */
		if (t < busy[k])
			t = busy[k];
		if (t < *send) {
			*send = t;
			h = k;
		}
	}
	return h;
}

/*
 * The requests hmaster h holds at `send` into batch (their A_i in acp), in
 * ACPSA order as hmaster/relay.c sends them; a slave with A_i = 0 polls
 * again, or is dismissed (*active less one) once nothing is left.  The
 * number of requests, or -1 (DLS_ENOPOWER: nobody would ever ask).
 */
static int gather(const struct sim_config *c, struct sched *sched, struct sim_slave *sl, int h,
		  double send, int64_t *acp, int *batch, int *active)
{
	int n = 0;

	for (int i = h; i < c->npes; i += c->hmasters) {
		if (!sl[i].active || sl[i].ready > send)
			continue;
		acp[i] = sim_slave_acp_at(c, &sl[i], &c->pes[i], sl[i].asked);
		if (acp[i] < 1) {
			if (sched_remaining(sched) == 0) {
				sl[i].active = 0;
				(*active)--;
			} else {
				sl[i].ready += c->poll_s;
				sl[i].asked += c->poll_s;
				if (sl[i].asked > 86400)
					return -1;
			}
			continue;
		}
		batch[n++] = i;
	}
	for (int j = 1; j < n; j++) {
		int v = batch[j], m = j;

		while (m > 0 && acp[batch[m - 1]] < acp[v]) {
			batch[m] = batch[m - 1];
			m--;
		}
		batch[m] = v;
	}
	return n;
}

static int sim_hier(const struct sim_config *c, struct sched *sched, struct sim_slave *sl,
		    struct sim_result *out)
{
	int H = c->hmasters, active = c->npes, rc = DLS_OK;
	double *busy = calloc((size_t)H, sizeof(double)); /* in-flight message returns */
	int *sent_first = calloc((size_t)H, sizeof(int));
	int *batch = malloc((size_t)c->npes * sizeof(int));
	int64_t *acp = malloc((size_t)c->npes * sizeof(int64_t)); /* of the pending request */
	double master_free = 0, last_end = 0, hop = c->latency_s;

	if (!busy || !sent_first || !batch || !acp) {
		rc = DLS_ENOMEM;
		goto out;
	}
	for (int i = 0; i < c->npes; i++)
		sl[i].ready = hop; /* at its hmaster */
	while (active > 0) {
		double send, arrive, t;
		int h = next_sender(c, sl, busy, sent_first, &send), n;

		if (h < 0)
			break;
		sent_first[h] = 1;
		n = gather(c, sched, sl, h, send, acp, batch, &active);
		if (n < 0) {
			rc = DLS_ENOPOWER;
			goto out;
		}
		if (n == 0) {
			busy[h] = send; /* nothing sendable yet */
			continue;
		}
		arrive = send + c->hm_overhead_s + hop;
		t = arrive > master_free ? arrive : master_free;
		master_free = t + c->overhead_s + c->per_request_s * n;
		/* the ACPSA rule once per merged message, then each request in turn */
		for (int j = 0; j < n; j++)
			sched_report(sched, batch[j], acp[batch[j]]);
		for (int j = 0; j < n; j++) {
			int i = batch[j];
			double back = master_free + hop + c->hm_overhead_s + hop;

			sl[i].ready =
			    serve(c, sched, sl, i, acp[i], 1, 0, back, out, &last_end, NULL, &rc);
			if (rc)
				goto out;
			if (sl[i].ready < 0) {
				sl[i].active = 0;
				active--;
			}
		}
		busy[h] = master_free + hop; /* its reply is back */
	}
	/* from the first request at the master (2 hops and an hmaster after the
	 * start) to the last result there (as long after its chunk's end) */
	out->t_p = last_end;
out:
	free(busy);
	free(sent_first);
	free(batch);
	free(acp);
	return rc;
}
