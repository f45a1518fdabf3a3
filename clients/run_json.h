/*
 * run_json.h - reads a run's summary back from the JSON file that
 * dls-master --json (or dls-treesched --json) writes, with jansson.
 */
#ifndef DLS_RUN_JSON_H
#define DLS_RUN_JSON_H

#include <stdint.h>

struct run_json {
	double t_p, t_ideal, efficiency;
	int recomputations;
	int64_t chunks;	   /* summed over the PEs */
	double emul_error; /* summed over the PEs, seconds */
};

/*
 * Reads path into *out: 0, or -1 when the file cannot be read or parsed or
 * lacks t_p, t_ideal or efficiency (the cause on stderr).
 */
int run_json_read(const char *path, struct run_json *out);

/*
 * Each PE's T_com+wait and T_comp from the same file, by the K of its name
 * ("slave.K", or a path below hmasters ending in it), for K < n; PEs with
 * other names are skipped.  0, or -1 when the file cannot be read.
 */
int run_json_pe_times(const char *path, int n, double *comwait, double *comp);

#endif
