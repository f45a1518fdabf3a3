/*
 * run_json.c - a run's JSON summary read back (see run_json.h).
 */
#include "run_json.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

int run_json_read(const char *path, struct run_json *out)
{
	json_error_t err;
	json_t *o = json_load_file(path, 0, &err), *pes, *pe;
	size_t k;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!o) {
		fprintf(stderr, "dls: cannot read '%s': %s (line %d)\n", path, err.text, err.line);
		return -1;
	}
	if (json_unpack_ex(o, &err, 0, "{s:F, s:F, s:F}", "t_p", &out->t_p, "t_ideal",
			   &out->t_ideal, "efficiency", &out->efficiency)) {
		fprintf(stderr, "dls: '%s': %s\n", path, err.text);
		goto out;
	}
	json_unpack(o, "{s?:i}", "recomputations", &out->recomputations);
	pes = json_object_get(o, "pes");
	json_array_foreach(pes, k, pe) {
		json_int_t chunks = 0;
		double e = 0;

		json_unpack(pe, "{s?:I, s?:F}", "chunks", &chunks, "emul_error", &e);
		out->chunks += chunks;
		out->emul_error += e;
	}
	rc = 0;
out:
	json_decref(o);
	return rc;
}

int run_json_pe_times(const char *path, int n, double *comwait, double *comp)
{
	json_t *o = json_load_file(path, 0, NULL), *pe;
	size_t i;

	if (!o)
		return -1;
	json_array_foreach(json_object_get(o, "pes"), i, pe) {
		const char *name = NULL, *at;
		double cw = 0, c = 0;
		int k;

		if (json_unpack(pe, "{s:s, s:F, s:F}", "name", &name, "t_comwait", &cw, "t_comp", &c))
			continue;
		at = strstr(name, "slave.");
		if (!at || sscanf(at, "slave.%d", &k) != 1 || k < 0 || k >= n)
			continue;
		comwait[k] = cw;
		comp[k] = c;
	}
	json_decref(o);
	return 0;
}
