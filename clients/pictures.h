/*
 * pictures.h - the pictures of a run drawn from its JSON at the end of
 * dls run and dls simulate: the Gantt chart (gantt.h) and the HTML report
 * (report_html.h).
 */
#ifndef DLS_PICTURES_H
#define DLS_PICTURES_H

#include <stddef.h>
#include <stdio.h>

/* A picture drawn from a run's JSON into a file: DLS_OK, or an error with why. */
typedef int (*picture_fn)(const char *json_path, const char *out, char *why, size_t len);

/*
 * Draws the Gantt chart into gantt and the report into report (either may
 * be NULL) from the run in json_path.  Each one drawn is said on `said`
 * after lead ("dls run: drew the Gantt chart in FILE"); a failure is said on
 * standard error after prog, naming the option.  0, or 1 at the first
 * failure.
 */
int pictures_draw(const char *json_path, const char *gantt, const char *report, const char *prog,
		  FILE *said, const char *lead);

/*
 * Exits 2 (a usage error of prog) when gantt does not name a .png or .svg
 * file or report a .html file; either may be NULL.
 */
void pictures_names_or_die(const char *prog, const char *gantt, const char *report);

#endif
