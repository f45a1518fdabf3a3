/*
 * master_testutil.c - see master_testutil.h.
 */
#include "master_testutil.h"

#include <string.h>

void tu_master_config(struct master_config *c, enum sched_kind kind, int nslaves, int32_t width,
		      int32_t height, int timeout_ms)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->run_name, "t");
	strcpy(c->workload, "mandelbrot");
	sched_params_init(&c->sched);
	c->sched.kind = kind;
	c->nslaves = nslaves;
	c->width = width;
	c->height = height;
	c->maxit = 256;
	c->register_timeout_ms = timeout_ms;
	c->start_timeout_ms = timeout_ms;
	c->wait_ms = 1;
}

struct dls_request tu_request(int id, uint32_t seq, int64_t acp, const struct dls_result *res,
			      size_t n)
{
	struct dls_request r;

	memset(&r, 0, sizeof(r));
	r.slave_id = id;
	r.seq = seq;
	r.acp = acp;
	r.results = res;
	r.nresults = n;
	return r;
}
