/*
 * twolevel_record.c - a two-level hmaster's record for resuming it (see
 * twolevel_record.h), in JSON through jansson.  Capabilities are written
 * as 16 hex digits: JSON numbers (and jansson's integers) are signed.
 */
#include "twolevel_record.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"

static json_t *key_json(uint64_t key)
{
	char hex[17];

	snprintf(hex, sizeof(hex), "%016" PRIx64, key);
	return json_string(hex);
}

static json_t *record_json(const struct twolevel_record *r)
{
	json_t *o = json_object(), *children = json_array();

	if (!o || !children || json_object_set_new(o, "children", children)) {
		json_decref(o);
		return NULL;
	}
	if (json_object_set_new(o, "name", json_string(r->name)) ||
	    json_object_set_new(o, "slaves", json_integer(r->nslaves)) ||
	    json_object_set_new(o, "leaves", json_integer(r->leaves)) ||
	    json_object_set_new(o, "id", json_integer(r->my_id)) ||
	    json_object_set_new(o, "key", key_json(r->my_key))) {
		json_decref(o);
		return NULL;
	}
	for (int i = 0; i < r->nchildren; i++) {
		const struct twolevel_record_child *c = &r->children[i];

		if (json_array_append_new(children, json_pack("{s:s, s:f, s:o}", "name", c->name,
							      "vpower", c->vpower, "key",
							      key_json(c->key)))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

int twolevel_record_write(const char *path, const struct twolevel_record *r, char *why,
			  size_t len)
{
	char tmp[4200];
	json_t *o = record_json(r);
	int fd, rc = DLS_OK;

	if (!o) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "cannot create '%s': %s", tmp, strerror(errno));
		json_decref(o);
		return DLS_EIO;
	}
	if (json_dumpfd(o, fd, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) ||
	    fsync(fd)) {
		snprintf(why, len, "cannot write '%s': %s", tmp, strerror(errno));
		rc = DLS_EIO;
	}
	if (close(fd) && !rc) {
		snprintf(why, len, "cannot write '%s': %s", tmp, strerror(errno));
		rc = DLS_EIO;
	}
	if (!rc && rename(tmp, path)) {
		snprintf(why, len, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
		rc = DLS_EIO;
	}
	if (rc)
		unlink(tmp);
	json_decref(o);
	return rc;
}

/* A capability from its 16 hex digits: 0 and why on anything else. */
static int key_of(json_t *v, const char *what, uint64_t *key, char *why, size_t len)
{
	const char *s = json_string_value(v);

	if (!s || strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16) {
		snprintf(why, len, "%s: not a capability of 16 hex digits", what);
		return DLS_EINVAL;
	}
	*key = strtoull(s, NULL, 16);
	return DLS_OK;
}

/* An integer field in [lo, hi]. */
static int int_of(json_t *o, const char *field, int lo, int hi, int *out, char *why, size_t len)
{
	json_t *v = json_object_get(o, field);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		snprintf(why, len, "'%s': missing, or not an integer in [%d, %d]", field, lo, hi);
		return DLS_EINVAL;
	}
	*out = (int)json_integer_value(v);
	return DLS_OK;
}

static int child_of(json_t *c, int i, struct twolevel_record_child *out, char *why, size_t len)
{
	const char *name = json_string_value(json_object_get(c, "name"));
	json_t *vp = json_object_get(c, "vpower");
	char what[48];

	snprintf(what, sizeof(what), "child %d", i);
	if (!name || strlen(name) >= sizeof(out->name)) {
		snprintf(why, len, "%s: its name is missing or longer than %zu characters", what,
			 sizeof(out->name) - 1);
		return DLS_EINVAL;
	}
	if (!json_is_number(vp) || !isfinite(json_number_value(vp)) || json_number_value(vp) < 0) {
		snprintf(why, len, "%s: its V_i is missing or not a finite number >= 0", what);
		return DLS_EINVAL;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	out->vpower = json_number_value(vp);
	return key_of(json_object_get(c, "key"), what, &out->key, why, len);
}

static int record_of(json_t *o, struct twolevel_record *r, char *why, size_t len)
{
	const char *name = json_string_value(json_object_get(o, "name"));
	json_t *children = json_object_get(o, "children");
	int rc;

	if (!name || strlen(name) >= sizeof(r->name)) {
		snprintf(why, len, "'name': missing, or longer than %zu characters",
			 sizeof(r->name) - 1);
		return DLS_EINVAL;
	}
	snprintf(r->name, sizeof(r->name), "%s", name);
	rc = int_of(o, "slaves", 1, 1 << 16, &r->nslaves, why, len);
	if (!rc)
		rc = int_of(o, "leaves", 1, r->nslaves, &r->leaves, why, len);
	if (!rc)
		rc = int_of(o, "id", 0, 1 << 30, &r->my_id, why, len);
	if (!rc)
		rc = key_of(json_object_get(o, "key"), "'key'", &r->my_key, why, len);
	if (rc)
		return rc;
	if (!json_is_array(children) || json_array_size(children) < 1 ||
	    json_array_size(children) > (size_t)r->leaves) {
		snprintf(why, len, "'children': missing, or not 1 to %d of them", r->leaves);
		return DLS_EINVAL;
	}
	r->children = calloc(json_array_size(children), sizeof(*r->children));
	if (!r->children) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	r->nchildren = (int)json_array_size(children);
	for (int i = 0; !rc && i < r->nchildren; i++)
		rc = child_of(json_array_get(children, (size_t)i), i, &r->children[i], why, len);
	return rc;
}

int twolevel_record_read(const char *path, struct twolevel_record *r, char *why, size_t len)
{
	json_error_t err;
	json_t *o;
	int rc;

	memset(r, 0, sizeof(*r));
	if (access(path, F_OK)) {
		snprintf(why, len, "no record '%s': %s", path, strerror(errno));
		return DLS_ENOENT;
	}
	o = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
	if (!o) {
		snprintf(why, len, "record '%s' line %d: %s", path, err.line, err.text);
		return DLS_EINVAL;
	}
	if (json_is_object(o)) {
		char what[256] = "";

		rc = record_of(o, r, what, sizeof(what));
		if (rc)
			snprintf(why, len, "record '%s': %s", path, what);
	} else {
		rc = DLS_EINVAL;
		snprintf(why, len, "record '%s': not a JSON object", path);
	}
	json_decref(o);
	if (rc)
		twolevel_record_free(r);
	return rc;
}

void twolevel_record_free(struct twolevel_record *r)
{
	free(r->children);
	memset(r, 0, sizeof(*r));
}
