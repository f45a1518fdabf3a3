/*
 * verify_report.h - what --verify did (PROTOCOL.md 19), as the run's table
 * says it and as its JSON holds it.
 */
#ifndef DLS_VERIFY_REPORT_H
#define DLS_VERIFY_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "dls_proto.h"

/* The lines under the per-PE table: nothing when the run did not verify. */
void verify_report_table(const struct dls_status *s, FILE *out);

/* The JSON object "verify" (new reference), or NULL when the run did not
 * verify. */
json_t *verify_report_json(const struct dls_status *s);

#endif
