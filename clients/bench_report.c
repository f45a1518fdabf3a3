/*
 * bench_report.c - the tables, files and plots of `dls bench`.
 */
#include "bench.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

double bench_median(const struct bench_cell *c)
{
	return c->ok ? c->tp[c->ok / 2] : 0;
}

double bench_mean_wait(const struct bench_cell *c)
{
	double sum = 0;

	if (!c->ok || !c->comwait || c->nslaves < 1)
		return 0;
	for (int pe = 0; pe < c->nslaves; pe++)
		sum += c->comwait[pe];
	return sum / c->nslaves;
}

static int same_group(const struct bench_cell *a, const struct bench_cell *b)
{
	return !strcmp(a->cluster, b->cluster) && !strcmp(a->order, b->order);
}

/* 1 when cells[g] is the first of its (cluster, order) group. */
static int first_of_group(const struct bench_cell *cells, int g)
{
	for (int k = 0; k < g; k++)
		if (same_group(&cells[k], &cells[g]))
			return 0;
	return 1;
}

void bench_print_tables(FILE *out, const struct bench_cell *cells, int ncells)
{
	for (int g = 0; g < ncells; g++) {
		if (!first_of_group(cells, g))
			continue;
		fprintf(out, "\n%s, order %s: PE_i T_com+wait/T_comp (s), median run of each scheme\n",
			cells[g].cluster, cells[g].order);
		if (cells[g].nslaves <= 16) {
			fprintf(out, "%4s", "PE");
			for (int k = g; k < ncells; k++)
				if (same_group(&cells[k], &cells[g]))
					fprintf(out, " %11s", cells[k].scheme);
			fprintf(out, "\n");
			for (int pe = 0; pe < cells[g].nslaves; pe++) {
				fprintf(out, "%4d", pe + 1);
				for (int k = g; k < ncells; k++) {
					char buf[32] = "-";

					if (!same_group(&cells[k], &cells[g]))
						continue;
					if (cells[k].ok && cells[k].comp)
						snprintf(buf, sizeof(buf), "%.1f/%.1f",
							 cells[k].comwait[pe], cells[k].comp[pe]);
					fprintf(out, " %11s", buf);
				}
				fprintf(out, "\n");
			}
			fprintf(out, "%4s", "T_p");
			for (int k = g; k < ncells; k++)
				if (same_group(&cells[k], &cells[g]))
					fprintf(out, " %11.2f", bench_median(&cells[k]));
			fprintf(out, "\n");
		}
		fprintf(out, "\n%-9s %5s %8s %16s %8s %6s %7s %8s %7s %9s %8s %8s\n", "scheme",
			"runs", "T_p", "spread (min-max)", "T_ideal", "E", "chunks", "sim T_p",
			"sim E", "overhead", "recomp.", "wait/PE");
		for (int k = g; k < ncells; k++) {
			const struct bench_cell *c = &cells[k];
			char spread[32] = "-";
			double tp = bench_median(c);

			if (!same_group(c, &cells[g]))
				continue;
			if (c->ok)
				snprintf(spread, sizeof(spread), "%.3f-%.3f", c->tp[0], c->tp[c->ok - 1]);
			fprintf(out,
				"%-9s %2d/%-2d %8.3f %16s %8.3f %6.3f %7lld %8.3f %7.3f %8.1f%% %8d "
				"%6.1fms\n",
				c->scheme, c->ok, c->reps, tp, spread, c->t_ideal,
				c->ok ? c->eff[c->ok / 2] : 0, (long long)c->chunks, c->sim_tp, c->sim_e,
				c->ok && c->sim_tp > 0 ? 100 * (tp / c->sim_tp - 1) : 0,
				c->recomputations, 1e3 * bench_mean_wait(c));
		}
	}
}

int bench_write_files(const char *dir, const struct bench_cell *cells, int ncells)
{
	char path[4200];
	FILE *csv;
	json_t *jcells = json_array(), *root;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/bench.csv", dir);
	csv = fopen(path, "w");
	if (!csv || !jcells) {
		fprintf(stderr, "dls bench: cannot write in '%s': %s\n", dir, strerror(errno));
		if (csv)
			fclose(csv);
		json_decref(jcells);
		return -1;
	}
	fprintf(csv, "cluster,order,scheme,slaves,runs,ok,tp_median,tp_min,tp_max,t_ideal,"
		     "efficiency,chunks,recomputations,emul_error_us,sim_tp,sim_efficiency,"
		     "overhead,overlap,wait_mean_s\n");
	for (int k = 0; k < ncells; k++) {
		const struct bench_cell *c = &cells[k];
		double tp = bench_median(c), e = c->ok ? c->eff[c->ok / 2] : 0;
		double ovh = c->ok && c->sim_tp > 0 ? tp / c->sim_tp - 1 : 0;
		json_t *tps = json_array();

		fprintf(csv,
			"%s,%s,%s,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%lld,%d,%.3f,%.6f,%.6f,%.6f,%d,"
			"%.6f\n",
			c->cluster, c->order, c->scheme, c->nslaves, c->reps, c->ok, tp,
			c->ok ? c->tp[0] : 0, c->ok ? c->tp[c->ok - 1] : 0, c->t_ideal, e,
			(long long)c->chunks, c->recomputations, c->emul_error_us, c->sim_tp,
			c->sim_e, ovh, c->overlap, bench_mean_wait(c));
		for (int r = 0; tps && r < c->ok; r++)
			json_array_append_new(tps, json_real(c->tp[r]));
		json_array_append_new(
			jcells, json_pack("{sssssssisisisfsosfsfsIsisfsfsfsfsbsf}", "cluster", c->cluster,
					  "order", c->order, "scheme", c->scheme, "slaves", c->nslaves,
					  "runs", c->reps, "ok", c->ok, "tp_median", tp, "tp", tps,
					  "t_ideal", c->t_ideal, "efficiency", e, "chunks",
					  (json_int_t)c->chunks, "recomputations", c->recomputations,
					  "emul_error_us", c->emul_error_us, "sim_tp", c->sim_tp,
					  "sim_efficiency", c->sim_e, "overhead", ovh, "overlap",
					  c->overlap, "wait_mean_s", bench_mean_wait(c)));
	}
	snprintf(path, sizeof(path), "%s/bench.json", dir);
	root = json_pack("{so}", "cells", jcells);
	if (!root || json_dump_file(root, path,
				    JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)))
		rc = -1;
	json_decref(root);
	if ((ferror(csv) | fclose(csv)) || rc) {
		fprintf(stderr, "dls bench: cannot write in '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Efficiency per scheme: one bar per cluster (dedicated vs non-dedicated). */
static void plot_efficiency(FILE *gp, const char *pdir, const struct bench_cell *cells, int ncells,
			    const char *order)
{
	char clusters[8][32], schemes[32][24], path[4300];
	int nc = 0, ns = 0;
	double lo = 0.98; /* the axis's lower end: 0.02 below the lowest E, in 0.02 steps */
	FILE *dat;

	for (int k = 0; k < ncells; k++) {
		int seen = 0;

		if (strcmp(cells[k].order, order))
			continue;
		for (int i = 0; i < nc; i++)
			seen |= !strcmp(clusters[i], cells[k].cluster);
		if (!seen && nc < 8)
			snprintf(clusters[nc++], 32, "%s", cells[k].cluster);
		seen = 0;
		for (int i = 0; i < ns; i++)
			seen |= !strcmp(schemes[i], cells[k].scheme);
		if (!seen && ns < 32)
			snprintf(schemes[ns++], 24, "%s", cells[k].scheme);
	}
	if (!nc)
		return;
	snprintf(path, sizeof(path), "%s/efficiency-%s.dat", pdir, order);
	dat = fopen(path, "w");
	if (!dat)
		return;
	fprintf(dat, "scheme");
	for (int i = 0; i < nc; i++)
		fprintf(dat, " %s", clusters[i]);
	fprintf(dat, "\n");
	for (int s = 0; s < ns; s++) {
		fprintf(dat, "%s", schemes[s]);
		for (int i = 0; i < nc; i++) {
			double e = 0;

			for (int k = 0; k < ncells; k++)
				if (!strcmp(cells[k].order, order) &&
				    !strcmp(cells[k].cluster, clusters[i]) &&
				    !strcmp(cells[k].scheme, schemes[s]) && cells[k].ok)
					e = cells[k].eff[cells[k].ok / 2];
			fprintf(dat, " %.4f", e);
			if (e > 0 && e < lo + 0.02)
				lo = floor((e - 0.02) * 50) / 50;
		}
		fprintf(dat, "\n");
	}
	if (lo < 0)
		lo = 0;
	fclose(dat);
	/* the axis starts just below the lowest E, so that 0.95 and 0.99 look
	 * different; the legend sits above the plot, clear of the bars */
	fprintf(gp,
		"set output '%s/efficiency-%s.png'\n"
		"set title 'Efficiency E = T_{ideal} / T_p, %s order (median of runs; "
		"the axis starts at %.2f)'\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1; set boxwidth 0.9\n"
		"set yrange [%.2f:1]; set ylabel 'E'; set grid ytics; set mytics 2\n"
		"set key horizontal top center outside\n"
		"set xtics rotate by -30\n"
		"plot for [i=2:%d] '%s' using i:xtic(1) with histograms title columnheader(i)\n"
		"set xtics norotate; set yrange [*:*]; set key default; set mytics default\n",
		pdir, order, order, lo, lo, nc + 1, path);
}

/* T_comp per PE for each scheme (Chronopoulos et al. 2002 Figures 6-7): one
 * cluster of bars per PE, a bar per scheme (the PEs are categories). */
static void plot_tcomp(FILE *gp, const char *pdir, const struct bench_cell *cells, int ncells,
		       int g)
{
	char path[4300];
	int nsch = 0;
	FILE *dat;

	snprintf(path, sizeof(path), "%s/tcomp-%s-%s.dat", pdir, cells[g].cluster, cells[g].order);
	dat = fopen(path, "w");
	if (!dat)
		return;
	fprintf(dat, "PE");
	for (int k = g; k < ncells; k++)
		if (same_group(&cells[k], &cells[g])) {
			fprintf(dat, " %s", cells[k].scheme);
			nsch++;
		}
	fprintf(dat, "\n");
	for (int pe = 0; pe < cells[g].nslaves; pe++) {
		fprintf(dat, "%d", pe + 1);
		for (int k = g; k < ncells; k++)
			if (same_group(&cells[k], &cells[g]))
				fprintf(dat, " %.4f", cells[k].comp ? cells[k].comp[pe] : 0);
		fprintf(dat, "\n");
	}
	fclose(dat);
	fprintf(gp,
		"set output '%s/tcomp-%s-%s.png'\n"
		"set title 'T_{comp} per PE, %s, %s order (median run of each scheme)'\n"
		"set xlabel 'PE'; set ylabel 'T_{comp} (s)'; set yrange [0:*]; set key outside right\n"
		"set style histogram clustered gap 1; set style fill solid 0.8 border -1\n"
		"set boxwidth 0.9; set grid ytics\n"
		"plot for [i=2:%d] '%s' using i:xtic(1) with histograms title columnheader(i)\n"
		"set xlabel ''\n",
		pdir, cells[g].cluster, cells[g].order, cells[g].cluster, cells[g].order, nsch + 1,
		path);
}

/* pN or pN-nd: N slaves (half V = 1); *nd set for -nd.  0 when not such a name. */
static int scaled_size(const char *cluster, int *nd)
{
	int n = 0;
	char rest[8] = "";

	if (sscanf(cluster, "p%d%7s", &n, rest) < 1 || n < 1)
		return 0;
	*nd = !strcmp(rest, "-nd");
	return rest[0] && !*nd ? 0 : n;
}

/* E against the number of slaves, per scheme, dedicated and non-dedicated
 * (Chronopoulos et al. 2002 Figures 4-5 show speedups; E = T_ideal / T_p is their
 * heterogeneity-fair form), for the cells of pN clusters. */
static void plot_scaling(FILE *gp, const char *pdir, const struct bench_cell *cells, int ncells)
{
	char path[4300], series[16][40];
	int nser = 0, sizes[64], nsize = 0;
	FILE *dat;

	for (int k = 0; k < ncells; k++) {
		int nd, n = scaled_size(cells[k].cluster, &nd), seen = 0;
		char name[40];

		if (!n)
			continue;
		for (int i = 0; i < nsize; i++)
			seen |= sizes[i] == n;
		if (!seen && nsize < 64)
			sizes[nsize++] = n;
		snprintf(name, sizeof(name), "%s%s-%s", cells[k].scheme, nd ? "-nd" : "",
			 cells[k].order);
		seen = 0;
		for (int i = 0; i < nser; i++)
			seen |= !strcmp(series[i], name);
		if (!seen && nser < 16)
			snprintf(series[nser++], sizeof(series[0]), "%s", name);
	}
	if (nsize < 2)
		return;
	for (int i = 1; i < nsize; i++) /* ascending sizes */
		for (int j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
			int t = sizes[j];

			sizes[j] = sizes[j - 1];
			sizes[j - 1] = t;
		}
	snprintf(path, sizeof(path), "%s/scaling.dat", pdir);
	dat = fopen(path, "w");
	if (!dat)
		return;
	fprintf(dat, "slaves");
	for (int i = 0; i < nser; i++)
		fprintf(dat, " %s", series[i]);
	fprintf(dat, "\n");
	for (int s = 0; s < nsize; s++) {
		fprintf(dat, "%d", sizes[s]);
		for (int i = 0; i < nser; i++) {
			double e = NAN;

			for (int k = 0; k < ncells; k++) {
				int nd, n = scaled_size(cells[k].cluster, &nd);
				char name[40];

				snprintf(name, sizeof(name), "%s%s-%s", cells[k].scheme,
					 nd ? "-nd" : "", cells[k].order);
				if (n == sizes[s] && !strcmp(name, series[i]) && cells[k].ok)
					e = cells[k].eff[cells[k].ok / 2];
			}
			fprintf(dat, isnan(e) ? " NaN" : " %.4f", e);
		}
		fprintf(dat, "\n");
	}
	fclose(dat);
	fprintf(gp,
		"set output '%s/scaling.png'\n"
		"set title 'Efficiency against the number of slaves (half V = 1, half V = 2; -nd: "
		"Q = 2 on the fast half)'\n"
		"set xlabel 'slaves'; set ylabel 'E'; set logscale x 2; set yrange [0:1.05]\n"
		"set key outside right; set grid\n"
		"plot for [i=2:%d] '%s' using 1:i with linespoints title columnheader(i)\n"
		"unset logscale x; set xlabel ''\n",
		pdir, nser + 1, path);
}

int bench_plot(const char *dir, const struct bench_cell *cells, int ncells)
{
	char pdir[4200], gpath[4300], cmd[9000];
	FILE *gp;

	snprintf(pdir, sizeof(pdir), "%s/plots", dir);
	if (mkdir(pdir, 0755) && errno != EEXIST)
		return -1;
	snprintf(gpath, sizeof(gpath), "%s/plots.gp", pdir);
	gp = fopen(gpath, "w");
	if (!gp)
		return -1;
	fprintf(gp, "set terminal pngcairo size 1000,560 enhanced font 'sans,11'\n");
	plot_efficiency(gp, pdir, cells, ncells, "natural");
	plot_efficiency(gp, pdir, cells, ncells, "interleaved");
	for (int g = 0; g < ncells; g++)
		if (first_of_group(cells, g))
			plot_tcomp(gp, pdir, cells, ncells, g);
	plot_scaling(gp, pdir, cells, ncells);
	fclose(gp);
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' > '%s/gnuplot.log' 2>&1", gpath, pdir);
	return system(cmd) == 0 ? 0 : -1;
}
