/*
 * params.c - a workload's parameters: looked up, read whole, checked (see
 * dls/workload.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/workload.h"

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
