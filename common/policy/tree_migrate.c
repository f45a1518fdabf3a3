/*
 * tree_migrate.c - the amount a demand moves (see tree_migrate.h).
 */
#include "tree_migrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dls/err.h"

int64_t tree_migrate_count(enum tree_gamma g, double tau_sender, double tau_receiver, int64_t r)
{
	double x;
	int64_t n;

	if (r <= 0)
		return 0;
	switch (g) {
	case TREE_GAMMA_PROPORTIONAL:
		x = tau_receiver * (double)r / (tau_sender + tau_receiver);
		break;
	case TREE_GAMMA_RATIO:
		x = tau_sender * (double)r / tau_receiver;
		break;
	default: /* half: exact in integers */
		return (r + 1) / 2;
	}
	if (x != x) /* throughputs that are no numbers: half */
		return (r + 1) / 2;
	if (x >= (double)r)
		return r;
	/* ceil, forgiving the last bit of rounding: 4/5 of 45 is 36, not 37 */
	n = (int64_t)ceil(x - 1e-9 * (x > 1 ? x : 1));
	if (n < 1)
		n = 1;
	return n < r ? n : r;
}

int tree_migrate_units_count(struct tree_unit **units, size_t *n, int64_t size)
{
	struct tree_unit *u = *units;
	size_t k = 0;

	while (k < *n && u[k].size < size)
		k++;
	if (k < *n && u[k].size == size) {
		u[k].count++;
		return DLS_OK;
	}
	u = realloc(u, (*n + 1) * sizeof(*u));
	if (!u)
		return DLS_ENOMEM;
	memmove(u + k + 1, u + k, (*n - k) * sizeof(*u));
	u[k] = (struct tree_unit){size, 1};
	*units = u;
	(*n)++;
	return DLS_OK;
}

const char *tree_migrate_gamma_name(enum tree_gamma g)
{
	static const char *const names[] = {"half", "proportional", "ratio"};

	return (unsigned)g < 3 ? names[g] : "?";
}

int tree_migrate_gamma_parse(const char *name, enum tree_gamma *out)
{
	for (int g = 0; g < 3; g++)
		if (!strcasecmp(name, tree_migrate_gamma_name((enum tree_gamma)g))) {
			*out = (enum tree_gamma)g;
			return DLS_OK;
		}
	return DLS_ENOENT;
}

int tree_migrate_range_ok(int64_t start, int64_t count, int64_t stride, int64_t iterations)
{
	if (count < 1 || stride < 1 || start < 0 || start >= iterations)
		return 0;
	/* the last one, start + (count - 1) * stride, without overflowing */
	return count - 1 <= (iterations - 1 - start) / stride;
}
