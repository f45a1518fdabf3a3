/*
 * Bitonic construction (Kim and Purtilo 1996 section 3): sort ascending, pair the slowest
 * with the fastest, the second slowest with the second fastest, ..., and
 * repeat on the clusters until one remains.  "Faster" is Def. 3.3: larger
 * throughput, or equal throughput and more balanced (smaller B).  An odd
 * level carries its median up unpaired (docs/schemes.md 7.20).
 */
#include "tree_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"

struct build {
	struct tree_plan *t;
	double *bnum, *bden; /* balance ratio B = bnum / bden (0/1 for a terminal) */
};

/* Ascending key (tau, -B, creation order) of docs/schemes.md 6.1. */
static int slower(const struct build *b, int x, int y)
{
	const struct tree_node *nx = &b->t->nodes[x], *ny = &b->t->nodes[y];
	double lx, ly;

	if (nx->tau != ny->tau)
		return nx->tau < ny->tau;
	/* less balanced (larger B) counts as slower; compare without dividing */
	lx = b->bnum[x] * b->bden[y];
	ly = b->bnum[y] * b->bden[x];
	if (lx != ly)
		return lx > ly;
	return x < y; /* node indices follow creation order */
}

static void sort_level(const struct build *b, int *level, int n)
{
	for (int i = 1; i < n; i++) {
		int v = level[i], j = i;

		while (j > 0 && slower(b, v, level[j - 1])) {
			level[j] = level[j - 1];
			j--;
		}
		level[j] = v;
	}
}

static int rightmost(const struct tree_plan *t, int n)
{
	while (t->nodes[n].right >= 0)
		n = t->nodes[n].right;
	return n;
}

/* In-order walk: leaves give the chain; a cluster gives the link between
 * the rightmost terminal of v and the leftmost of w (Algorithm 3.1), which
 * always joins two chain neighbours, at the cluster's height. */
static void walk(struct tree_plan *t, int n, int *pos, int *term_pos)
{
	const struct tree_node *nd = &t->nodes[n];

	if (nd->left < 0) {
		term_pos[n] = *pos;
		t->chain[(*pos)++] = nd->pe;
		return;
	}
	walk(t, nd->left, pos, term_pos);
	walk(t, nd->right, pos, term_pos);
	t->link_level[term_pos[rightmost(t, nd->left)]] = nd->height;
}

void tree_plan_destroy(struct tree_plan *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->chain);
	free(t->link_level);
	free(t);
}

int tree_plan_build(const double *tau, int npes, struct tree_plan **out)
{
	struct build b = {0};
	struct tree_plan *t;
	int *level = NULL, *next = NULL, *term_pos = NULL, n, pos = 0, rc = DLS_ENOMEM;

	*out = NULL;
	if (npes < 1 || npes > TREE_MAX_PES)
		return DLS_EINVAL;
	for (int i = 0; i < npes; i++)
		if (!isfinite(tau[i]) || tau[i] <= 0)
			return DLS_EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return DLS_ENOMEM;
	b.t = t;
	t->npes = npes;
	t->nodes = calloc(2 * (size_t)npes, sizeof(*t->nodes));
	t->chain = calloc((size_t)npes, sizeof(*t->chain));
	t->link_level = calloc((size_t)npes, sizeof(*t->link_level));
	b.bnum = calloc(2 * (size_t)npes, sizeof(double));
	b.bden = calloc(2 * (size_t)npes, sizeof(double));
	level = calloc((size_t)npes, sizeof(int));
	next = calloc((size_t)npes, sizeof(int));
	term_pos = calloc(2 * (size_t)npes, sizeof(int));
	if (!t->nodes || !t->chain || !t->link_level || !b.bnum || !b.bden || !level || !next ||
	    !term_pos)
		goto out;
	for (int i = 0; i < npes; i++) {
		t->nodes[i] = (struct tree_node){-1, -1, i, 0, tau[i]};
		b.bnum[i] = 0;
		b.bden[i] = 1;
		level[i] = i;
	}
	t->nnodes = npes;
	n = npes;
	while (n > 1) {
		int m = 0;

		sort_level(&b, level, n);
		for (int k = 0; k < n / 2; k++) {
			int v = level[k], w = level[n - 1 - k], c = t->nnodes++;
			struct tree_node *nv = &t->nodes[v], *nw = &t->nodes[w];

			t->nodes[c] = (struct tree_node){
				v, w, -1, 1 + (nv->height > nw->height ? nv->height : nw->height),
				nv->tau + nw->tau};
			b.bnum[c] = nw->tau - nv->tau;
			b.bden[c] = nw->tau + nv->tau;
			next[m++] = c;
		}
		if (n % 2)
			next[m++] = level[n / 2];
		memcpy(level, next, (size_t)m * sizeof(int));
		n = m;
	}
	t->root = level[0];
	walk(t, t->root, &pos, term_pos);
	*out = t;
	t = NULL;
	rc = DLS_OK;
out:
	tree_plan_destroy(t);
	free(b.bnum);
	free(b.bden);
	free(level);
	free(next);
	free(term_pos);
	return rc;
}

/* Chain positions ordered by the PE's tau, fastest first, ties rightmost first. */
static void fastest_first(const struct tree_plan *t, const double *tau, int *order)
{
	for (int i = 0; i < t->npes; i++) {
		int k = t->npes - 1 - i, j = i; /* start from the right */

		while (j > 0 && tau[t->chain[order[j - 1]]] < tau[t->chain[k]]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = k;
	}
}

int tree_plan_allocate(const struct tree_plan *t, const double *tau, int64_t iterations,
		       enum tree_alloc mode, int64_t *start, int64_t *count)
{
	int p = t->npes;
	int64_t given = 0, at = 0;

	if (iterations < 1)
		return DLS_EINVAL;
	if (mode == TREE_ALLOC_ROUND_ROBIN) {
		for (int k = 0; k < p; k++) {
			int pe = t->chain[k];

			start[pe] = k < iterations ? k : -1;
			count[pe] = iterations / p + (k < iterations % p);
		}
		return DLS_OK;
	}
	if (mode != TREE_ALLOC_EQUAL && mode != TREE_ALLOC_PROPORTIONAL)
		return DLS_EINVAL;
	if (mode == TREE_ALLOC_EQUAL) {
		for (int k = 0; k < p; k++)
			count[t->chain[k]] = iterations / p + (k >= p - iterations % p);
	} else {
		long double sum = 0;
		int *order = malloc((size_t)p * sizeof(*order));

		if (!order)
			return DLS_ENOMEM;
		for (int i = 0; i < p; i++)
			sum += tau[i];
		for (int i = 0; i < p; i++) {
			count[i] = (int64_t)floorl((long double)tau[i] * iterations / sum);
			given += count[i];
		}
		/* Leftovers one each to the fastest PEs, ties to the rightmost. */
		fastest_first(t, tau, order);
		for (int i = 0; given < iterations; i = (i + 1) % p, given++)
			count[t->chain[order[i]]]++;
		for (int i = 0; given > iterations; i = (i + 1) % p)
			if (count[t->chain[order[p - 1 - i]]] > 0) {
				count[t->chain[order[p - 1 - i]]]--;
				given--;
			}
		free(order);
	}
	for (int k = 0; k < p; k++) {
		start[t->chain[k]] = at;
		at += count[t->chain[k]];
	}
	return DLS_OK;
}

static int format_node(const struct tree_plan *t, int n, char *buf, size_t len, size_t *used)
{
	const struct tree_node *nd = &t->nodes[n];
	int w;

	if (nd->left < 0) {
		w = snprintf(buf + *used, len - *used, "%d", nd->pe);
		if (w < 0 || (size_t)w >= len - *used)
			return DLS_EOVERFLOW;
		*used += (size_t)w;
		return DLS_OK;
	}
	if (*used + 1 >= len)
		return DLS_EOVERFLOW;
	buf[(*used)++] = '(';
	if (format_node(t, nd->left, buf, len, used))
		return DLS_EOVERFLOW;
	if (*used + 1 >= len)
		return DLS_EOVERFLOW;
	buf[(*used)++] = ',';
	if (format_node(t, nd->right, buf, len, used))
		return DLS_EOVERFLOW;
	if (*used + 1 >= len)
		return DLS_EOVERFLOW;
	buf[(*used)++] = ')';
	buf[*used] = '\0';
	return DLS_OK;
}

int tree_plan_format(const struct tree_plan *t, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return DLS_EOVERFLOW;
	buf[0] = '\0';
	return format_node(t, t->root, buf, len, &used);
}

const char *tree_plan_alloc_name(enum tree_alloc a)
{
	static const char *const names[] = {"equal", "proportional", "round-robin"};

	return (unsigned)a < 3 ? names[a] : "?";
}

int tree_plan_alloc_parse(const char *name, enum tree_alloc *out)
{
	for (int a = 0; a < 3; a++)
		if (!strcmp(name, tree_plan_alloc_name((enum tree_alloc)a))) {
			*out = (enum tree_alloc)a;
			return DLS_OK;
		}
	return DLS_ENOENT;
}
