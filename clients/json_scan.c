#include "json_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *json_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

int json_number(const char *text, const char *key, const char **from, double *out)
{
	char pat[128];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(from && *from ? *from : text, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	*out = strtod(p, &end);
	if (end == p)
		return -1;
	if (from)
		*from = end;
	return 0;
}
