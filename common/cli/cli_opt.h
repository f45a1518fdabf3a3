/*
 * cli_opt.h - parsing of command-line values with a cause for every refusal,
 * so that each program can print "prog: --opt 'value': cause" and exit 2.
 * Pure functions; no output, no exit.
 */
#ifndef DLS_CLI_OPT_H
#define DLS_CLI_OPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parses a whole decimal integer in [min, max].  Returns NULL with *out set,
 * or a static text saying why the value was refused.
 */
const char *cli_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/* Parses a finite number in [min, max]; NULL or the cause. */
const char *cli_parse_double(const char *s, double min, double max, double *out);

/*
 * Parses a comma-separated list of integers in [min, max] into a new array
 * (*out, caller frees) of *n elements.  NULL or the cause.
 */
const char *cli_parse_i64_list(const char *s, int64_t min, int64_t max, int64_t **out, size_t *n);

/* Same for numbers. */
const char *cli_parse_double_list(const char *s, double min, double max, double **out,
				  size_t *n);

/*
 * Parses a positive rational such as "2", "1.5" or "3/2" into num/den
 * (den a power of ten for decimals).  NULL or the cause.
 */
const char *cli_parse_ratio(const char *s, int64_t *num, int64_t *den);

#ifdef __cplusplus
}
#endif
#endif
