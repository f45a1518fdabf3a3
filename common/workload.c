/*
 * workload.c - the table of workloads and the parameter helpers (see
 * dls/workload.h).
 */
#include "dls/workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "mandel.h"
#include "pendulum.h"

#define MAX_WORKLOADS 32

static struct entry {
	char name[DLS_WORKLOAD_NAME_LEN];
	struct dls_workload w;
} table[MAX_WORKLOADS];
static int count;
static char names[MAX_WORKLOADS * (DLS_WORKLOAD_NAME_LEN + 2)];

/* The built-in workloads, entered before the first lookup or registration. */
static void builtins(void)
{
	if (count)
		return;
	table[0].w = mandel_workload;
	table[1].w = pendulum_workload;
	count = 2;
	for (int i = 0; i < count; i++) {
		snprintf(table[i].name, sizeof(table[i].name), "%s", table[i].w.name);
		table[i].w.name = table[i].name;
	}
}

int dls_workload_register(const struct dls_workload *w)
{
	int i;

	if (!w || !w->name || !*w->name || strlen(w->name) >= DLS_WORKLOAD_NAME_LEN || !w->open ||
	    !w->body)
		return DLS_EINVAL;
	builtins();
	for (i = 0; i < count && strcmp(table[i].name, w->name); i++)
		;
	if (i == MAX_WORKLOADS)
		return DLS_ENOMEM;
	snprintf(table[i].name, sizeof(table[i].name), "%s", w->name);
	table[i].w = *w;
	table[i].w.name = table[i].name;
	if (i == count)
		count++;
	return DLS_OK;
}

const struct dls_workload *dls_workload_find(const char *name)
{
	builtins();
	for (int i = 0; name && i < count; i++)
		if (!strcmp(table[i].name, name))
			return &table[i].w;
	return NULL;
}

const char *dls_workload_names(void)
{
	size_t at = 0;

	builtins();
	for (int i = 0; i < count; i++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", i ? ", " : "",
				       table[i].name);
	return names;
}

static const char *find(const struct dls_param *params, size_t n, const char *name)
{
	for (size_t i = n; i-- > 0;)
		if (!strcmp(params[i].name, name))
			return params[i].value;
	return NULL;
}

int dls_param_int(const struct dls_param *params, size_t n, const char *name, int64_t lo,
		  int64_t hi, int64_t *out, char *why, size_t len)
{
	const char *v = find(params, n, name);
	char *end;
	long long x;

	if (!v)
		return DLS_OK;
	errno = 0;
	x = strtoll(v, &end, 10);
	if (!*v || *end || errno || x < lo || x > hi) {
		snprintf(why, len, "parameter %s: '%s' is not an integer in %lld..%lld", name, v,
			 (long long)lo, (long long)hi);
		return DLS_EINVAL;
	}
	*out = x;
	return DLS_OK;
}

int dls_param_double(const struct dls_param *params, size_t n, const char *name, double lo,
		     double hi, double *out, char *why, size_t len)
{
	const char *v = find(params, n, name);
	char *end;
	double x;

	if (!v)
		return DLS_OK;
	errno = 0;
	x = strtod(v, &end);
	if (!*v || *end || errno || !isfinite(x) || x < lo || x > hi) {
		snprintf(why, len, "parameter %s: '%s' is not a number in %g..%g", name, v, lo, hi);
		return DLS_EINVAL;
	}
	*out = x;
	return DLS_OK;
}

int dls_params_known(const struct dls_param *params, size_t n, const char *const *known,
		     char *why, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = 0, at;

		while (known[k] && strcmp(known[k], params[i].name))
			k++;
		if (known[k])
			continue;
		at = (size_t)snprintf(why, len, "unknown parameter '%s' (known:", params[i].name);
		for (k = 0; known[k] && at < len; k++)
			at += (size_t)snprintf(why + at, len - at, " %s", known[k]);
		if (at < len)
			snprintf(why + at, len - at, ")");
		return DLS_EINVAL;
	}
	return DLS_OK;
}

int dls_params_set(struct dls_param *params, int *n, const char *name, const char *value)
{
	int i;

	if (!*name || strlen(name) >= DLS_PARAM_NAME_LEN || strlen(value) >= DLS_PARAM_VALUE_LEN)
		return DLS_EINVAL;
	for (i = 0; i < *n && strcmp(params[i].name, name); i++)
		;
	if (i == DLS_MAX_PARAMS)
		return DLS_ENOMEM;
	snprintf(params[i].name, sizeof(params[i].name), "%s", name);
	snprintf(params[i].value, sizeof(params[i].value), "%s", value);
	if (i == *n)
		(*n)++;
	return DLS_OK;
}
