#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli_opt.h"

void cli_usage_error(const char *prog, const char *opt, const char *value, const char *cause)
{
	if (value)
		fprintf(stderr, "%s: %s '%s': %s\n", prog, opt, value, cause);
	else
		fprintf(stderr, "%s: %s: %s\n", prog, opt, cause);
	fprintf(stderr, "try '%s --help'\n", prog);
	exit(2);
}

int64_t cli_i64_or_die(const char *prog, const char *opt, const char *value, int64_t min,
		       int64_t max)
{
	int64_t v = 0;
	const char *cause = cli_parse_i64(value, min, max, &v);

	if (cause)
		cli_usage_error(prog, opt, value, cause);
	return v;
}

double cli_double_or_die(const char *prog, const char *opt, const char *value, double min,
			 double max)
{
	double v = 0;
	const char *cause = cli_parse_double(value, min, max, &v);

	if (cause)
		cli_usage_error(prog, opt, value, cause);
	return v;
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
