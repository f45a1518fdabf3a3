#include "cli_opt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *range_cause(int64_t min, int64_t max)
{
	static _Thread_local char buf[96];

	if (max == INT64_MAX)
		snprintf(buf, sizeof(buf), "must be an integer >= %lld", (long long)min);
	else
		snprintf(buf, sizeof(buf), "must be an integer from %lld to %lld", (long long)min,
			 (long long)max);
	return buf;
}

const char *cli_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return "empty value";
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end)
		return range_cause(min, max);
	if (errno == ERANGE || v < min || v > max)
		return range_cause(min, max);
	*out = v;
	return NULL;
}

const char *cli_parse_double(const char *s, double min, double max, double *out)
{
	static _Thread_local char buf[96];
	char *end;
	double v;

	if (!*s)
		return "empty value";
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || !isfinite(v) || v < min || v > max) {
		snprintf(buf, sizeof(buf), "must be a number from %g to %g", min, max);
		return buf;
	}
	*out = v;
	return NULL;
}

/* Splits s at commas and calls parse on each element into an array. */
#define PARSE_LIST(T, parse_one)                                                                   \
	do {                                                                                       \
		size_t cap = 1, k = 0;                                                             \
		char *copy, *tok, *save = NULL;                                                    \
		const char *cause = NULL;                                                          \
		T *arr;                                                                            \
		for (const char *c = s; *c; c++)                                                   \
			cap += *c == ',';                                                          \
		if (!*s || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,"))               \
			return "must be a comma-separated list without empty elements";           \
		arr = calloc(cap, sizeof(T));                                                      \
		copy = strdup(s);                                                                  \
		if (!arr || !copy) {                                                               \
			free(arr);                                                                 \
			free(copy);                                                                \
			return "out of memory";                                                    \
		}                                                                                  \
		for (tok = strtok_r(copy, ",", &save); tok && !cause;                              \
		     tok = strtok_r(NULL, ",", &save))                                             \
			cause = parse_one(tok, min, max, &arr[k++]);                               \
		free(copy);                                                                        \
		if (cause) {                                                                       \
			free(arr);                                                                 \
			return cause;                                                              \
		}                                                                                  \
		*out = arr;                                                                        \
		*n = k;                                                                            \
		return NULL;                                                                       \
	} while (0)

const char *cli_parse_i64_list(const char *s, int64_t min, int64_t max, int64_t **out, size_t *n)
{
	PARSE_LIST(int64_t, cli_parse_i64);
}

const char *cli_parse_double_list(const char *s, double min, double max, double **out, size_t *n)
{
	PARSE_LIST(double, cli_parse_double);
}

const char *cli_parse_ratio(const char *s, int64_t *num, int64_t *den)
{
	const char *slash = strchr(s, '/'), *dot = strchr(s, '.');
	const char *cause = "must be a positive number such as 2, 1.5 or 3/2";
	int64_t n = 0, d = 1;

	if (slash) {
		char head[32];
		size_t len = (size_t)(slash - s);

		if (len == 0 || len >= sizeof(head))
			return cause;
		memcpy(head, s, len);
		head[len] = '\0';
		if (cli_parse_i64(head, 1, 1 << 30, &n) || cli_parse_i64(slash + 1, 1, 1 << 30, &d))
			return cause;
	} else if (dot) {
		int digits = 0;

		for (const char *c = s; *c; c++) {
			if (c == dot)
				continue;
			if (!isdigit((unsigned char)*c) || digits >= 9)
				return cause;
			n = n * 10 + (*c - '0');
			if (c > dot) {
				d *= 10;
			}
			digits++;
		}
		if (n < 1)
			return cause;
	} else if (cli_parse_i64(s, 1, 1 << 30, &n)) {
		return cause;
	}
	*num = n;
	*den = d;
	return NULL;
}
