/*
 * master_testutil.c - see master_testutil.h.
 */
#include "master_testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/workload.h"
#include "mandel.h"

void tu_master_config(struct master_config *c, enum sched_kind kind, int nslaves, int32_t width,
		      int32_t height, int timeout_ms)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->run_name, "t");
	strcpy(c->workload, "mandelbrot");
	sched_params_init(&c->sched);
	c->sched.kind = kind;
	c->nslaves = nslaves;
	tu_mandel_params(c->params, &c->nparams, width, height, 256);
	c->register_timeout_ms = timeout_ms;
	c->start_timeout_ms = timeout_ms;
	c->wait_ms = 1;
}

struct dls_request tu_request(struct master *m, int id, uint32_t seq, int64_t acp,
			      const struct dls_result *res, size_t n)
{
	struct dls_request r;

	memset(&r, 0, sizeof(r));
	r.slave_id = id;
	r.key = m ? master_child_key(m, id) : 0;
	r.seq = seq;
	r.acp = acp;
	r.results = res;
	r.nresults = n;
	return r;
}

void tu_mandel_params(struct dls_param *p, int *n, int32_t width, int32_t height, int32_t maxit)
{
	char v[16];

	*n = 0;
	snprintf(v, sizeof(v), "%d", (int)width);
	dls_params_set(p, n, "width", v);
	snprintf(v, sizeof(v), "%d", (int)height);
	dls_params_set(p, n, "height", v);
	snprintf(v, sizeof(v), "%d", (int)maxit);
	dls_params_set(p, n, "maxit", v);
}

void tu_mandel_job(struct dls_job *job, int32_t width, int32_t height, int32_t maxit)
{
	tu_mandel_params(job->params, &job->nparams, width, height, maxit);
	job->version = DLS_PROTOCOL_VERSION;
	snprintf(job->workload, sizeof(job->workload), "mandelbrot");
	job->iterations = width;
	job->result_bytes = (uint32_t)(2 * height);
}

uint16_t *tu_mandel_counts(int32_t width, int32_t height, int32_t maxit, int64_t start,
			   int64_t count)
{
	struct mandel_params mp = {width, height, maxit};
	uint16_t *c = malloc((size_t)(count ? count : 1) * (size_t)height * sizeof(*c));

	for (int64_t i = 0; c && i < count; i++)
		mandel_column(&mp, (int32_t)(start + i), c + i * height);
	return c;
}

struct dls_result tu_counts(int64_t start, int64_t count, const uint16_t *counts, size_t ncounts)
{
	return (struct dls_result){start, count, counts, ncounts * sizeof(uint16_t), 0};
}

void tu_set_maxit(struct master_config *c, int32_t maxit)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", (int)maxit);
	dls_params_set(c->params, &c->nparams, "maxit", v);
}

static int p_register(void *ctx, const char *const *names, const double *speeds, size_t n,
		      int *ids, uint64_t *keys, double *vp, struct dls_job *job, char *why,
		      size_t len)
{
	(void)len;
	master_job(ctx, job); /* what the servant sends */
	return master_register_group(ctx, 0, names, speeds, n, ids, keys, vp, why);
}

static int p_request(void *ctx, const struct dls_request *reqs, size_t n, struct dls_reply *out,
		     char *why, size_t len)
{
	(void)len;
	return master_request_group(ctx, reqs, n, out, why);
}

static int p_submit(void *ctx, int id, uint64_t key, const struct dls_result *res, size_t n,
		    char *why, size_t len)
{
	(void)len;
	return master_submit(ctx, id, key, res, n, why);
}

/* As the master's servant: the capability first, then the loss. */
static int p_lost(void *ctx, int id, uint64_t key, const char *cause, char *why, size_t len)
{
	(void)len;
	if (master_check_caller(ctx, id, key, why))
		return DLS_EINVAL;
	return master_slave_lost(ctx, id, cause);
}

static int p_register_cluster(void *ctx, const double *speeds, size_t n, int *id, uint64_t *key,
			      double *vp, struct dls_job *job, char *why, size_t len)
{
	(void)len;
	master_job(ctx, job); /* what the servant sends */
	return master_register_cluster(ctx, 0, "h", speeds, n, id, key, vp, why);
}

static int p_request_one(void *ctx, const struct dls_request *req, struct dls_reply *out,
			 char *why, size_t len)
{
	(void)len;
	return master_request(ctx, req, out, why);
}

static int p_rejoin(void *ctx, int slave_id, uint64_t key, double *vpower, struct dls_job *job,
		    char *why, size_t len)
{
	int rc = master_rejoin(ctx, slave_id, key, vpower, why);

	(void)len;
	if (!rc)
		master_job(ctx, job);
	return rc;
}

static int p_reach(void *ctx, int timeout_ms, char *why, size_t len)
{
	(void)timeout_ms;
	if (ctx)
		return DLS_OK;
	snprintf(why, len, "no master");
	return DLS_EREMOTE;
}

struct hmaster_parent tu_master_parent(struct master *m)
{
	struct hmaster_parent ops = {m,		 p_register,	     p_request,
				     p_submit,	 p_lost,	     p_register_cluster,
				     p_request_one, p_rejoin, p_reach};

	return ops;
}
