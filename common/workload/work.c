/*
 * work.c - an opened workload (see work.h).
 */
#include "work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "npy_file.h"

/* A workload this process does not have: its loop only, declared by the
 * job's dls.* parameters; nothing here can compute it. */
static int no_body(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		   char *why, size_t len)
{
	(void)first;
	(void)count;
	(void)out;
	(void)cost;
	snprintf(why, len, "workload '%s' is not in this program (dls_workload_register)",
		 (const char *)state);
	return DLS_ENOENT;
}

static const struct dls_workload declared = {.name = "", .body = no_body};

/*
 * Splits the parameters: the reserved dls.iterations, dls.result_bytes and
 * dls.dtype into *l (fields left 0 / "" when absent), the rest into own[].
 */
static int reserved(const struct dls_param *params, size_t n, struct dls_loop *l,
		    struct dls_param *own, size_t *nown, char *why, size_t len)
{
	static const char *const names[] = {"dls.iterations", "dls.result_bytes", "dls.dtype",
					    "dls.loop", NULL};
	int64_t it = 0, rb = 0;

	*nown = 0;
	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < n; i++) {
		if (strncmp(params[i].name, "dls.", 4)) {
			own[(*nown)++] = params[i];
			continue;
		}
		if (dls_params_known(&params[i], 1, names, why, len))
			return DLS_EINVAL;
		if (!strcmp(params[i].name, "dls.dtype")) {
			if (!npy_dtype_size(params[i].value) || strlen(params[i].value) >= sizeof(l->dtype)) {
				snprintf(why, len,
					 "parameter dls.dtype: '%s' is not a numpy type such as <f8",
					 params[i].value);
				return DLS_EINVAL;
			}
			snprintf(l->dtype, sizeof(l->dtype), "%s", params[i].value);
		}
	}
	if (dls_param_int(params, n, "dls.iterations", 1, INT64_MAX / 2, &it, why, len) ||
	    dls_param_int(params, n, "dls.result_bytes", 1, DLS_MAX_RESULT_BYTES, &rb, why, len) ||
	    work_params_loop_number(params, n, &l->number, why, len))
		return DLS_EINVAL;
	l->iterations = it;
	l->result_bytes = (uint32_t)rb;
	return DLS_OK;
}

/* The declared loop must be the one the workload describes. */
static int same_loop(const char *name, const struct dls_loop *d, const struct dls_loop *l,
		     char *why, size_t len)
{
	if ((!d->iterations || d->iterations == l->iterations) &&
	    (!d->result_bytes || d->result_bytes == l->result_bytes) &&
	    (!d->dtype[0] || !strcmp(d->dtype, l->dtype)))
		return DLS_OK;
	snprintf(why, len,
		 "the parameters declare %lld iterations of %u octets of '%s', but workload '%s' "
		 "here makes %lld of %u of '%s'",
		 (long long)d->iterations, (unsigned)d->result_bytes, d->dtype, name,
		 (long long)l->iterations, (unsigned)l->result_bytes, l->dtype);
	return DLS_EINVAL;
}

int work_open(struct work *wk, const char *name, const struct dls_param *params, size_t n,
	      enum iter_order_mode order, char *why, size_t len)
{
	struct dls_loop *l = &wk->loop, decl;
	struct dls_param own[DLS_MAX_PARAMS];
	size_t nown, vsize;
	int rc;

	memset(wk, 0, sizeof(*wk));
	if (n > DLS_MAX_PARAMS) {
		snprintf(why, len, "%zu parameters: %d at most", n, DLS_MAX_PARAMS);
		return DLS_EINVAL;
	}
	rc = reserved(params, n, &decl, own, &nown, why, len);
	if (rc)
		return rc;
	wk->w = dls_workload_find(name);
	if (!wk->w && decl.iterations && decl.result_bytes) {
		wk->w = &declared;
		wk->state = wk->name;
		*l = decl;
		if (!l->dtype[0])
			snprintf(l->dtype, sizeof(l->dtype), "|u1");
	} else if (!wk->w) {
		snprintf(why, len,
			 "unknown workload '%s' (known: %s; another is declared by "
			 "dls.iterations and dls.result_bytes)",
			 name, dls_workload_names());
		return DLS_ENOENT;
	} else {
		l->number = decl.number;
		rc = wk->w->open(wk->w->user, own, nown, l, &wk->state, why, len);
		l->number = decl.number;
		if (!rc && same_loop(name, &decl, l, why, len)) {
			work_close(wk);
			return DLS_EINVAL;
		}
		if (rc)
			return rc;
	}
	snprintf(wk->name, sizeof(wk->name), "%s", name);
	vsize = npy_dtype_size(l->dtype);
	if (l->iterations < 1 || l->result_bytes < 1 || l->result_bytes > DLS_MAX_RESULT_BYTES ||
	    !vsize || l->result_bytes % vsize) {
		snprintf(why, len,
			 "workload '%s' describes a loop of %lld iterations of %u octets of '%s': "
			 "it needs >= 1 iterations of 1..%d octets, a whole number of values",
			 name, (long long)l->iterations, (unsigned)l->result_bytes, l->dtype,
			 DLS_MAX_RESULT_BYTES);
		work_close(wk);
		return DLS_EINVAL;
	}
	iter_order_init(&wk->order, order, l->iterations);
	wk->body = wk->w->body;
	wk->body_state = wk->state;
	return DLS_OK;
}

/* Where params (n of them) hold the reserved dls.loop, or -1. */
static int loop_at(const struct dls_param *params, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(params[i].name, "dls.loop"))
			return i;
	return -1;
}

int work_params_loop_number(const struct dls_param *params, size_t n, uint32_t *number,
			    char *why, size_t len)
{
	int64_t v = 0;

	if (dls_param_int(params, n, "dls.loop", 0, WORK_MAX_LOOPS - 1, &v, why, len))
		return DLS_EINVAL;
	*number = (uint32_t)v;
	return DLS_OK;
}

const struct dls_param *work_params_loop(const struct dls_param *params, int n)
{
	int i = loop_at(params, n);

	return i < 0 ? NULL : &params[i];
}

int work_params_set_loop(struct dls_param *params, int *n, uint32_t number)
{
	char v[16];
	int i;

	if (number == 0) { /* drop it: loop 0 is the job as given */
		i = loop_at(params, *n);
		if (i >= 0) {
			memmove(&params[i], &params[i + 1], (size_t)(*n - i - 1) * sizeof(*params));
			(*n)--;
		}
		return DLS_OK;
	}
	snprintf(v, sizeof(v), "%u", (unsigned)number);
	return dls_params_set(params, n, "dls.loop", v) ? DLS_ENOMEM : DLS_OK;
}

int work_is_declared(const struct work *wk)
{
	return wk->w == &declared;
}

void work_close(struct work *wk)
{
	if (wk->w && wk->w->close && wk->state && wk->w != &declared)
		wk->w->close(wk->state);
	memset(wk, 0, sizeof(*wk));
}

void work_describe(const struct work *wk, const char *name, const struct dls_param *params,
		   size_t n, struct dls_job *job)
{
	job->version = DLS_PROTOCOL_VERSION;
	snprintf(job->workload, sizeof(job->workload), "%s", name);
	job->nparams = (int)(n < DLS_MAX_PARAMS ? n : DLS_MAX_PARAMS);
	memcpy(job->params, params, (size_t)job->nparams * sizeof(*params));
	job->iterations = wk->loop.iterations;
	job->result_bytes = wk->loop.result_bytes;
	job->order = wk->order.mode;
}

int work_compute(const struct work *wk, int64_t start, int64_t count, void *out, uint64_t *cost,
		 char *why, size_t len)
{
	uint8_t *o = out;
	int64_t i = start;

	while (i < start + count) {
		int64_t x = iter_order_column(&wk->order, i), run = 1;
		int rc;

		while (i + run < start + count && iter_order_column(&wk->order, i + run) == x + run)
			run++;
		rc = wk->body(wk->body_state, x, run, o, cost, why, len);
		if (rc)
			return rc;
		o += (size_t)run * wk->loop.result_bytes;
		i += run;
	}
	return DLS_OK;
}

int work_sequential(const struct work *wk, uint8_t *out, uint64_t *cost, char *why, size_t len)
{
	size_t rb = wk->loop.result_bytes;
	uint8_t *scratch = out ? NULL : malloc(rb);
	int rc = DLS_OK;

	if (!out && !scratch) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	for (int64_t x = 0; !rc && x < wk->loop.iterations; x++) {
		cost[x] = 0;
		rc = wk->body(wk->body_state, x, 1, out ? out + (size_t)x * rb : scratch, &cost[x],
			      why, len);
	}
	free(scratch);
	return rc;
}

int work_check_one(const struct work *wk, int64_t i, int64_t x, const void *data, char *why,
		   size_t len)
{
	char w[200];

	if (!wk->w->check || !wk->w->check(wk->state, x, data, w, sizeof(w)))
		return DLS_OK;
	snprintf(why, len, "result of iteration %lld refused: %s", (long long)i, w);
	return DLS_EINVAL;
}

int work_check_results(const struct work *wk, const struct dls_result *res, size_t n, char *why,
		       size_t len)
{
	size_t rb = wk->loop.result_bytes;

	if (!wk->w->check)
		return DLS_OK;
	for (size_t b = 0; b < n; b++)
		for (int64_t k = 0; k < res[b].count; k++) {
			int64_t i = res[b].start + k;

			if (work_check_one(wk, i, iter_order_column(&wk->order, i),
					   (const uint8_t *)res[b].data + (size_t)k * rb, why, len))
				return DLS_EINVAL;
		}
	return DLS_OK;
}

uint64_t work_total_cost(const struct work *wk, const uint8_t *results)
{
	uint64_t sum = 0;

	if (!wk->w->cost)
		return 0;
	for (int64_t x = 0; x < wk->loop.iterations; x++)
		sum += wk->w->cost(wk->state, x, results + (size_t)x * wk->loop.result_bytes);
	return sum;
}
