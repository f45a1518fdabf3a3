/*
 * master_report.h - the end of a run: seed 001's per-PE table
 * (T_com+wait / T_comp, chunks, iterations), T_p, and for emulated runs
 * T_ideal and the efficiency E = T_ideal / T_p (WORKLOAD.md 2); as text, CSV
 * and JSON.  Call after master_wait_done().
 */
#ifndef DLS_MASTER_REPORT_H
#define DLS_MASTER_REPORT_H

#include <stdio.h>

#include "dls/emul.h"
#include "master.h"

#ifdef __cplusplus
extern "C" {
#endif

struct master_report {
	struct dls_status snap;
	uint64_t work;	/* sum of every count: the loop's total cost */
	double t_ideal; /* 0 when the cluster's power is not known */
	double efficiency;
};

/*
 * Fills *r from m.  power (may be NULL) is the cluster's total emulated power
 * sum V_i/Q_i(t) over time since scheduling started, and t_iter_ns the
 * emulated cost of one unit iteration at power 1: together they give T_ideal.
 */
int master_report_build(struct master *m, const struct emul_steps *power, double t_iter_ns,
			struct master_report *r);
void master_report_free(struct master_report *r);

/* Seed 001's table and the summary lines, for a person. */
void master_report_table(const struct master *m, const struct master_report *r, FILE *out);

/* One row per PE, with a header; DLS_OK or DLS_EIO. */
int master_report_csv(const struct master_report *r, const char *path);

/* The run's summary and per-PE rows; DLS_OK or DLS_EIO. */
int master_report_json(const struct master *m, const struct master_report *r, const char *path);

#ifdef __cplusplus
}
#endif
#endif
