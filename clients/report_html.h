/*
 * report_html.h - a run's report as one HTML file that opens in any
 * browser without a server (`dls run --report`, `dls plot --report`): the
 * run's figures (T_p, T_ideal, E), the per-PE table, the loops of a run of
 * many, the scheme's decisions, and the Gantt chart inline as SVG.
 */
#ifndef DLS_REPORT_HTML_H
#define DLS_REPORT_HTML_H

#include <stddef.h>

/*
 * Writes the report of the run in json_path (its JSON, as dls run --json
 * writes it) to out, a name ending in .html.  The Gantt chart is drawn
 * when the JSON has a timeline (a master-slave run); without one the
 * report says so.  DLS_OK, or DLS_EINVAL (not a run's JSON, or out not
 * .html), DLS_EIO (a file, or gnuplot, failed), with why.
 */
int report_html_write(const char *json_path, const char *out, char *why, size_t len);

#endif
