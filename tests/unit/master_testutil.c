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
