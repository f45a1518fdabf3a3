/*
 * master_verify.c - results that can be checked (see master_verify.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_hmac.h"
#include "master_internal.h"

static const char DRAW_LABEL[] = "DLS-verify-draw-1";
/* Unresolved chunks said one by one; the report counts the others. */
#define VERIFY_LOG_FIRST 3

int master_verify_init(struct verify_book *b, int nslaves)
{
	memset(b, 0, sizeof(*b));
	b->nslaves = nslaves;
	b->delivered = calloc((size_t)nslaves, sizeof(*b->delivered));
	if (b->delivered)
		return DLS_OK;
	master_verify_free(b);
	return DLS_ENOMEM;
}

static void entry_free(struct verify_entry *e)
{
	for (int k = 0; k < e->nver; k++)
		free(e->ver[k].data);
	free(e->copy);
	free(e->got);
}

/* Forgets entry k (the last one takes its place). */
static void entry_drop(struct verify_book *b, size_t k)
{
	entry_free(&b->v[k]);
	b->v[k] = b->v[--b->n];
}

void master_verify_free(struct verify_book *b)
{
	while (b->n)
		entry_drop(b, b->n - 1);
	free(b->v);
	for (int i = 0; b->delivered && i < b->nslaves; i++)
		free(b->delivered[i].v);
	free(b->delivered);
	memset(b, 0, sizeof(*b));
}

static int verifying(const struct master *m)
{
	return m->cfg.verify > 0;
}

/* The entry whose copy slave id holds and that contains [start, +count). */
static struct verify_entry *held_copy(const struct master *m, int id, int64_t start, int64_t count)
{
	for (size_t k = 0; k < m->verify.n; k++) {
		struct verify_entry *e = &m->verify.v[k];

		if (e->holder == id && start >= e->start && start + count <= e->start + e->count)
			return e;
	}
	return NULL;
}

/* Whether any iteration of [start, +count) of e's copy came already. */
static int got_any(const struct verify_entry *e, int64_t start, int64_t count)
{
	for (int64_t i = start; i < start + count; i++)
		if (e->got[i - e->start])
			return 1;
	return 0;
}

/* The entry of which block r of slave id is a copy: one whose copy id
 * holds, containing r, none of whose iterations in r came yet (a block of
 * the same iterations that came again is the ledger's: work of a liar's
 * reopened and given to id besides); NULL when r is not a copy. */
static struct verify_entry *copy_of(const struct master *m, int id, const struct dls_result *r)
{
	struct verify_entry *e = m->verify.n ? held_copy(m, id, r->start, r->count) : NULL;

	return e && !got_any(e, r->start, r->count) ? e : NULL;
}

int master_verify_is_copy(const struct master *m, int id, const struct dls_result *r)
{
	return copy_of(m, id, r) != NULL;
}

int master_verify_holds(const struct master *m, int id)
{
	for (size_t k = 0; k < m->verify.n; k++)
		if (m->verify.v[k].holder == id)
			return 1;
	return 0;
}

int master_verify_settled(const struct master *m)
{
	for (size_t k = 0; k < m->verify.n; k++)
		if (!m->verify.v[k].void_)
			return 0;
	return 1;
}

int master_verify_refuses(const struct master *m, int id, char *why)
{
	if (!m->children[id].distrusted)
		return 0;
	snprintf(why, MASTER_WHY_LEN,
		 "slave %d returned wrong results (--verify): it is no longer trusted", id);
	return 1;
}

int master_verify_split(struct master *m, int id, const struct dls_result *res, size_t n,
			struct verify_split *s)
{
	size_t p = 0, c = 0;

	memset(s, 0, sizeof(*s));
	s->plain = res;
	s->nplain = n;
	if (!verifying(m) || !master_verify_holds(m, id) || n == 0)
		return DLS_OK;
	s->mem = malloc(n * sizeof(*s->mem));
	if (!s->mem)
		return DLS_ENOMEM;
	/* as master_apply_results will take them, one after the other: a block
	 * whose iterations an earlier copy block of the message brings is the
	 * ledger's */
	for (size_t b = 0; b < n; b++) {
		int copy = copy_of(m, id, &res[b]) != NULL;

		for (size_t a = 0; copy && a < c; a++)
			copy = res[b].start >= s->mem[n - 1 - a].start + s->mem[n - 1 - a].count ||
			       s->mem[n - 1 - a].start >= res[b].start + res[b].count;
		if (copy)
			s->mem[n - 1 - c++] = res[b];
		else
			s->mem[p++] = res[b];
	}
	s->plain = s->mem;
	s->nplain = p;
	s->copies = s->mem + p;
	s->ncopies = c;
	return DLS_OK;
}

void master_verify_split_free(struct verify_split *s)
{
	free(s->mem);
	s->mem = NULL;
}

int master_verify_check(struct master *m, int id, const struct verify_split *s, char *why)
{
	const struct ledger *l = &m->results.ledger;
	int piggyback = m->cfg.collect == DLS_COLLECT_PIGGYBACK;

	/* copies of iterations not come yet, none twice (master_verify_split) */
	for (size_t b = 0; b < s->ncopies; b++)
		if (ledger_fits(l, &s->copies[b], why, MASTER_WHY_LEN))
			return DLS_EINVAL;
	/* one chunk in flight: a copy given before the newest chunk is due */
	for (size_t k = 0; piggyback && !m->children[id].serve.may_prefetch && k < m->verify.n;
	     k++) {
		const struct verify_entry *e = &m->verify.v[k];
		int64_t got = e->ngot;

		if (e->holder != id || e->nth == m->children[id].serve.held.given)
			continue;
		for (size_t b = 0; b < s->ncopies; b++)
			if (s->copies[b].start >= e->start &&
			    s->copies[b].start < e->start + e->count)
				got += s->copies[b].count;
		if (got < e->count) {
			snprintf(why, MASTER_WHY_LEN,
				 "slave %d asks again without the results of [%lld, +%lld) "
				 "(one chunk in flight)",
				 id, (long long)e->start, (long long)e->count);
			return DLS_EINVAL;
		}
	}
	return DLS_OK;
}

/* The octets the store holds of [start, +count), in iteration order
 * (malloc'd; NULL: no memory). */
static uint8_t *stored_copy(const struct master *m, int64_t start, int64_t count)
{
	const struct result_store *rs = &m->results;
	size_t rb = rs->work.loop.result_bytes;
	uint8_t *d = malloc((size_t)count * rb);

	for (int64_t i = 0; d && i < count; i++)
		memcpy(d + (size_t)i * rb,
		       rs->data + (size_t)iter_order_column(&rs->work.order, start + i) * rb, rb);
	return d;
}

/* Whether slave i may compute a copy of e: in the run, trusted, not a voter. */
static int may_vote(const struct master *m, const struct verify_entry *e, int i)
{
	if (!roster_alive(&m->roster, i) || m->children[i].distrusted ||
	    m->roster.v[i].info.state == DLS_SLAVE_DONE)
		return 0;
	for (int k = 0; k < e->nver; k++)
		for (int j = 0; j < e->ver[k].nvoters; j++)
			if (e->ver[k].voters[j] == i)
				return 0;
	return 1;
}

/* Whether some slave may still compute a copy of e. */
static int voter_left(const struct master *m, const struct verify_entry *e)
{
	int votes = 0;

	for (int k = 0; k < e->nver; k++)
		votes += e->ver[k].nvoters;
	for (int i = 0; votes < VERIFY_MAX_VOTES && i < m->roster.n; i++)
		if (may_vote(m, e, i))
			return 1;
	return 0;
}

/* The draw: whether the chunk [start, +count) of the current loop is
 * picked, by a MAC under the run's draw key read as a fraction. */
static int drawn(const struct master *m, int64_t start, int64_t count)
{
	uint8_t mac[DLS_HMAC_LEN];
	dls_hmac *h;
	uint64_t x = 0;

	if (m->cfg.verify >= 1) /* every one (x / 2^64 may round to 1) */
		return 1;
	h = dls_hmac_start(m->cfg.verify_key, sizeof(m->cfg.verify_key), DRAW_LABEL);
	dls_hmac_add_be(h, m->loop, 4);
	dls_hmac_add_be(h, (uint64_t)start, 8);
	dls_hmac_add_be(h, (uint64_t)count, 8);
	dls_hmac_end(h, mac);
	for (int k = 0; k < 8; k++)
		x = x << 8 | mac[k];
	return (double)x / 18446744073709551616.0 < m->cfg.verify;
}

static int remember_delivered(struct verify_delivered *d, int64_t start, int64_t count)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		struct dls_range *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		d->v = v;
		d->cap = cap;
	}
	d->v[d->n++] = (struct dls_range){start, count};
	return DLS_OK;
}

/* A new entry for [start, +count) of slave id's results, their octets as
 * the first version. */
static int pick(struct master *m, int id, int64_t start, int64_t count)
{
	struct verify_book *b = &m->verify;
	struct verify_entry *e;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct verify_entry *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	e = &b->v[b->n];
	memset(e, 0, sizeof(*e));
	e->start = start;
	e->count = count;
	e->origin = id;
	e->holder = -1;
	e->ver[0].data = stored_copy(m, start, count);
	e->ver[0].voters[0] = id;
	e->ver[0].nvoters = 1;
	e->nver = 1;
	if (!e->ver[0].data)
		return DLS_ENOMEM;
	b->n++;
	b->st.pieces++;
	b->st.iterations += count;
	return DLS_OK;
}

void master_verify_delivered(struct master *m, int id, const struct dls_result *r)
{
	struct verify_book *b = &m->verify;
	const struct verify_entry alone = {
	    .origin = id, .nver = 1, .ver[0] = {.voters = {id}, .nvoters = 1}};
	int rc;

	if (!verifying(m))
		return;
	rc = remember_delivered(&b->delivered[id], r->start, r->count);
	if (!rc && drawn(m, r->start, r->count)) {
		if (voter_left(m, &alone))
			rc = pick(m, id, r->start, r->count);
		else
			b->st.unverifiable++;
	}
	if (rc && !m->replaying)
		log_warn("--verify: out of memory: chunk [%lld, +%lld) of slave %d is not verified",
			 (long long)r->start, (long long)r->count, id);
}

/* The largest copy to hand out now: the pieces waiting shared by the
 * slaves that may compute them, and no more than the scheme's last chunk,
 * so that a large chunk picked is checked by several slaves at once rather
 * than by one while the others wait at the end of the loop. */
static int64_t piece_limit(const struct master *m)
{
	int64_t waiting = 0, limit;
	int slaves = 0;

	for (size_t k = 0; k < m->verify.n; k++)
		if (!m->verify.v[k].void_ && m->verify.v[k].holder < 0)
			waiting += m->verify.v[k].count;
	for (int i = 0; i < m->roster.n; i++)
		slaves += roster_alive(&m->roster, i) && !m->children[i].distrusted &&
			  m->roster.v[i].info.state != DLS_SLAVE_DONE;
	limit = slaves > 0 ? (waiting + slaves - 1) / slaves : waiting;
	if (m->last_chunk > 0 && m->last_chunk < limit)
		limit = m->last_chunk;
	return limit > 0 ? limit : 1;
}

/* Entry k, which no copy has settled yet, becomes its first `first`
 * iterations and a new entry for the rest.  DLS_OK or DLS_ENOMEM (nothing
 * changed); the entries may move. */
static int split_entry(struct master *m, size_t k, int64_t first)
{
	struct verify_entry *e = &m->verify.v[k];
	int64_t start = e->start + first, count = e->count - first;
	int rc = pick(m, e->origin, start, count);

	if (rc)
		return rc;
	m->verify.st.iterations -= count; /* picked once: counted once */
	/* the tail's octets are pick's copy of the store's; the head keeps its
	 * own buffer, of which a vote compares the first `first` iterations */
	m->verify.v[k].count = first;
	return DLS_OK;
}

int master_verify_next(struct master *m, int id, struct dls_range *c)
{
	size_t rb = m->results.work.loop.result_bytes;

	for (size_t k = 0; verifying(m) && k < m->verify.n; k++) {
		struct verify_entry *e = &m->verify.v[k];
		int64_t limit;

		if (e->void_ || e->holder >= 0 || !may_vote(m, e, id))
			continue;
		limit = piece_limit(m);
		if (e->count > limit && e->nver == 1 && split_entry(m, k, limit) == DLS_OK)
			e = &m->verify.v[k];
		free(e->copy);
		free(e->got);
		e->copy = malloc((size_t)e->count * rb);
		e->got = calloc((size_t)e->count, 1);
		if (!e->copy || !e->got)
			return 0; /* tried again at the next request */
		e->holder = id;
		e->ngot = 0;
		e->nth = m->children[id].serve.held.given + 1; /* master_give_copy counts it */
		c->start = e->start;
		c->count = e->count;
		return 1;
	}
	return 0;
}

/* Takes every iteration that slave id delivered in this loop back into the
 * open: undelivered in the ledger, requeued for the others. */
static void reopen_delivered(struct master *m, int id)
{
	struct verify_book *b = &m->verify;
	struct ledger *l = &m->results.ledger;

	for (size_t k = 0; k < b->delivered[id].n; k++) {
		const struct dls_range *r = &b->delivered[id].v[k];

		for (int64_t i = r->start; i < r->start + r->count; i++)
			if (l->state[i] == 1) {
				l->state[i] = 0;
				l->ndelivered--;
			}
		if (serve_ranges_push(&m->requeue, r->start, r->count) && !m->replaying)
			log_err("--verify: out of memory: [%lld, +%lld) of a liar cannot be "
				"computed again",
				(long long)r->start, (long long)r->count);
		b->st.recomputed += r->count;
	}
	b->delivered[id].n = 0;
}

static void settle_entries(struct master *m);

/* Slave id's copy lost to two that agree: out of the run for good, its
 * work to the others, what it delivered this loop computed again. */
static void distrust(struct master *m, int id, const struct verify_entry *e)
{
	struct dls_slave_status *info = &m->roster.v[id].info;
	int64_t moved, delivered = 0;

	if (m->children[id].distrusted)
		return;
	for (size_t k = 0; k < m->verify.delivered[id].n; k++)
		delivered += m->verify.delivered[id].v[k].count;
	m->children[id].distrusted = 1;
	info->distrusted = 1;
	m->verify.st.liars++;
	if (!m->replaying && delivered)
		log_warn("--verify: slave %d '%s' returned wrong results for [%lld, +%lld): two "
			 "other copies agree; it is no longer trusted, and the %lld iterations it "
			 "delivered in this loop are computed again",
			 id, info->name, (long long)e->start, (long long)e->count,
			 (long long)delivered);
	else if (!m->replaying)
		log_warn("--verify: slave %d '%s' returned wrong results for [%lld, +%lld): two "
			 "other copies agree; it is no longer trusted (it had delivered no results "
			 "of this loop: nothing to compute again)",
			 id, info->name, (long long)e->start, (long long)e->count);
	info->state = DLS_SLAVE_LOST;
	moved = serve_release(&m->results.ledger, &m->children[id].serve, id, &m->requeue);
	m->requeued_total += moved;
	reopen_delivered(m, id);
	for (size_t k = m->verify.n; k-- > 0;) {
		struct verify_entry *o = &m->verify.v[k];

		if (o->origin == id && !o->void_) { /* its chunk is computed again anyway */
			m->verify.st.of_liars++;
			o->void_ = 1;
		}
		if (o->holder == id)
			o->holder = -1;
		for (int v = 0; v < o->nver; v++)
			for (int j = 0; j < o->ver[v].nvoters; j++)
				if (o->ver[v].voters[j] == id)
					o->ver[v].voters[j--] =
					    o->ver[v].voters[--o->ver[v].nvoters];
	}
	pthread_cond_broadcast(&m->cond);
}

/* Entry k got a copy: settled when two versions agree (the losers are
 * liars), given up when no slave is left to settle it; else it waits for
 * another copy.  Returns whether entry k was dropped. */
static int judge(struct master *m, size_t k)
{
	struct verify_entry *e = &m->verify.v[k];
	int win = -1, liars[VERIFY_MAX_VOTES * VERIFY_MAX_VOTES], nliars = 0;
	struct verify_entry copy;

	if (e->void_) { /* no copy is held any more */
		entry_drop(&m->verify, k);
		return 1;
	}
	for (int v = 0; v < e->nver; v++)
		if (e->ver[v].nvoters >= 2)
			win = v;
	if (win < 0) {
		if (voter_left(m, e) || e->holder >= 0)
			return 0;
		if (e->nver == 1) { /* no copy came, and no slave is left to make one */
			m->verify.st.unverifiable++;
			entry_drop(&m->verify, k);
			return 1;
		}
		/* the first few said here; the report counts them all */
		if (m->verify.st.unresolved++ < VERIFY_LOG_FIRST && !m->replaying)
			log_err(
			    "--verify: [%lld, +%lld) of slave %d: %d copies, no two agree, and "
			    "no slave is left to compute another; its results stand unverified%s",
			    (long long)e->start, (long long)e->count, e->origin, e->nver,
			    m->verify.st.unresolved == VERIFY_LOG_FIRST
				? " (the report counts any more)"
				: "");
		entry_drop(&m->verify, k);
		return 1;
	}
	if (e->nver == 1)
		m->verify.st.agreed++;
	else
		m->verify.st.disputed++;
	for (int v = 0; v < e->nver; v++)
		for (int j = 0; v != win && j < e->ver[v].nvoters; j++)
			liars[nliars++] = e->ver[v].voters[j];
	copy = *e; /* distrust may reorder the entries */
	memset(e, 0, sizeof(*e));
	e->holder = -1;
	e->origin = -1;
	entry_drop(&m->verify, k);
	for (int j = 0; j < nliars; j++)
		distrust(m, liars[j], &copy);
	entry_free(&copy);
	return 1;
}

/* A complete copy of e (bytes octets) from its holder: a vote for the
 * version it equals, or a new version. */
static void vote(struct verify_entry *e, size_t bytes)
{
	int v;

	for (v = 0; v < e->nver; v++)
		if (!memcmp(e->ver[v].data, e->copy, bytes))
			break;
	if (v == e->nver) {
		e->ver[v].data = e->copy;
		e->ver[v].nvoters = 0;
		e->nver++;
		e->copy = NULL;
	}
	e->ver[v].voters[e->ver[v].nvoters++] = e->holder;
	e->holder = -1;
	free(e->got);
	e->got = NULL;
}

int master_verify_take(struct master *m, int id, const struct dls_result *r)
{
	size_t rb = m->results.work.loop.result_bytes;
	struct verify_entry *e = copy_of(m, id, r);

	if (!e)
		return 0;
	memcpy(e->copy + (size_t)(r->start - e->start) * rb, r->data, (size_t)r->count * rb);
	memset(e->got + (r->start - e->start), 1, (size_t)r->count);
	e->ngot += r->count;
	m->verify.st.copied += r->count;
	if (e->ngot < e->count)
		return 1;
	m->verify.st.copies++;
	if (e->void_)
		e->holder = -1; /* judge drops it */
	else
		vote(e, (size_t)e->count * rb);
	settle_entries(m);
	return 1;
}

/* Judges every entry that is not waiting for a copy (a judgement may
 * drop others: it starts again after each); the loop may end. */
static void settle_entries(struct master *m)
{
	size_t k = 0;

	while (k < m->verify.n)
		k = m->verify.v[k].holder < 0 && judge(m, k) ? 0 : k + 1;
}

void master_verify_release(struct master *m, int id)
{
	if (!verifying(m))
		return;
	for (size_t k = 0; k < m->verify.n; k++)
		if (m->verify.v[k].holder == id)
			m->verify.v[k].holder = -1;
	settle_entries(m);
}

void master_verify_new_loop(struct master *m)
{
	for (int i = 0; i < m->verify.nslaves; i++)
		m->verify.delivered[i].n = 0;
	/* copies of a liar's chunks still held: the loop's results filter
	 * their late delivery (current_loop_results) */
	while (m->verify.n)
		entry_drop(&m->verify, m->verify.n - 1);
}
