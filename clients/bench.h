/*
 * bench.h - the results of `dls bench`: one cell per (cluster, order,
 * scheme), its measured runs and its simulated twin; and the reports made
 * of them (Chronopoulos et al. 2002's tables, CSV, JSON, gnuplot plots).
 */
#ifndef DLS_BENCH_H
#define DLS_BENCH_H

#include <stdint.h>
#include <stdio.h>

#define BENCH_MAX_REPS 16

struct bench_cell {
	char cluster[32], order[16];
	char scheme[24];	    /* its label: the scheme, "-off" added when overlap is off
				       beside on (--overlap both) */
	char kind[16];		    /* the scheme itself (dls run --scheme, or hdtss, trees) */
	int overlap;		    /* slaves ask ahead (dls run --overlap) */
	int nslaves;
	int reps, ok;		    /* runs asked for, runs that completed */
	double tp[BENCH_MAX_REPS];  /* measured T_p, sorted once complete */
	double eff[BENCH_MAX_REPS]; /* E of each run, same order as tp */
	double t_ideal;
	int64_t chunks;		    /* of the median run */
	int recomputations;	    /* of the median run */
	double emul_error_us;	    /* mean |emulation error| per chunk, median run */
	double sim_tp, sim_e;	    /* zero-overhead simulation */
	double *comwait, *comp;	    /* per slave (cluster order), median run */
};

/* Mean T_com+wait of the median run's slaves: their time without work (s). */
double bench_mean_wait(const struct bench_cell *c);

/* Median, min and max of a cell's T_p (0 when no run completed). */
double bench_median(const struct bench_cell *c);

/* Chronopoulos et al. 2002 Tables 2-3 for the cells of one cluster and order, then the summary. */
void bench_print_tables(FILE *out, const struct bench_cell *cells, int ncells);

/* bench.csv and bench.json in dir: 0 or -1 (errno logged). */
int bench_write_files(const char *dir, const struct bench_cell *cells, int ncells);

/*
 * PNG plots in dir/plots with gnuplot: efficiency per scheme (dedicated and
 * non-dedicated side by side), T_comp per PE (Chronopoulos et al. 2002 Figures 6-7), and E
 * against the number of slaves for pN clusters (Figures 4-5).
 * 0, or -1 when gnuplot failed (its output is in dir/plots/gnuplot.log).
 */
int bench_plot(const char *dir, const struct bench_cell *cells, int ncells);

#endif
