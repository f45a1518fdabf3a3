/*
 * verify_report.c - what --verify did, for the table and the JSON (see
 * verify_report.h).
 */
#include "verify_report.h"

void verify_report_table(const struct dls_status *s, FILE *out)
{
	const struct dls_verify_status *v = &s->verify;

	if (!(v->fraction > 0))
		return;
	fprintf(out,
		"verify %g: %lld iterations picked, computed again by other slaves in %lld "
		"pieces: %lld agreed, %lld settled by more copies",
		v->fraction, (long long)v->iterations, (long long)v->pieces, (long long)v->agreed,
		(long long)v->disputed);
	if (v->of_liars)
		fprintf(out, ", %lld were a liar's", (long long)v->of_liars);
	fputc('\n', out);
	if (v->liars) {
		fprintf(out, "verify: wrong results from");
		for (int i = 0; i < s->nslaves; i++)
			if (s->slaves[i].distrusted)
				fprintf(out, " slave %d '%s'", s->slaves[i].id, s->slaves[i].name);
		if (v->recomputed)
			fprintf(out, "; their %lld iterations were computed again by others\n",
				(long long)v->recomputed);
		else /* caught on a copy, before any result of theirs was taken */
			fprintf(out, "; none of their results had been taken: nothing to compute "
				     "again\n");
	}
	if (v->unverifiable)
		fprintf(out, "verify: %lld pieces picked had no other slave to check them\n",
			(long long)v->unverifiable);
	if (v->unresolved)
		fprintf(out, "verify: %lld pieces UNRESOLVED: no two copies agreed\n",
			(long long)v->unresolved);
}

json_t *verify_report_json(const struct dls_status *s)
{
	const struct dls_verify_status *v = &s->verify;
	json_t *liars;

	if (!(v->fraction > 0))
		return NULL;
	liars = json_array();
	for (int i = 0; liars && i < s->nslaves; i++)
		if (s->slaves[i].distrusted)
			json_array_append_new(liars, json_integer(s->slaves[i].id));
	return json_pack("{sf sI sI sI sI sI sI sI sI sI sI so}", "fraction", v->fraction, "pieces",
			 (json_int_t)v->pieces, "iterations", (json_int_t)v->iterations, "agreed",
			 (json_int_t)v->agreed, "disputed", (json_int_t)v->disputed, "of_liars",
			 (json_int_t)v->of_liars, "copies", (json_int_t)v->copies, "copied",
			 (json_int_t)v->copied, "unverifiable", (json_int_t)v->unverifiable,
			 "unresolved", (json_int_t)v->unresolved, "recomputed",
			 (json_int_t)v->recomputed, "liars", liars ? liars : json_array());
}
