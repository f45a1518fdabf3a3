/*
 * gantt.c - a run's timeline as a Gantt chart (see gantt.h).
 */
#include "gantt.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dls/err.h"
#include "proc.h"

struct bar {
	int row;
	double from, to;
	long long count;
	int lost; /* never delivered, and not taken back: its work went elsewhere */
	int copy; /* computed again to check another's results (--verify) */
	double given;
	double begin; /* when its PE began it, where the timeline says (a model's); else -1 */
	int pe;
};

static int by_pe_given(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	if (x->pe != y->pe)
		return x->pe < y->pe ? -1 : 1;
	return (x->given > y->given) - (x->given < y->given);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* The chunks of the timeline as bars on the PE rows (rows: pes[] order by
 * id); *nbars of them.  NULL with why on a malformed timeline. */
static struct bar *bars_of(json_t *timeline, const int *row_of, int max_pe, double t_p,
			   size_t *nbars, char *why, size_t len)
{
	size_t n = json_array_size(timeline), i;
	struct bar *b = calloc(n ? n : 1, sizeof(*b));
	json_t *c;

	if (!b) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	json_array_foreach(timeline, i, c)
	{
		json_t *d = json_object_get(c, "delivered"), *cp = json_object_get(c, "compute");
		int pe = (int)json_integer_value(json_object_get(c, "pe"));

		if (!json_is_object(c) || pe < 0 || pe > max_pe || row_of[pe] < 0) {
			snprintf(why, len, "timeline entry %zu names no PE of the run", i);
			free(b);
			return NULL;
		}
		b[i].pe = pe;
		b[i].row = row_of[pe];
		b[i].given = json_number_value(json_object_get(c, "given"));
		b[i].begin = json_is_number(json_object_get(c, "begin"))
				 ? json_number_value(json_object_get(c, "begin"))
				 : -1;
		b[i].count = (long long)json_integer_value(json_object_get(c, "count"));
		b[i].from = json_is_number(cp) ? json_number_value(cp) : -1; /* compute, for now */
		b[i].to = json_is_number(d) ? json_number_value(d) : -1;      /* delivered */
		b[i].lost = !json_is_number(d) && !json_is_true(json_object_get(c, "cut"));
		b[i].copy = json_is_true(json_object_get(c, "copy"));
	}
	/* each PE computes its chunks in the order given: a bar begins when the
	 * chunk was given or the one before ended, and lasts its compute time */
	qsort(b, n, sizeof(*b), by_pe_given);
	for (i = 0; i < n; i++) {
		double prev_end = i && b[i - 1].pe == b[i].pe ? b[i - 1].to : 0;
		double start = b[i].begin >= 0	      ? b[i].begin
			       : b[i].given > prev_end ? b[i].given
						       : prev_end;
		double compute = b[i].from, delivered = b[i].to;

		b[i].from = start;
		b[i].to = compute >= 0 ? start + compute : delivered > start ? delivered : start;
		if (b[i].lost) /* when its PE died is not known: a mark where it began */
			b[i].to = start + 0.02 * t_p;
	}
	*nbars = n;
	return b;
}

/* Which set a bar is drawn in: 0 a chunk delivered, 1 one lost with its
 * PE, 2 a copy computed to check results. */
static int bar_set(const struct bar *b)
{
	return b->lost ? 1 : b->copy ? 2 : 0;
}

/* Runs gnuplot on script, its messages into log: DLS_OK or DLS_EIO. */
static int run_gnuplot(const char *script, const char *log, char *why, size_t len)
{
	char *argv[] = {"gnuplot", (char *)script, NULL};
	pid_t pid = proc_spawn(argv, log, log, 0);
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(why, len, "gnuplot failed (see %s)", log);
		return DLS_EIO;
	}
	return DLS_OK;
}

/*
 * What the chart shows: the whole run, or in a run of many loops its last
 * loop (the master keeps the timeline of the loop it is in).  Its T_p and
 * E, and (loops > 1) which loop it is.
 */
struct shown {
	double t_p, efficiency;
	long long iterations, loop;
	size_t loops;
};

static struct shown shown_of(json_t *run)
{
	json_t *loops = json_object_get(run, "loops");
	json_t *last = json_array_get(loops, json_array_size(loops) - 1);
	struct shown w = {json_number_value(json_object_get(run, "t_p")),
			  json_number_value(json_object_get(run, "efficiency")),
			  (long long)json_integer_value(json_object_get(run, "iterations")), 0, 1};

	if (json_array_size(loops) > 1 && json_is_object(last)) {
		w.loops = json_array_size(loops);
		w.loop = (long long)json_integer_value(json_object_get(last, "loop"));
		w.t_p = json_number_value(json_object_get(last, "t_p"));
		w.efficiency = json_number_value(json_object_get(last, "efficiency"));
		w.iterations = (long long)json_integer_value(json_object_get(last, "iterations"));
	}
	return w;
}

/* Writes the bars into dat, one data block a set of bars that is not empty
 * (the chunks delivered, those lost with their PE, the copies computed to
 * check results): index[set] is its block (-1: empty).  DLS_OK or DLS_EIO. */
static int write_bars(const char *dat, const struct bar *b, size_t n, int index[3], char *why,
		      size_t len)
{
	FILE *f = fopen(dat, "w");

	if (!f) {
		snprintf(why, len, "cannot write '%s': %s", dat, strerror(errno));
		return DLS_EIO;
	}
	/* boxxyerror: x y xlow xhigh ylow yhigh, then the colour (the size) */
	for (int set = 0, blocks = 0; set < 3; set++) {
		index[set] = -1;
		for (size_t i = 0; i < n; i++) {
			if (bar_set(&b[i]) != set)
				continue;
			if (index[set] < 0)
				fprintf(f, "%s", blocks ? "\n\n" : "");
			if (index[set] < 0)
				index[set] = blocks++;
			fprintf(f, "%.6f %d %.6f %.6f %.2f %.2f %lld\n", (b[i].from + b[i].to) / 2,
				b[i].row, b[i].from, b[i].to, b[i].row - 0.38, b[i].row + 0.38,
				b[i].count);
		}
	}
	if (fclose(f)) {
		snprintf(why, len, "cannot write '%s': %s", dat, strerror(errno));
		return DLS_EIO;
	}
	return DLS_OK;
}

/* The plot command: each set of bars in dat that is not empty (index, as
 * write_bars made it), with its style and title. */
static void write_plot_command(FILE *f, const char *dat, const int index[3])
{
	fprintf(f, "plot");
	if (index[0] >= 0)
		fprintf(f, " '%s' index %d using 1:2:3:4:5:6:7 with boxxyerror fs solid 0.9 "
			   "border lc rgb '#333333' lc palette notitle",
			dat, index[0]);
	if (index[1] >= 0)
		fprintf(f, "%s '%s' index %d using 1:2:3:4:5:6 with boxxyerror fs pattern 4 "
			   "lc rgb '#cc0000' title 'lost with its PE (computed again elsewhere)'",
			index[0] >= 0 ? "," : "", dat, index[1]);
	if (index[2] >= 0)
		fprintf(f, "%s '%s' index %d using 1:2:3:4:5:6 with boxxyerror fs pattern 2 "
			   "border lc rgb '#333333' title 'a copy, computed again to check "
			   "results (--verify)'",
			index[0] >= 0 || index[1] >= 0 ? "," : "", dat, index[2]);
	fprintf(f, "\n");
}

/* Writes the bars and the script that draws them: DLS_OK or DLS_EIO. */
static int write_plot(const char *dat, const char *gp, const char *out, json_t *run,
		      const struct bar *b, size_t n, json_t *pes, const int *row_of, char *why,
		      size_t len)
{
	size_t npes = json_array_size(pes), i;
	struct shown w = shown_of(run);
	double xmax = w.t_p;
	int index[3], rc = write_bars(dat, b, n, index, why, len);
	json_t *p;
	FILE *f;

	if (rc)
		return rc;
	f = fopen(gp, "w");
	if (!f) {
		snprintf(why, len, "cannot write '%s': %s", gp, strerror(errno));
		return DLS_EIO;
	}
	if (ends_with(out, ".svg"))
		fprintf(f, "set terminal svg size 1100,%zu dynamic font 'sans,12'\n", 130 + 26 * npes);
	else
		fprintf(f, "set terminal pngcairo size 1100,%zu font 'sans,11'\n", 130 + 26 * npes);
	fprintf(f, "set output '%s'\n", out);
	fprintf(f, "set title \"run %s: %s, %s, ", json_string_value(json_object_get(run, "run")),
		json_string_value(json_object_get(run, "scheme")),
		json_string_value(json_object_get(run, "order")));
	if (w.loops > 1)
		fprintf(f, "loop %lld (the last of %zu), ", w.loop, w.loops);
	fprintf(f, "%lld iterations; T_p %.3f s, E %.3f\" noenhanced\n", w.iterations, w.t_p,
		w.efficiency);
	fprintf(f, "set xlabel \"seconds since scheduling started (bars: each chunk's "
		   "computation; gaps: waits)\"\n");
	fprintf(f, "set yrange [%zu-0.3:-0.7]\nset ytics (", npes); /* the first PE on top */
	json_array_foreach(pes, i, p)
	fprintf(f, "%s\"%s\" %d", i ? ", " : "", json_string_value(json_object_get(p, "name")),
		row_of[json_integer_value(json_object_get(p, "pe"))]);
	for (i = 0; i < n; i++)
		if (b[i].to > xmax)
			xmax = b[i].to;
	fprintf(f, ") noenhanced\nset xrange [0:%f]\nset grid xtics\n", 1.02 * xmax);
	fprintf(f, "set cblabel 'iterations in the chunk'\nset palette rgb 33,13,10\n");
	fprintf(f, "set arrow from %f, graph 0 to %f, graph 1 nohead dt 2 lc rgb '#444444'\n",
		w.t_p, w.t_p);
	fprintf(f, "set key outside bottom center horizontal\n");
	write_plot_command(f, dat, index);
	if (fclose(f)) {
		snprintf(why, len, "cannot write '%s': %s", gp, strerror(errno));
		return DLS_EIO;
	}
	return DLS_OK;
}

/* Each PE's row, by its id (*max_pe: the largest id; -1 for an id no PE
 * has), in the PEs' names' order (slave.2 above slave.10); NULL when out of
 * memory (to free). */
static int *rows_of(json_t *pes, int *max_pe)
{
	json_t *p, *q;
	size_t i, k;
	int *row_of;

	*max_pe = -1;
	json_array_foreach(pes, i, p)
	{
		int id = (int)json_integer_value(json_object_get(p, "pe"));

		if (id > *max_pe)
			*max_pe = id;
	}
	row_of = malloc(((size_t)*max_pe + 1) * sizeof(*row_of));
	if (!row_of)
		return NULL;
	for (int id = 0; id <= *max_pe; id++)
		row_of[id] = -1;
	json_array_foreach(pes, i, p)
	{
		int id = (int)json_integer_value(json_object_get(p, "pe")), row = 0;
		const char *name = json_string_value(json_object_get(p, "name"));

		json_array_foreach(pes, k, q)
		{
			const char *other = json_string_value(json_object_get(q, "name"));

			row += other && name && (strverscmp(other, name) < 0 ||
						 (!strcmp(other, name) && k < i));
		}
		if (id >= 0)
			row_of[id] = row;
	}
	return row_of;
}

/* The run's JSON with its PEs and timeline, or NULL with why. */
static json_t *load_run(const char *json_path, char *why, size_t len)
{
	json_error_t err;
	json_t *run = json_load_file(json_path, 0, &err), *pes, *timeline;

	if (!run) {
		snprintf(why, len, "not a run's JSON: %s (line %d)", err.text, err.line);
		return NULL;
	}
	pes = json_object_get(run, "pes");
	timeline = json_object_get(run, "timeline");
	if (!json_is_array(pes) || !json_is_array(timeline) || !json_array_size(pes)) {
		snprintf(why, len, "no \"timeline\" in it: a master-slave run of dls run or "
				   "dls-master --json has one (Tree Scheduling and the balancing "
				   "policies do not)");
		json_decref(run);
		return NULL;
	}
	return run;
}

int gantt_draw(const char *json_path, const char *out, char *why, size_t len)
{
	json_t *run, *pes;
	char dat[4200], gp[4200], log[4200];
	int *row_of, max_pe, rc;
	struct bar *b = NULL;
	size_t n = 0;

	if (!ends_with(out, ".png") && !ends_with(out, ".svg")) {
		snprintf(why, len, "the picture's name must end in .png or .svg");
		return DLS_EINVAL;
	}
	if (strpbrk(out, "'\"\n")) { /* gnuplot's script quotes it */
		snprintf(why, len, "the picture's name must hold no quote or newline");
		return DLS_EINVAL;
	}
	run = load_run(json_path, why, len);
	if (!run)
		return DLS_EINVAL;
	pes = json_object_get(run, "pes");
	row_of = rows_of(pes, &max_pe);
	if (!row_of) {
		json_decref(run);
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	b = bars_of(json_object_get(run, "timeline"), row_of, max_pe, shown_of(run).t_p, &n, why,
		    len);
	rc = b ? DLS_OK : DLS_EINVAL;
	snprintf(dat, sizeof(dat), "%s.dat", out);
	snprintf(gp, sizeof(gp), "%s.gp", out);
	snprintf(log, sizeof(log), "%s.log", out);
	if (!rc)
		rc = write_plot(dat, gp, out, run, b, n, pes, row_of, why, len);
	if (!rc)
		rc = run_gnuplot(gp, log, why, len);
	if (!rc) { /* the picture is what is kept; the log stays when gnuplot failed */
		unlink(dat);
		unlink(gp);
		unlink(log);
	}
	free(b);
	free(row_of);
	json_decref(run);
	return rc;
}
