/*
 * pictures.c - a run's pictures at its end (see pictures.h).
 */
#include "pictures.h"

#include <string.h>

#include "cli_util.h"
#include "gantt.h"
#include "report_html.h"

int pictures_draw(const char *json_path, const char *gantt, const char *report, const char *prog,
		  FILE *said, const char *lead)
{
	const struct {
		const char *opt, *out, *done;
		picture_fn draw;
	} pics[] = {{"--gantt", gantt, "drew the Gantt chart", gantt_draw},
		    {"--report", report, "wrote the report", report_html_write}};
	char why[512];

	for (size_t i = 0; i < sizeof(pics) / sizeof(*pics); i++) {
		if (!pics[i].out)
			continue;
		if (pics[i].draw(json_path, pics[i].out, why, sizeof(why))) {
			fprintf(stderr, "%s: %s '%s': %s\n", prog, pics[i].opt, pics[i].out, why);
			return 1;
		}
		fprintf(said, "%s%s in %s\n", lead, pics[i].done, pics[i].out);
	}
	return 0;
}

/* Whether name ends in ext (".png") with a name before it. */
static int named(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);

	return n > e && !strcmp(name + n - e, ext);
}

void pictures_names_or_die(const char *prog, const char *gantt, const char *report)
{
	if (gantt && !named(gantt, ".png") && !named(gantt, ".svg"))
		cli_usage_error(prog, "--gantt", gantt, "must name a .png or .svg file");
	if (report && !named(report, ".html"))
		cli_usage_error(prog, "--report", report, "must name a .html file");
}
