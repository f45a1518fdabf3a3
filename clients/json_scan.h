/*
 * json_scan.h - reads numbers out of the flat JSON files that DLS itself
 * writes (dls-master --json): enough for `dls bench`, not a JSON parser.
 */
#ifndef DLS_JSON_SCAN_H
#define DLS_JSON_SCAN_H

#include <stddef.h>

/* The whole file as a NUL-terminated string (caller frees), or NULL. */
char *json_slurp(const char *path);

/*
 * The number after the first "key": at or after *from in text; advances
 * *from past it when from is not NULL.  0 with *out set, or -1.
 */
int json_number(const char *text, const char *key, const char **from, double *out);

#endif
