/*
 * cli_getopt.h - getopt_long for the programs' main(), with one clear
 * line for every option it cannot take (exit 2): an unknown option with
 * the nearest known one ("did you mean --cluster?"), a renamed one with
 * its new name, an abbreviation that fits several, a missing value, and a
 * value given to an option that takes none.
 */
#ifndef DLS_CLI_GETOPT_H
#define DLS_CLI_GETOPT_H

#include <getopt.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * As getopt_long(argc, argv, shortopts, longopts, NULL), which it calls
 * (GNU abbreviations of long options included), except that an option it
 * cannot take prints "PROG: OPTION: CAUSE" and the --help hint, and exits 2.
 */
int cli_getopt(const char *prog, int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/*
 * The long option of longopts nearest to `name` (without its dashes): the
 * one a typo most likely meant, or NULL when none is close.  For tests.
 */
const char *cli_nearest_option(const char *name, const struct option *longopts);

#ifdef __cplusplus
}
#endif
#endif
