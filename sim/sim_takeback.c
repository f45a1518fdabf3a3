/*
 * sim_takeback.c - the take-back end game's model (sim_takeback.h).
 */
#include "sim_takeback.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "dls/err.h"

int tb_record(struct tb_books *b, int holder, int64_t start, int64_t count, double given,
	      double begin, double end)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;
		struct sim_chunk *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = (struct sim_chunk){holder, start, count, given, begin, end};
	return DLS_OK;
}

/* Iterations of chunk ch its holder s has finished by time t. */
static int64_t done_by(const struct sim_config *c, const struct sim_slave *s,
		       const struct sim_chunk *ch, double t)
{
	double work = 0;
	int64_t d = 0;

	if (t <= ch->begin)
		return 0;
	if (t >= ch->end)
		return ch->count;
	while (d < ch->count) {
		double w = work + (double)c->cost[ch->start + d];

		if (emul_finish(&s->power, ch->begin, w * c->t_iter_s) > t)
			break;
		work = w;
		d++;
	}
	return d;
}

/* Iterations a second that slave pe measured over its chunks ended by t (0: none). */
static double measured_rate(const struct tb_books *b, int pe, double t)
{
	double seconds = 0;
	int64_t its = 0;

	for (size_t k = 0; k < b->n; k++)
		if (b->v[k].pe == pe && b->v[k].end <= t) {
			seconds += b->v[k].end - b->v[k].begin;
			its += b->v[k].count;
		}
	return seconds > 0 ? (double)its / seconds : 0;
}

/* The victim for slave i, its holders asked at t_q: the index of the chunk
 * that ends last (by the holders' estimates, or truly), or -1; *done: the
 * iterations its holder said it had done (holders' estimates only). */
static long pick_victim(const struct tb_books *b, const struct sim_config *c,
			const struct sim_slave *sl, int i, double t_q, int64_t *done)
{
	long victim = -1;
	double latest = -1;
	int64_t d = 0;

	for (size_t k = 0; k < b->n; k++) {
		const struct sim_chunk *ch = &b->v[k];
		const struct sim_slave *h = &sl[ch->pe];
		double est;

		/* running at t_q, and its holder's latest (nothing queued after it) */
		if (ch->pe == i || ch->end <= t_q || h->busy != ch->end)
			continue;
		if (c->takeback == SIM_TAKEBACK_ORACLE) {
			est = ch->end;
		} else {
			double elapsed = t_q > ch->begin ? t_q - ch->begin : 0;

			d = done_by(c, h, ch, t_q);
			/* none done yet: ranks above every estimate, larger first */
			est = d > 0 ? (double)(ch->count - d) * elapsed / (double)d
				    : DBL_MAX / 4 + (double)ch->count;
		}
		if (est > latest) {
			latest = est;
			victim = (long)k;
			*done = d;
		}
	}
	return victim;
}

/* The holder h of chunk ch, told at t_cut, ends it at new_end instead of
 * old_end: its timeline, its measured chunk and its figures follow. */
static void shorten_holder(const struct sim_config *c, struct sim_slave *h, int hid,
			   const struct sim_chunk *ch, double old_end, int64_t taken, double t_cut,
			   double now, struct sim_result *res)
{
	double saved = old_end - ch->end, lead = sim_slave_lead(c);

	res->pe[hid].t_comp -= saved;
	res->pe[hid].iterations -= taken;
	h->busy = ch->end;
	h->len = ch->end - ch->begin;
	for (int k = 0; k < h->nunreported; k++)
		if (h->unreported[k].start == ch->start) {
			h->unreported[k].count = ch->count;
			h->unreported[k].compute -= saved;
			h->unreported[k].elapsed -= saved;
			h->unreported[k].end = ch->end;
		}
	if (h->active && h->ready > now) { /* its next request has not left yet */
		double asked = ch->end - lead;

		if (asked < t_cut)
			asked = t_cut;
		if (asked < ch->begin)
			asked = ch->begin;
		if (asked < h->asked) {
			h->asked = asked;
			h->ready = asked + c->latency_s;
		}
	}
}

int tb_take(struct tb_books *b, const struct sim_config *c, struct sim_slave *sl, int i,
	    double now, struct sim_result *res, struct dls_range *out, double *reply_at)
{
	int holders = c->takeback == SIM_TAKEBACK_HOLDERS;
	double lat = c->latency_s, t_q = now + lat, t_cut = now + (holders ? 3 : 1) * lat;
	double rate_i, rate_h, old_end;
	int64_t done = 0, keep, undone, take;
	long v = pick_victim(b, c, sl, i, t_q, &done);
	struct sim_chunk *ch;
	int h;

	if (v < 0)
		return 0;
	ch = &b->v[v];
	h = ch->pe;
	if (ch->end <= t_cut)
		return 0; /* it ends before the call reaches it */
	keep = done_by(c, &sl[h], ch, t_cut) + 1; /* and the one it is on */
	undone = keep < ch->count ? ch->count - keep : 0;
	if (c->takeback == SIM_TAKEBACK_ORACLE) {
		rate_i = emul_steps_at(&sl[i].power, t_cut);
		rate_h = emul_steps_at(&sl[h].power, t_cut);
	} else { /* the holder's rate on this chunk, as it said at t_q */
		rate_i = measured_rate(b, i, now);
		rate_h = done > 0 && t_q > ch->begin ? (double)done / (t_q - ch->begin) : 0;
		if (!(rate_i > 0) || !(rate_h > 0)) {
			rate_i = sl[i].vpower;
			rate_h = sl[h].vpower;
		}
	}
	take = (int64_t)floor((double)undone * rate_i / (rate_i + rate_h));
	if (take < 1)
		return 0;
	old_end = ch->end;
	ch->count -= take;
	ch->end = sim_chunk_end(c, &sl[h], ch->begin, ch->start, ch->count);
	shorten_holder(c, &sl[h], h, ch, old_end, take, t_cut, now, res);
	out->start = ch->start + ch->count;
	out->count = take;
	/* the holder's answer back, the master's service, the reply on its way */
	*reply_at = t_cut + 2 * lat + c->overhead_s;
	b->takebacks++;
	b->taken += take;
	return 1;
}

double tb_last_end(const struct tb_books *b)
{
	double t = 0;

	for (size_t k = 0; k < b->n; k++)
		if (b->v[k].end > t)
			t = b->v[k].end;
	return t;
}

static int by_start(const void *x, const void *y)
{
	const struct sim_chunk *a = x, *b = y;

	return (a->start > b->start) - (a->start < b->start);
}

int tb_check_cover(const struct tb_books *b, int64_t iterations)
{
	struct sim_chunk *v = malloc((b->n ? b->n : 1) * sizeof(*v));
	int64_t next = 0;
	int rc = DLS_OK;

	if (!v)
		return DLS_ENOMEM;
	for (size_t k = 0; k < b->n; k++)
		v[k] = b->v[k];
	qsort(v, b->n, sizeof(*v), by_start);
	for (size_t k = 0; k < b->n && rc == DLS_OK; k++) {
		if (v[k].start != next || v[k].count < 1)
			rc = DLS_ESTATE;
		next = v[k].start + v[k].count;
	}
	free(v);
	return rc == DLS_OK && next == iterations ? DLS_OK : DLS_ESTATE;
}

void tb_free(struct tb_books *b)
{
	free(b->v);
	b->v = NULL;
	b->n = b->cap = 0;
}
