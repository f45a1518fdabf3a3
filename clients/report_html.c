/*
 * report_html.c - a run's report as one HTML file (see report_html.h).
 * Everything the page shows comes from the run's JSON; the Gantt chart is
 * gantt.c's SVG, placed inline so that the file stands alone.
 */
#include "report_html.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "cli_util.h"
#include "gantt.h"

static const char STYLE[] =
    "body{font-family:sans-serif;margin:2em auto;max-width:1150px;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #ccc;padding:3px 9px;text-align:right}"
    "th{background:#f0f0f0}.l{text-align:left}"
    "#figures td{font-size:1.3em}pre{background:#f7f7f7;padding:.6em;white-space:pre-wrap}"
    "footer{margin-top:2em;color:#777;font-size:.85em}";

/* Writes s with &, <, >, " escaped. */
static void put_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
}

static const char *str_of(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double num_of(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* The run in one line: scheme, workload and its parameters, the loop. */
static void summary(FILE *f, json_t *run)
{
	json_t *params = json_object_get(run, "params"), *v;
	const char *k;
	int first = 1;

	fputs("<p id=\"summary\">scheme <b>", f);
	put_text(f, str_of(run, "scheme"));
	fputs("</b>, workload ", f);
	put_text(f, str_of(run, "workload"));
	json_object_foreach(params, k, v)
	{
		if (!strcmp(k, "dls.loop")) /* the last loop's number: the loops table says */
			continue;
		fputs(first ? " (" : ", ", f);
		put_text(f, k);
		fputc('=', f);
		put_text(f, json_is_string(v) ? json_string_value(v) : "?");
		first = 0;
	}
	if (!first)
		fputc(')', f);
	fprintf(f, ", %lld iterations, order ", (long long)json_integer_value(json_object_get(run, "iterations")));
	put_text(f, str_of(run, "order"));
	fputs(", collection ", f);
	put_text(f, str_of(run, "collect"));
	fprintf(f, ", %lld slaves</p>\n", (long long)json_integer_value(json_object_get(run, "slaves")));
}

/* What --verify checked and found (PROTOCOL.md 19); nothing for a run
 * that did not verify. */
static void verified(FILE *f, json_t *run)
{
	json_t *v = json_object_get(run, "verify"), *liars = json_object_get(v, "liars"), *id;
	size_t i;

	if (!v)
		return;
	fprintf(f,
		"<p id=\"verify\">Results checked (verify %g): %lld iterations picked were "
		"computed again by other slaves, in %lld pieces; %lld agreed at once, %lld "
		"were settled by more copies.",
		num_of(v, "fraction"), (long long)json_integer_value(json_object_get(v, "iterations")),
		(long long)json_integer_value(json_object_get(v, "pieces")),
		(long long)json_integer_value(json_object_get(v, "agreed")),
		(long long)json_integer_value(json_object_get(v, "disputed")));
	if (json_array_size(liars)) {
		fputs(" <b>Wrong results</b> from PE", f);
		json_array_foreach(liars, i, id)
			fprintf(f, "%s %lld", i ? "," : "", (long long)json_integer_value(id));
		fprintf(f, ": dropped, and their %lld iterations computed again by others.",
			(long long)json_integer_value(json_object_get(v, "recomputed")));
	}
	if (json_integer_value(json_object_get(v, "unresolved")))
		fprintf(f, " <b>%lld pieces unresolved</b>: no two copies agreed.",
			(long long)json_integer_value(json_object_get(v, "unresolved")));
	fputs("</p>\n", f);
}

/* T_p, T_ideal and E, and what the master did besides handing out chunks. */
static void figures(FILE *f, json_t *run)
{
	double e = num_of(run, "efficiency"), ideal = num_of(run, "t_ideal");

	fprintf(f, "<table id=\"figures\"><tr><th>T<sub>p</sub></th><th>T<sub>ideal</sub></th>"
		   "<th>E = T<sub>ideal</sub> / T<sub>p</sub></th></tr>\n"
		   "<tr><td id=\"t_p\">%.3f s</td>",
		num_of(run, "t_p"));
	if (ideal > 0)
		fprintf(f, "<td id=\"t_ideal\">%.3f s</td><td id=\"efficiency\">%.3f</td></tr></table>\n",
			ideal, e);
	else
		fputs("<td id=\"t_ideal\">unknown (real mode)</td><td id=\"efficiency\">unknown</td>"
		      "</tr></table>\n",
		      f);
	fprintf(f,
		"<p>%lld unit iterations of work; %lld recomputations of the scheme's "
		"parameters; %lld iterations requeued from lost slaves; %lld chunk tails "
		"(%lld iterations) taken back for idle slaves.</p>\n",
		(long long)json_integer_value(json_object_get(run, "work")),
		(long long)json_integer_value(json_object_get(run, "recomputations")),
		(long long)json_integer_value(json_object_get(run, "requeued")),
		(long long)json_integer_value(json_object_get(run, "takebacks")),
		(long long)json_integer_value(json_object_get(run, "taken_back")));
	verified(f, run);
}

/* Chronopoulos et al. 2002's per-PE table. */
static void pe_table(FILE *f, json_t *pes)
{
	size_t i;
	json_t *p;

	fputs("<h2>Per PE</h2>\n<table id=\"pes\"><thead><tr><th>PE</th><th class=\"l\">name</th>"
	      "<th>V</th><th>chunks</th><th>iterations</th><th>T<sub>com+wait</sub> (s)</th>"
	      "<th>T<sub>comp</sub> (s)</th><th class=\"l\">state</th></tr></thead><tbody>\n",
	      f);
	json_array_foreach(pes, i, p)
	{
		fprintf(f, "<tr><td>%lld</td><td class=\"l\">",
			(long long)json_integer_value(json_object_get(p, "pe")));
		put_text(f, str_of(p, "name"));
		fprintf(f, "</td><td>%.2f</td><td>%lld</td><td>%lld</td><td>%.3f</td><td>%.3f</td>"
			   "<td class=\"l\">",
			num_of(p, "vpower"), (long long)json_integer_value(json_object_get(p, "chunks")),
			(long long)json_integer_value(json_object_get(p, "iterations")),
			num_of(p, "t_comwait"), num_of(p, "t_comp"));
		put_text(f, str_of(p, "state"));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* A run of many loops: each loop's T_p and E. */
static void loop_table(FILE *f, json_t *loops)
{
	size_t i;
	json_t *l;

	if (json_array_size(loops) < 2)
		return;
	fputs("<h2>Loops</h2>\n<table id=\"loops\"><thead><tr><th>loop</th><th>iterations</th>"
	      "<th>T<sub>p</sub> (s)</th><th>T<sub>ideal</sub> (s)</th><th>E</th>"
	      "<th>start after the loop before (s)</th></tr></thead><tbody>\n",
	      f);
	json_array_foreach(loops, i, l)
	fprintf(f, "<tr><td>%lld</td><td>%lld</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>"
		   "<td>%.6f</td></tr>\n",
		(long long)json_integer_value(json_object_get(l, "loop")),
		(long long)json_integer_value(json_object_get(l, "iterations")), num_of(l, "t_p"),
		num_of(l, "t_ideal"), num_of(l, "efficiency"), num_of(l, "gap"));
	fputs("</tbody></table>\n", f);
}

/* Copies the SVG file at path into f from its <svg element on: DLS_OK or DLS_EIO. */
static int inline_svg(FILE *f, const char *path, char *why, size_t len)
{
	FILE *in = fopen(path, "r");
	char *text = NULL, *svg;
	size_t cap = 0, n = 0, got;
	char buf[65536];

	if (!in) {
		snprintf(why, len, "cannot read '%s': %s", path, strerror(errno));
		return DLS_EIO;
	}
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (n + got + 1 > cap) {
			char *more = realloc(text, cap = 2 * (n + got + 1));

			if (!more) {
				free(text);
				fclose(in);
				snprintf(why, len, "out of memory");
				return DLS_EIO;
			}
			text = more;
		}
		memcpy(text + n, buf, got);
		n += got;
	}
	fclose(in);
	if (text)
		text[n] = '\0';
	svg = text ? strstr(text, "<svg") : NULL;
	if (!svg) {
		free(text);
		snprintf(why, len, "'%s' holds no SVG", path);
		return DLS_EIO;
	}
	fputs(svg, f);
	free(text);
	return DLS_OK;
}

/* The Gantt chart inline, or a line saying why there is none. */
static int gantt_section(FILE *f, const char *json_path, json_t *run, const char *out, char *why,
			 size_t len)
{
	char svg[4200];
	int rc;

	fputs("<h2>The schedule</h2>\n", f);
	if (json_array_size(json_object_get(run, "loops")) > 1)
		fputs("<p>The chunks of the run's last loop.</p>\n", f);
	fputs("<div id=\"gantt\">\n", f);
	if (!json_array_size(json_object_get(run, "timeline"))) {
		fputs("<p>This run keeps no timeline of chunks (Tree Scheduling and the balancing "
		      "policies move work among the slaves).</p>\n</div>\n",
		      f);
		return DLS_OK;
	}
	snprintf(svg, sizeof(svg), "%s.gantt.svg", out);
	rc = gantt_draw(json_path, svg, why, len);
	if (!rc)
		rc = inline_svg(f, svg, why, len);
	unlink(svg);
	fputs("</div>\n", f);
	return rc;
}

int report_html_write(const char *json_path, const char *out, char *why, size_t len)
{
	size_t n = strlen(out);
	char tmp[4200];
	json_error_t err;
	json_t *run;
	FILE *f;
	int rc;

	if (n < 6 || strcmp(out + n - 5, ".html")) {
		snprintf(why, len, "the report's name must end in .html");
		return DLS_EINVAL;
	}
	run = json_load_file(json_path, 0, &err);
	if (!run || !json_is_array(json_object_get(run, "pes"))) {
		snprintf(why, len, "not a run's JSON: %s", run ? "it has no \"pes\"" : err.text);
		json_decref(run);
		return DLS_EINVAL;
	}
	snprintf(tmp, sizeof(tmp), "%s.part", out); /* the report appears whole, or not */
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, len, "cannot write '%s': %s", tmp, strerror(errno));
		json_decref(run);
		return DLS_EIO;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>DLS run ", f);
	put_text(f, str_of(run, "run"));
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>DLS run &lsquo;", STYLE);
	put_text(f, str_of(run, "run"));
	fputs("&rsquo;</h1>\n", f);
	summary(f, run);
	figures(f, run);
	pe_table(f, json_object_get(run, "pes"));
	loop_table(f, json_object_get(run, "loops"));
	rc = gantt_section(f, json_path, run, out, why, len);
	if (*str_of(run, "scheme_choices")) {
		fputs("<h2>The scheme's decisions</h2>\n<pre id=\"decisions\">", f);
		put_text(f, str_of(run, "scheme_choices"));
		fputs("</pre>\n", f);
	}
	fprintf(f, "<footer>Made by dls %s from the run's JSON.</footer>\n</body></html>\n",
		cli_version());
	if (fclose(f) && !rc) {
		snprintf(why, len, "cannot write '%s': %s", tmp, strerror(errno));
		rc = DLS_EIO;
	}
	if (!rc && rename(tmp, out)) {
		snprintf(why, len, "cannot write '%s': %s", out, strerror(errno));
		rc = DLS_EIO;
	}
	if (rc)
		unlink(tmp);
	json_decref(run);
	return rc;
}
