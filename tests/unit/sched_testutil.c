#include "sched_testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tu_params(struct sched_params *p, enum sched_kind kind, int64_t iterations, int npes,
	       const int64_t *acp)
{
	sched_params_init(p);
	p->kind = kind;
	p->iterations = iterations;
	p->npes = npes;
	p->acp = acp;
}

struct sbuf {
	char *buf;
	size_t len, used;
	int pairs;
};

static int append(void *arg, int pe, const struct dls_range *c)
{
	struct sbuf *b = arg;
	int w;

	if (b->pairs)
		w = snprintf(b->buf + b->used, b->len - b->used, "%s(%d,%lld)", b->used ? " " : "",
			     pe, (long long)c->count);
	else
		w = snprintf(b->buf + b->used, b->len - b->used, "%s%lld", b->used ? " " : "",
			     (long long)c->count);
	if (w < 0 || (size_t)w >= b->len - b->used)
		return 1;
	b->used += (size_t)w;
	return 0;
}

int tu_schedule(const struct sched_params *p, const struct sched_drive_spec *d, char *buf,
		size_t len)
{
	struct sbuf b = {buf, len, 0, sched_kind_is_distributed(p->kind) || p->kind == SCHED_WF};

	buf[0] = '\0';
	return sched_drive(p, d, append, &b, 1000000);
}

int tu_function(const struct sched_params *p, char *buf, size_t len)
{
	int64_t vals[4096];
	size_t n, used = 0;
	int rc = sched_function(p, vals, 4096, &n);

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? " " : "",
					 (long long)vals[i]);
	return rc;
}

const char *tu_expand(const char *compact)
{
	static char out[8192];
	char copy[2048], *tok, *save = NULL;
	size_t used = 0;

	snprintf(copy, sizeof(copy), "%s", compact);
	out[0] = '\0';
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *x = strchr(tok, 'x');
		int reps = 1;

		if (x) {
			*x = '\0';
			reps = atoi(x + 1);
		}
		for (int r = 0; r < reps; r++)
			used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s",
						 used ? " " : "", tok);
	}
	return out;
}
