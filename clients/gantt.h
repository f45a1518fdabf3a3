/*
 * gantt.h - the picture of a master-slave run: a Gantt chart of its JSON's
 * "timeline", one row per PE, each chunk a bar coloured by its size, drawn
 * by gnuplot (`dls plot --gantt`, `dls run --gantt`).
 *
 * The master's clock is the chart's: a chunk's bar begins when it was given
 * or when the PE's chunk before it ended, whichever is later, and lasts
 * the compute time the slave measured for it (until its results came in,
 * when the slave reported none).  Gaps between bars are the PE's waits.
 */
#ifndef DLS_GANTT_H
#define DLS_GANTT_H

#include <stddef.h>

/*
 * Draws the run in json_path into out (its name ends in .png or .svg).
 * DLS_OK, or DLS_EINVAL (not a run's JSON with a timeline, another file
 * type), DLS_EIO (a file, or gnuplot, failed), with why.
 */
int gantt_draw(const char *json_path, const char *out, char *why, size_t len);

#endif
