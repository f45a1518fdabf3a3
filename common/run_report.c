/*
 * run_report.c - the end-of-run table, CSV, JSON and image files (see
 * run_report.h).
 */
#include "run_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "image_file.h"

void run_report_build(struct run_report *r, const struct run_report_job *job,
		      struct dls_status *snap, const uint16_t *image,
		      const struct run_outputs *o, const struct run_report_tree *tree)
{
	size_t n = (size_t)job->width * (size_t)job->height;

	memset(r, 0, sizeof(*r));
	r->job = *job;
	r->snap = *snap;
	snap->slaves = NULL;
	r->tree = tree;
	for (size_t i = 0; i < n; i++)
		r->work += image[i];
	if (o->power && o->power->n && o->t_iter_ns > 0 && r->snap.elapsed > 0) {
		r->t_ideal = emul_finish(o->power, 0, (double)r->work * o->t_iter_ns * 1e-9);
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
	memset(t, 0, sizeof(*t));
}

/* Tree Scheduling: the chain, seed 000's Table 2 and the links. */
static void tree_table(const struct run_report_tree *t, const struct dls_status *s, FILE *out)
{
	double collect = 0;

	if (!t)
		return;
	for (int i = 0; i < s->nslaves; i++)
		collect += s->slaves[i].times.t_collect;
	fprintf(out, "chain (work flows right):");
	for (int k = 0; k < t->npes; k++)
		fprintf(out, " %d", t->chain[k]);
	fprintf(out, "\nmigrations %lld, iterations moved %lld; after failures %lld reassigned, "
		     "%lld computed twice\n",
		(long long)t->migrations, (long long)t->moved, (long long)t->reassigned,
		(long long)t->duplicates);
	fprintf(out, "migration units (size x times):");
	for (size_t k = 0; k < t->nunits; k++)
		fprintf(out, " %lldx%lld", (long long)t->unit_size[k], (long long)t->unit_count[k]);
	fprintf(out, "\nper link (left-right:level migrations):");
	for (int k = 0; k + 1 < t->npes; k++)
		fprintf(out, " %d-%d:%d %lld", t->chain[k], t->chain[k + 1], t->link_level[k],
			(long long)t->link_migrations[k]);
	fprintf(out, "\nresult collection: %.3f s in reports, %.3f s a slave on average\n",
		collect, s->nslaves ? collect / s->nslaves : 0);
}

void run_report_table(const struct run_report *r, FILE *out)
{
	const struct run_report_job *c = &r->job;
	const struct dls_status *s = &r->snap;
	double error = 0, bias = 0;
	int64_t late = 0, chunks = 0;
	int w = 12; /* the name column fits the longest name (paths below hmasters) */

	for (int i = 0; i < s->nslaves; i++)
		if ((int)strlen(s->slaves[i].name) > w)
			w = (int)strlen(s->slaves[i].name);

	fprintf(out, "run '%s': scheme %s, %d x %d (maxit %d), order %s, collect %s, %d slaves\n",
		c->run_name, s->scheme, c->width, c->height, c->maxit, iter_order_name(c->order),
		c->collect == DLS_COLLECT_END ? "end" : "piggyback", s->nslaves);
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
	fprintf(out, "T_p %.3f s", s->elapsed);
	if (r->t_ideal > 0)
		fprintf(out, "   T_ideal %.3f s   E %.3f", r->t_ideal, r->efficiency);
	fprintf(out, "\nwork %llu unit iterations; recomputations %d; requeued %lld iterations\n",
		(unsigned long long)r->work, s->recomputations, (long long)s->requeued);
	if (chunks > 0 && (error > 0 || late > 0))
		fprintf(out,
			"emulation: chunks ended %.1f us off their emulated time on average "
			"(bias %+.1f us); %lld computed slower than emulated\n",
			error / chunks * 1e6, bias / chunks * 1e6, (long long)late);
	tree_table(r->tree, s, out);
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

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

int run_report_csv(const struct run_report *r, const char *path)
{
	FILE *f = open_out(path);

	if (!f)
		return DLS_EIO;
	fprintf(f, "pe,name,state,speed,vpower,acp,chunks,iterations,requeued_chunks,t_comwait,"
		   "t_comp,emul_error,emul_bias,late_chunks\n");
	for (int i = 0; i < r->snap.nslaves; i++) {
		const struct dls_slave_status *p = &r->snap.slaves[i];

		fprintf(f, "%d,%s,%s,%.6g,%.6g,%lld,%lld,%lld,%lld,%.6f,%.6f,%.6f,%.6f,%lld\n", p->id,
			p->name, dls_slave_state_name(p->state), p->speed, p->vpower,
			(long long)p->acp, (long long)p->chunks, (long long)p->iterations,
			(long long)p->requeued_chunks, p->times.t_comwait, p->times.t_comp,
			p->times.emul_error, p->times.emul_bias, (long long)p->times.late_chunks);
	}
	return close_out(f, path);
}

/* Tree Scheduling's figures as more JSON members (nothing otherwise). */
static void tree_json(const struct run_report_tree *t, FILE *f)
{
	if (!t)
		return;
	fprintf(f, ",\n  \"migrations\": %lld,\n  \"moved\": %lld,\n  \"reassigned\": %lld,\n"
		   "  \"duplicates\": %lld,\n  \"units\": [",
		(long long)t->migrations, (long long)t->moved, (long long)t->reassigned,
		(long long)t->duplicates);
	for (size_t k = 0; k < t->nunits; k++)
		fprintf(f, "%s[%lld, %lld]", k ? ", " : "", (long long)t->unit_size[k],
			(long long)t->unit_count[k]);
	fprintf(f, "],\n  \"chain\": [");
	for (int k = 0; k < t->npes; k++)
		fprintf(f, "%s%d", k ? ", " : "", t->chain[k]);
	fprintf(f, "],\n  \"link_migrations\": [");
	for (int k = 0; k + 1 < t->npes; k++)
		fprintf(f, "%s%lld", k ? ", " : "", (long long)t->link_migrations[k]);
	fprintf(f, "]");
}

int run_report_json(const struct run_report *r, const char *path)
{
	const struct run_report_job *c = &r->job;
	const struct dls_status *s = &r->snap;
	FILE *f = open_out(path);

	if (!f)
		return DLS_EIO;
	fprintf(f,
		"{\n  \"run\": \"%s\",\n  \"scheme\": \"%s\",\n  \"width\": %d,\n  \"height\": %d,\n"
		"  \"maxit\": %d,\n  \"order\": \"%s\",\n  \"collect\": \"%s\",\n"
		"  \"slaves\": %d,\n  \"iterations\": %lld,\n  \"work\": %llu,\n"
		"  \"t_p\": %.6f,\n  \"t_ideal\": %.6f,\n  \"efficiency\": %.6f,\n"
		"  \"recomputations\": %d,\n  \"requeued\": %lld,\n  \"pes\": [\n",
		c->run_name, s->scheme, c->width, c->height, c->maxit, iter_order_name(c->order),
		c->collect == DLS_COLLECT_END ? "end" : "piggyback", s->nslaves,
		(long long)s->iterations, (unsigned long long)r->work, s->elapsed, r->t_ideal,
		r->efficiency, s->recomputations, (long long)s->requeued);
	for (int i = 0; i < s->nslaves; i++) {
		const struct dls_slave_status *p = &s->slaves[i];

		fprintf(f,
			"    {\"pe\": %d, \"name\": \"%s\", \"state\": \"%s\", \"speed\": %.6g, "
			"\"vpower\": %.6g, \"chunks\": %lld, \"iterations\": %lld, "
			"\"t_comwait\": %.6f, \"t_comp\": %.6f, \"emul_error\": %.6f, "
			"\"emul_bias\": %.6f, "
			"\"late_chunks\": %lld, \"t_collect\": %.6f}%s\n",
			p->id, p->name, dls_slave_state_name(p->state), p->speed, p->vpower,
			(long long)p->chunks, (long long)p->iterations, p->times.t_comwait,
			p->times.t_comp, p->times.emul_error, p->times.emul_bias,
			(long long)p->times.late_chunks, p->times.t_collect,
			i + 1 < s->nslaves ? "," : "");
	}
	fprintf(f, "  ]");
	tree_json(r->tree, f);
	fprintf(f, "\n}\n");
	return close_out(f, path);
}

int run_report_write(const struct run_report *r, const uint16_t *image,
		     const struct run_outputs *o)
{
	const struct run_report_job *c = &r->job;
	int rc = 0;

	if (!o->quiet)
		run_report_table(r, stdout);
	fflush(stdout);
	if (o->png && image_file_write_png(o->png, image, c->width, c->height, c->maxit))
		rc = 1;
	if (o->raw && image_file_write_pgm16(o->raw, image, c->width, c->height))
		rc = 1;
	if (o->csv && run_report_csv(r, o->csv))
		rc = 1;
	if (o->json && run_report_json(r, o->json))
		rc = 1;
	return rc;
}
