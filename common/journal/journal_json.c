/*
 * journal_json.c - JSON pieces shared by the journals (see journal_json.h).
 */
#include "journal_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "times_bound.h"

json_t *journal_key_json(uint64_t key)
{
	char hex[17];

	snprintf(hex, sizeof(hex), "%016" PRIx64, key);
	return json_string(hex);
}

int journal_key_from_json(const json_t *v, uint64_t *key)
{
	const char *hex = json_string_value(v);
	char *end;

	if (!hex || strlen(hex) != 16)
		return DLS_EINVAL;
	*key = strtoull(hex, &end, 16);
	return *end ? DLS_EINVAL : DLS_OK;
}

/* Written bounded as the cores keep them (times_bound.h): JSON has no NaN
 * or infinity, and the replay bounds them again to the same values. */
json_t *journal_times_json(const struct dls_times *t)
{
	struct dls_times b = *t;

	times_bound(&b);
	return json_pack("[f, f, f, f, I, f]", b.t_comp, b.t_comwait, b.emul_error, b.emul_bias,
			 (json_int_t)b.late_chunks, b.t_collect);
}

int journal_times_from_json(json_t *v, struct dls_times *t)
{
	json_int_t late;

	if (json_unpack(v, "[F, F, F, F, I, F]", &t->t_comp, &t->t_comwait, &t->emul_error,
			&t->emul_bias, &late, &t->t_collect))
		return DLS_EINVAL;
	t->late_chunks = late;
	return DLS_OK;
}

json_t *journal_params_json(const struct dls_param *params, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_pack("[s, s]", params[i].name, params[i].value));
	return a;
}

int journal_copy_str(char *dst, size_t size, const char *src, const char *what, char *why,
		     size_t len)
{
	if (strlen(src) >= size) {
		snprintf(why, len, "the journal's %s '%s' is too long", what, src);
		return DLS_EINVAL;
	}
	memcpy(dst, src, strlen(src) + 1);
	return DLS_OK;
}

int journal_params_from_json(json_t *v, struct dls_param *params, int *n, char *why,
			     size_t len)
{
	*n = 0;
	if (!json_is_array(v) || json_array_size(v) > DLS_MAX_PARAMS) {
		snprintf(why, len, "the journal's parameters: not a list of at most %d",
			 DLS_MAX_PARAMS);
		return DLS_EINVAL;
	}
	for (size_t i = 0; i < json_array_size(v); i++) {
		const char *name, *value;

		if (json_unpack(json_array_get(v, i), "[s, s]", &name, &value)) {
			snprintf(why, len, "the journal's parameter %zu is not [name, value]", i);
			return DLS_EINVAL;
		}
		if (journal_copy_str(params[i].name, sizeof(params[i].name), name, "parameter",
				     why, len) ||
		    journal_copy_str(params[i].value, sizeof(params[i].value), value, "value", why,
				     len))
			return DLS_EINVAL;
		(*n)++;
	}
	return DLS_OK;
}
