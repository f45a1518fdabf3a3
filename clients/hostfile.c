#define _POSIX_C_SOURCE 200809L
#include "hostfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opt.h"

/* A host name or address: printable, no shell or template metacharacters. */
static const char *name_cause(const char *s, size_t max)
{
	if (!*s || strlen(s) >= max)
		return "must be 1..63 characters (addresses 1..255)";
	for (const char *p = s; *p; p++)
		if (!(*p == '.' || *p == '-' || *p == '_' || *p == ':' || *p == '%' ||
		      (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return "may hold only letters, digits and . - _ : %";
	return NULL;
}

/* Applies one KEY=VALUE of a host line; NULL or the cause. */
static const char *host_key(struct host *h, const char *tok)
{
	const char *eq = strchr(tok, '='), *v, *cause;
	int64_t slots;

	if (!eq)
		return "must be KEY=VALUE (addr, slots, speed or load)";
	v = eq + 1;
	if (!strncmp(tok, "addr=", 5)) {
		if ((cause = name_cause(v, sizeof(h->addr))))
			return cause;
		snprintf(h->addr, sizeof(h->addr), "%s", v);
	} else if (!strncmp(tok, "slots=", 6)) {
		if ((cause = cli_parse_i64(v, 0, 4096, &slots)))
			return cause;
		h->slots = (int)slots;
	} else if (!strncmp(tok, "speed=", 6)) {
		if ((cause = cli_parse_double(v, 1e-6, 1e6, &h->speed)))
			return cause;
		h->has_speed = 1;
	} else if (!strncmp(tok, "load=", 5)) {
		if ((cause = emul_steps_parse(v, &h->load)))
			return cause;
		h->has_load = 1;
	} else {
		return "unknown key (addr, slots, speed or load)";
	}
	return NULL;
}

/* Parses one line (comment removed) into h; 0 for a host, 1 for a blank
 * line, -1 with why filled. */
static int host_line(char *line, struct host *h, const char *where, char *why, size_t len)
{
	char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
	const char *cause;

	if (!tok)
		return 1;
	memset(h, 0, sizeof(*h));
	if ((cause = name_cause(tok, sizeof(h->name)))) {
		snprintf(why, len, "%s: host name '%s': %s", where, tok, cause);
		return -1;
	}
	snprintf(h->name, sizeof(h->name), "%s", tok);
	snprintf(h->addr, sizeof(h->addr), "%s", tok);
	h->slots = 1;
	h->speed = 1;
	emul_steps_const(&h->load, 1);
	while ((tok = strtok_r(NULL, " \t\r\n", &save)))
		if ((cause = host_key(h, tok))) {
			snprintf(why, len, "%s: '%s': %s", where, tok, cause);
			return -1;
		}
	return 0;
}

int hostfile_read(const char *path, struct hostfile *hf, char *why, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[4096], where[4200];
	int lineno = 0, rc = 0;

	hf->n = 0;
	if (!f) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		struct host *h = &hf->host[hf->n];

		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(why, len, "%s: a line longer than %zu characters", where,
				 sizeof(line) - 2);
			rc = -1;
			break;
		}
		line[strcspn(line, "#")] = 0; /* the comment */
		if (hf->n == HOSTFILE_MAX) {
			snprintf(why, len, "%s: more than %d hosts", where, HOSTFILE_MAX);
			rc = -1;
		} else if ((rc = host_line(line, h, where, why, len)) == 1) {
			rc = 0;
		} else if (!rc) {
			for (int i = 0; i < hf->n && !rc; i++)
				if (!strcmp(hf->host[i].name, h->name)) {
					snprintf(why, len, "%s: host '%s' is listed twice (host %d "
						 "already)", where, h->name, i + 1);
					rc = -1;
				}
			hf->n += !rc;
		}
	}
	fclose(f);
	if (!rc && hf->n == 0) {
		snprintf(why, len, "%s: no host in it", path);
		rc = -1;
	}
	return rc;
}

int hostfile_slots(const struct hostfile *hf)
{
	int n = 0;

	for (int i = 0; i < hf->n; i++)
		n += hf->host[i].slots;
	return n;
}

int hostfile_host_of(const struct hostfile *hf, int i)
{
	for (int h = 0; h < hf->n; h++) {
		if (i < hf->host[h].slots)
			return h;
		i -= hf->host[h].slots;
	}
	return -1;
}
