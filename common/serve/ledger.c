/*
 * ledger.c - held ranges and delivered iterations (see ledger.h).
 */
#include "ledger.h"

#include <stdio.h>
#include <stdlib.h>

#include "dls/err.h"

int ledger_init(struct ledger *l, int64_t iterations, uint32_t result_bytes)
{
	l->state = calloc((size_t)(iterations > 0 ? iterations : 1), 1);
	l->iterations = iterations;
	l->result_bytes = result_bytes;
	l->ndelivered = 0;
	return l->state ? DLS_OK : DLS_ENOMEM;
}

void ledger_free(struct ledger *l)
{
	free(l->state);
	l->state = NULL;
}

int ledger_hold(struct ledger_held *h, int64_t start, int64_t count)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 4;
		struct ledger_held_range *v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	h->v[h->n++] = (struct ledger_held_range){start, count, count, ++h->given};
	return DLS_OK;
}

int64_t ledger_held_undelivered(const struct ledger_held *h)
{
	int64_t n = 0;

	for (size_t k = 0; k < h->n; k++)
		n += h->v[k].undelivered;
	return n;
}

void ledger_held_free(struct ledger_held *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}

int64_t ledger_left_before_newest(const struct ledger_held *h, const struct dls_result *res,
				  size_t n)
{
	const struct ledger_held_range *newest =
		h->n && h->v[h->n - 1].nth == h->given ? &h->v[h->n - 1] : NULL;
	int64_t left = ledger_held_undelivered(h) - (newest ? newest->undelivered : 0);

	for (size_t b = 0; b < n; b++)
		if (!newest || res[b].start < newest->start ||
		    res[b].start + res[b].count > newest->start + newest->count)
			left -= res[b].count;
	return left;
}

static struct ledger_held_range *find_held(const struct ledger_held *h, int64_t start, int64_t count)
{
	for (size_t k = 0; k < h->n; k++) {
		struct ledger_held_range *r = &h->v[k];

		if (start >= r->start && start + count <= r->start + r->count)
			return r;
	}
	return NULL;
}

const struct ledger_held_range *ledger_held_at(const struct ledger_held *h, int64_t i)
{
	return find_held(h, i, 1);
}

void ledger_unmark(struct ledger *l, const struct dls_result *res, size_t n)
{
	for (size_t b = 0; b < n; b++)
		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++)
			if (l->state[i] == 2)
				l->state[i] = 0;
}

int ledger_fits(const struct ledger *l, const struct dls_result *r, char *why, size_t len)
{
	if (r->count < 1 || r->start < 0 || r->start > l->iterations - r->count) {
		snprintf(why, len, "result range [%lld, +%lld) is outside the loop [0, %lld)",
			 (long long)r->start, (long long)r->count, (long long)l->iterations);
		return DLS_EINVAL;
	}
	if (r->nbytes != (size_t)r->count * l->result_bytes) {
		snprintf(why, len,
			 "result [%lld, +%lld) carries %zu octets, expected %lld "
			 "(%lld iterations x %u octets)",
			 (long long)r->start, (long long)r->count, r->nbytes,
			 (long long)r->count * l->result_bytes, (long long)r->count,
			 (unsigned)l->result_bytes);
		return DLS_EINVAL;
	}
	return DLS_OK;
}

/* Why block r of holder who cannot be accepted, or DLS_OK (nothing marked). */
static int check_block(const struct ledger *l, const struct ledger_held *h, int who,
		       const struct dls_result *r, char *why, size_t len)
{
	if (ledger_fits(l, r, why, len))
		return DLS_EINVAL;
	for (int64_t i = r->start; i < r->start + r->count; i++) {
		if (l->state[i] == 1) {
			snprintf(why, len, "iteration %lld was already delivered", (long long)i);
			return DLS_EINVAL;
		}
	}
	if (!find_held(h, r->start, r->count)) {
		snprintf(why, len, "slave %d does not hold iterations [%lld, %lld)", who,
			 (long long)r->start, (long long)(r->start + r->count));
		return DLS_EINVAL;
	}
	return DLS_OK;
}

int ledger_check(struct ledger *l, const struct ledger_held *h, int who, const struct dls_result *res,
		 size_t n, int64_t *total, char *why, size_t len)
{
	*total = 0;
	for (size_t b = 0; b < n; b++) {
		const struct dls_result *r = &res[b];
		int rc = check_block(l, h, who, r, why, len);

		if (rc) {
			ledger_unmark(l, res, b);
			return rc;
		}
		for (int64_t i = r->start; i < r->start + r->count; i++) {
			if (l->state[i] == 2) {
				snprintf(why, len, "iteration %lld appears twice in one message",
					 (long long)i);
				ledger_unmark(l, res, b + 1);
				return DLS_EINVAL;
			}
			l->state[i] = 2;
		}
		*total += r->count;
	}
	return DLS_OK;
}

void ledger_commit(struct ledger *l, struct ledger_held *h, const struct dls_result *res, size_t n)
{
	size_t kept = 0;

	for (size_t b = 0; b < n; b++) {
		struct ledger_held_range *r = find_held(h, res[b].start, res[b].count);

		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++)
			l->state[i] = 1;
		r->undelivered -= res[b].count;
		l->ndelivered += res[b].count;
	}
	for (size_t k = 0; k < h->n; k++) /* in the order given */
		if (h->v[k].undelivered > 0)
			h->v[kept++] = h->v[k];
	h->n = kept;
}

int64_t ledger_release(struct ledger *l, struct ledger_held *h,
		       int (*give)(void *ctx, int64_t start, int64_t count), void *ctx)
{
	int64_t moved = 0;

	for (size_t k = 0; k < h->n; k++) {
		const struct ledger_held_range *r = &h->v[k];
		int64_t run = -1;

		for (int64_t i = r->start; i <= r->start + r->count; i++) {
			int open = i < r->start + r->count && l->state[i] != 1;

			if (open && run < 0)
				run = i;
			if (!open && run >= 0) {
				int rc = give(ctx, run, i - run);

				if (rc)
					return -rc;
				moved += i - run;
				run = -1;
			}
		}
	}
	h->n = 0;
	return moved;
}

/* The holder's range that begins at start, or NULL. */
static struct ledger_held_range *range_at(const struct ledger_held *h, int64_t start)
{
	for (size_t k = 0; k < h->n; k++)
		if (h->v[k].start == start)
			return &h->v[k];
	return NULL;
}

int64_t ledger_held_count(const struct ledger_held *h, int64_t start)
{
	const struct ledger_held_range *r = range_at(h, start);

	return r ? r->count : 0;
}

int ledger_cut_tail(struct ledger *l, struct ledger_held *h, int64_t start, int64_t end)
{
	struct ledger_held_range *r = range_at(h, start);

	if (!r)
		return DLS_ENOENT;
	if (end <= start || end >= start + r->count)
		return DLS_EINVAL;
	for (int64_t i = end; i < start + r->count; i++)
		if (l->state[i] != 0)
			return DLS_ESTATE;
	r->undelivered -= start + r->count - end;
	r->count = end - start;
	return DLS_OK;
}
