/*
 * run_report.c - the end-of-run table, CSV, JSON and image files (see
 * run_report.h).
 */
#include "run_report.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "image_file.h"
#include "mandel.h"
#include "npy_file.h"
#include "timeline.h"
#include "out_files.h"
#include "verify_report.h"

void run_report_build(struct run_report *r, const struct dls_job *job, struct dls_status *snap,
		      const struct result_store *rs, const struct run_outputs *o, double clock_lead,
		      const struct run_report_tree *tree)
{
	memset(r, 0, sizeof(*r));
	r->job = *job;
	r->snap = *snap;
	snap->slaves = NULL;
	r->tree = tree;
	r->work = work_total_cost(&rs->work, rs->data);
	if (r->work && o->power && o->power->n && o->t_iter_ns > 0 && r->snap.elapsed > 0) {
		r->t_ideal =
		    emul_finish(o->power, clock_lead, (double)r->work * o->t_iter_ns * 1e-9) -
		    clock_lead;
		r->efficiency = r->t_ideal / r->snap.elapsed;
	}
}

void run_report_free(struct run_report *r)
{
	dls_status_free(&r->snap);
}

void run_report_tree_free(struct run_report_tree *t)
{
	free(t->unit_size);
	free(t->unit_count);
	free(t->chain);
	free(t->link_level);
	free(t->link_migrations);
	free(t->pair_from);
	free(t->pair_to);
	free(t->pair_count);
	memset(t, 0, sizeof(*t));
}

/* Tree Scheduling: the chain, Kim and Purtilo 1996's Table 2 and the links. */
static void tree_table(const struct run_report_tree *t, const struct dls_status *s, FILE *out)
{
	double collect = 0;

	if (!t)
		return;
	for (int i = 0; i < s->nslaves; i++)
		collect += s->slaves[i].times.t_collect;
	fprintf(out, t->piles ? "placement order:" : "chain (work flows right):");
	for (int k = 0; k < t->npes; k++)
		fprintf(out, " %d", t->chain[k]);
	fprintf(out, "\nmigrations %lld, iterations moved %lld; after failures %lld reassigned, "
		     "%lld computed twice\n",
		(long long)t->migrations, (long long)t->moved, (long long)t->reassigned,
		(long long)t->duplicates);
	fprintf(out, "migration units (size x times):");
	for (size_t k = 0; k < t->nunits; k++)
		fprintf(out, " %lldx%lld", (long long)t->unit_size[k], (long long)t->unit_count[k]);
	if (t->piles) {
		fprintf(out, "\nper pair (giver>receiver migrations):");
		for (size_t k = 0; k < t->npairs; k++)
			fprintf(out, " %d>%d %lld", t->pair_from[k], t->pair_to[k],
				(long long)t->pair_count[k]);
	} else {
		fprintf(out, "\nper link (left-right:level migrations):");
		for (int k = 0; k + 1 < t->npes; k++)
			fprintf(out, " %d-%d:%d %lld", t->chain[k], t->chain[k + 1],
				t->link_level[k], (long long)t->link_migrations[k]);
	}
	fprintf(out, "\nresult collection: %.3f s in reports, %.3f s a slave on average\n",
		collect, s->nslaves ? collect / s->nslaves : 0);
}

void run_report_set_loops(struct run_report *r, const struct run_report_loop *loops, size_t n)
{
	double ideal = 0;
	uint64_t work = 0;
	int known = 1;

	if (n < 2)
		return;
	r->loops = loops;
	r->nloops = n;
	for (size_t k = 0; k < n; k++) {
		ideal += loops[k].t_ideal;
		work += loops[k].work;
		known = known && loops[k].t_ideal > 0;
	}
	r->snap.elapsed = loops[n - 1].t_end - loops[0].t_start;
	r->work = work;
	r->t_ideal = known ? ideal : 0;
	r->efficiency = known && r->snap.elapsed > 0 ? ideal / r->snap.elapsed : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* min / median / max of n values (n >= 1), into out[3]. */
static void spread(double *v, size_t n, double out[3])
{
	qsort(v, n, sizeof(*v), cmp_double);
	out[0] = v[0];
	out[1] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out[2] = v[n - 1];
}

/* A run of many loops: how many, and the spread of a loop's T_p and E. */
static void loops_table(const struct run_report *r, FILE *out)
{
	double *v, tp[3], e[3];

	if (r->nloops < 2 || !(v = malloc(r->nloops * sizeof(*v))))
		return;
	for (size_t k = 0; k < r->nloops; k++)
		v[k] = r->loops[k].t_p;
	spread(v, r->nloops, tp);
	if (r->loops[0].loop > 0) /* a resumed master: the loops before were another's */
		fprintf(out, "loops %u to %u (those before ran before the master was resumed): ",
			(unsigned)r->loops[0].loop, (unsigned)r->loops[r->nloops - 1].loop);
	fprintf(out, "%zu loops; a loop's T_p %.3f / %.3f / %.3f s", r->nloops, tp[0], tp[1],
		tp[2]);
	if (r->t_ideal > 0) {
		for (size_t k = 0; k < r->nloops; k++)
			v[k] = r->loops[k].efficiency;
		spread(v, r->nloops, e);
		fprintf(out, ", E %.3f / %.3f / %.3f", e[0], e[1], e[2]);
	}
	fprintf(out, " (min / median / max)");
	if (r->nloops > 1) { /* what a loop after the first costs to begin */
		for (size_t k = 1; k < r->nloops; k++)
			v[k - 1] = r->loops[k].gap + r->loops[k].all_given;
		spread(v, r->nloops - 1, tp);
		fprintf(out,
			"; from a loop's last result to every slave holding a chunk of the "
			"next: %.2f ms median, %.2f ms at most",
			tp[1] * 1e3, tp[2] * 1e3);
	}
	fprintf(out, "; the run's:\n");
	free(v);
}

static json_t *loops_json(const struct run_report *r)
{
	json_t *a = json_array();

	for (size_t k = 0; a && k < r->nloops; k++) {
		const struct run_report_loop *l = &r->loops[k];

		json_array_append_new(
		    a, json_pack("{sIsIsfsfsfsIsfsf}", "loop", (json_int_t)l->loop, "iterations",
				 (json_int_t)l->iterations, "t_p", l->t_p, "t_ideal", l->t_ideal,
				 "efficiency", l->efficiency, "work", (json_int_t)l->work, "gap",
				 l->gap, "all_given", l->all_given));
	}
	return a;
}

void run_report_table(const struct run_report *r, FILE *out)
{
	const struct dls_job *c = &r->job;
	const struct dls_status *s = &r->snap;
	double error = 0, bias = 0;
	int64_t late = 0, chunks = 0;
	int w = 12; /* the name column fits the longest name (paths below hmasters) */
	char params[DLS_MAX_PARAMS * (DLS_PARAM_NAME_LEN + DLS_PARAM_VALUE_LEN + 2)];

	for (int i = 0; i < s->nslaves; i++)
		if ((int)strlen(s->slaves[i].name) > w)
			w = (int)strlen(s->slaves[i].name);

	run_report_params(c, params, sizeof(params));
	fprintf(out,
		"run '%s': scheme %s, %s (%s), %lld iterations, order %s, collect %s, %d slave%s\n",
		c->run_name, s->scheme, c->workload, params, (long long)c->iterations,
		iter_order_name((enum iter_order_mode)c->order), c->collect == DLS_COLLECT_END ? "end" : "piggyback",
		s->nslaves, s->nslaves == 1 ? "" : "s");
	fprintf(out, "%4s %-*s %6s %7s %10s %22s %8s\n", "PE", w, "name", "V", "chunks",
		"iterations", "T_com+wait/T_comp (s)", "state");
	for (int i = 0; i < s->nslaves; i++) {
		const struct dls_slave_status *p = &s->slaves[i];
		char times[48];

		snprintf(times, sizeof(times), "%.2f/%.2f", p->times.t_comwait, p->times.t_comp);
		fprintf(out, "%4d %-*s %6.2f %7lld %10lld %22s %8s\n", p->id, w, p->name,
			p->vpower, (long long)p->chunks, (long long)p->iterations, times,
			dls_slave_state_name(p->state));
		error += p->times.emul_error;
		bias += p->times.emul_bias;
		late += p->times.late_chunks;
		/* Tree Scheduling's slaves emulate every iteration on its own */
		chunks += r->tree ? p->iterations : p->chunks;
	}
	loops_table(r, out);
	fprintf(out, "T_p %.3f s", s->elapsed);
	if (r->t_ideal > 0)
		fprintf(out, "   T_ideal %.3f s   E %.3f", r->t_ideal, r->efficiency);
	fprintf(out, "\nwork %llu unit iterations; recomputations %d; requeued %lld iterations\n",
		(unsigned long long)r->work, s->recomputations, (long long)s->requeued);
	if (s->takebacks)
		fprintf(out, "take-back: %lld chunk tails, %lld iterations, went to idle slaves\n",
			(long long)s->takebacks, (long long)s->taken_back);
	verify_report_table(s, out);
	if (s->scheme_choices[0])
		fprintf(out, "scheme auto: %s\n", s->scheme_choices);
	if (chunks > 0 && (error > 0 || late > 0))
		fprintf(out,
			"emulation: chunks ended %.1f us off their emulated time on average "
			"(bias %+.1f us); %lld computed slower than emulated\n",
			error / chunks * 1e6, bias / chunks * 1e6, (long long)late);
	tree_table(r->tree, s, out);
}

static FILE *open_out(const char *path)
{
	FILE *f = out_file_open(path, "w");

	if (!f)
		log_err("cannot write '%s': %s", path, strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f)) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		return DLS_EIO;
	}
	return DLS_OK;
}

/* A CSV field quoted as RFC 4180 says: in quotes, with quotes doubled. */
static void csv_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int run_report_csv(const struct run_report *r, const char *path)
{
	FILE *f = open_out(path);

	if (!f)
		return DLS_EIO;
	fprintf(f, "pe,name,state,speed,vpower,acp,chunks,iterations,requeued_chunks,t_comwait,"
		   "t_comp,emul_error,emul_bias,late_chunks\n");
	for (int i = 0; i < r->snap.nslaves; i++) {
		const struct dls_slave_status *p = &r->snap.slaves[i];

		fprintf(f, "%d,", p->id);
		csv_quoted(f, p->name); /* a slave names itself: it may hold a comma */
		fprintf(f, ",%s,%.6g,%.6g,%lld,%lld,%lld,%lld,%.6f,%.6f,%.6f,%.6f,%lld\n",
			dls_slave_state_name(p->state), p->speed, p->vpower,
			(long long)p->acp, (long long)p->chunks, (long long)p->iterations,
			(long long)p->requeued_chunks, p->times.t_comwait, p->times.t_comp,
			p->times.emul_error, p->times.emul_bias, (long long)p->times.late_chunks);
	}
	return close_out(f, path);
}

/* An array of n int64 values. */
static json_t *int_array(const int64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t k = 0; a && k < n; k++)
		json_array_append_new(a, json_integer(v[k]));
	return a;
}

/* Tree Scheduling's figures as more members of o. */
static void tree_json(const struct run_report_tree *t, json_t *o)
{
	json_t *units, *chain;

	if (!t)
		return;
	units = json_array();
	chain = json_array();
	for (size_t k = 0; units && k < t->nunits; k++)
		json_array_append_new(units, json_pack("[II]", (json_int_t)t->unit_size[k],
						       (json_int_t)t->unit_count[k]));
	for (int k = 0; chain && k < t->npes; k++)
		json_array_append_new(chain, json_integer(t->chain[k]));
	json_object_set_new(o, "migrations", json_integer(t->migrations));
	json_object_set_new(o, "moved", json_integer(t->moved));
	json_object_set_new(o, "reassigned", json_integer(t->reassigned));
	json_object_set_new(o, "duplicates", json_integer(t->duplicates));
	json_object_set_new(o, "units", units);
	json_object_set_new(o, "chain", chain);
	json_object_set_new(o, "link_migrations",
			    int_array(t->link_migrations, t->npes > 1 ? (size_t)t->npes - 1 : 0));
	if (t->piles) {
		json_t *pairs = json_array();

		for (size_t k = 0; pairs && k < t->npairs; k++)
			json_array_append_new(pairs, json_pack("[iiI]", t->pair_from[k], t->pair_to[k],
							       (json_int_t)t->pair_count[k]));
		json_object_set_new(o, "pairs", pairs);
	}
}

/* One PE's row. */
/* Every chunk, as the JSON's "timeline": who got it, when, when its last
 * result came, what its slave measured (null: never, none). */
static json_t *timeline_json(const struct timeline *t)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < t->n; i++) {
		const struct timeline_chunk *c = &t->v[i];
		json_t *o = json_pack("{sisIsIsfsbsI}", "pe", c->pe, "first", (json_int_t)c->start,
				      "count", (json_int_t)c->count, "given", c->given, "cut",
				      c->cut, "delivered_iterations", (json_int_t)c->done);

		if (!o)
			continue;
		json_object_set_new(o, "delivered",
				    c->delivered >= 0 ? json_real(c->delivered) : json_null());
		json_object_set_new(o, "compute",
				    c->compute >= 0 ? json_real(c->compute) : json_null());
		if (c->copy)
			json_object_set_new(o, "copy", json_true());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *pe_json(const struct dls_slave_status *p)
{
	json_t *o = json_pack("{sisssssfsfsIsIsfsfsfsfsIsf}", "pe", p->id, "name", p->name, "state",
			 dls_slave_state_name(p->state), "speed", p->speed, "vpower", p->vpower,
			 "chunks", (json_int_t)p->chunks, "iterations", (json_int_t)p->iterations,
			 "t_comwait", p->times.t_comwait, "t_comp", p->times.t_comp, "emul_error",
			 p->times.emul_error, "emul_bias", p->times.emul_bias, "late_chunks",
			 (json_int_t)p->times.late_chunks, "t_collect", p->times.t_collect);

	if (o && p->distrusted) /* --verify found it returning wrong results */
		json_object_set_new(o, "distrusted", json_true());
	return o;
}

int run_report_json(const struct run_report *r, const char *path)
{
	const struct dls_job *c = &r->job;
	const struct dls_status *s = &r->snap;
	json_t *pes = json_array(), *params = json_object(), *o;
	int rc = DLS_OK;
	FILE *f;

	for (int i = 0; pes && i < s->nslaves; i++)
		json_array_append_new(pes, pe_json(&s->slaves[i]));
	for (int i = 0; params && i < c->nparams; i++)
		json_object_set_new(params, c->params[i].name, json_string(c->params[i].value));
	o = json_pack("{sssssssosssssisIsIsfsfsfsisIso}", "run", c->run_name, "scheme", s->scheme,
		      "workload", c->workload, "params", params, "order", iter_order_name((enum iter_order_mode)c->order), "collect",
		      c->collect == DLS_COLLECT_END ? "end" : "piggyback", "slaves", s->nslaves,
		      "iterations", (json_int_t)s->iterations, "work", (json_int_t)r->work, "t_p",
		      s->elapsed, "t_ideal", r->t_ideal, "efficiency", r->efficiency,
		      "recomputations", s->recomputations, "requeued", (json_int_t)s->requeued,
		      "pes", pes);
	if (!o)
		return DLS_ENOMEM;
	tree_json(r->tree, o);
	if (s->scheme_choices[0])
		json_object_set_new(o, "scheme_choices", json_string(s->scheme_choices));
	json_object_set_new(o, "takebacks", json_integer((json_int_t)s->takebacks));
	json_object_set_new(o, "taken_back", json_integer((json_int_t)s->taken_back));
	if (s->verify.fraction > 0)
		json_object_set_new(o, "verify", verify_report_json(s));
	if (r->timeline)
		json_object_set_new(o, "timeline", timeline_json(r->timeline));
	if (r->nloops > 1)
		json_object_set_new(o, "loops", loops_json(r));
	f = open_out(path);
	if (!f) {
		rc = DLS_EIO;
	} else {
		int bad = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					       JSON_REAL_PRECISION(9)) != 0;

		if (close_out(f, path)) {
			rc = DLS_EIO;
		} else if (bad) {
			log_err("cannot write '%s': the JSON did not fit", path);
			rc = DLS_EIO;
		}
	}
	json_decref(o);
	return rc;
}

/* Mandelbrot's PNG and PGM; DLS_OK, or DLS_EINVAL for another workload. */
static int image_files(const struct dls_job *c, const struct result_store *rs,
		       const struct run_outputs *o)
{
	struct mandel_params m;
	char why[200];
	int rc = DLS_OK;

	if (strcmp(c->workload, "mandelbrot") ||
	    mandel_params_from(c->params, (size_t)c->nparams, &m, why, sizeof(why))) {
		log_err("--png and --raw are Mandelbrot's images; workload '%s' writes --out FILE.npy",
			c->workload);
		return DLS_EINVAL;
	}
	if (o->png && image_file_write_png(o->png, (const uint16_t *)rs->data, m.width, m.height,
					   m.maxit))
		rc = DLS_EIO;
	if (o->raw && image_file_write_pgm16(o->raw, (const uint16_t *)rs->data, m.width, m.height))
		rc = DLS_EIO;
	return rc;
}

void run_report_params(const struct dls_job *job, char *out, size_t len)
{
	size_t at = 0;

	snprintf(out, len, "its defaults");
	for (int i = 0; i < job->nparams && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s=%s", i ? " " : "",
				       job->params[i].name, job->params[i].value);
}

int run_report_write(const struct run_report *r, const struct result_store *rs,
		     const struct run_outputs *o)
{
	const struct dls_job *c = &r->job;
	int rc = 0;

	if (!o->quiet)
		run_report_table(r, stdout);
	fflush(stdout);
	if ((o->png || o->raw) && image_files(c, rs, o))
		rc = 1;
	if (o->npy && npy_file_write(o->npy, rs->work.loop.dtype, rs->data, rs->work.loop.iterations,
				     rs->work.loop.result_bytes))
		rc = 1;
	if (o->csv && run_report_csv(r, o->csv))
		rc = 1;
	if (o->json && run_report_json(r, o->json))
		rc = 1;
	return rc;
}
