/*
 * cli_getopt.c - getopt_long with a clear line for each refusal (see
 * cli_getopt.h).
 */
#include "cli_getopt.h"

#include <stdio.h>
#include <string.h>

#include "cli_util.h"

/* Options that were renamed: a script that still says the old name is told
 * the new one. */
static const struct {
	const char *old, *now;
} renamed[] = {
    {"k", "chunk"},	{"X", "fiss-x"},   {"x", "fiss-x"},
    {"F", "tss-first"}, {"L", "tss-last"},
};

/* An old name, which GNU abbreviations would take for another option
 * (--k for --kill): refused with the new one. */
static void refuse_renamed(const char *prog, const char *token, const struct option *longopts)
{
	size_t n = strcspn(token + 2, "=");
	char cause[128];

	for (const struct option *o = longopts; o->name; o++)
		if (strlen(o->name) == n && !strncmp(o->name, token + 2, n))
			return; /* a name of this program's */
	for (size_t i = 0; i < sizeof(renamed) / sizeof(*renamed); i++)
		if (strlen(renamed[i].old) == n && !strncmp(renamed[i].old, token + 2, n)) {
			snprintf(cause, sizeof(cause), "unknown option: it is called --%s now",
				 renamed[i].now);
			cli_usage_error(prog, token, NULL, cause);
		}
}

/* Edit distance (insertions, deletions, substitutions, a swap of two
 * neighbours) between a and b, capped at 9. */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), d[32][32];

	if (la > 30 || lb > 30)
		return 9;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), v = sub;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb] > 9 ? 9 : d[la][lb];
}

const char *cli_nearest_option(const char *name, const struct option *longopts)
{
	const char *best = NULL;
	int best_d = 9, len = (int)strlen(name);

	for (const struct option *o = longopts; o->name; o++) {
		int d = distance(name, o->name);

		if (d < best_d) {
			best_d = d;
			best = o->name;
		}
	}
	/* close: at most 2 edits, and fewer than a third of the name */
	return best && best_d <= 2 && best_d * 3 <= len + 1 ? best : NULL;
}

/* The long options that `name` abbreviates, "--a, --b" into out: how many. */
static int abbreviates(const char *name, const struct option *longopts, char *out, size_t len)
{
	size_t n = strlen(name), at = 0;
	int k = 0;

	out[0] = '\0';
	for (const struct option *o = longopts; o->name; o++)
		if (!strncmp(o->name, name, n)) {
			if (at < len)
				at += (size_t)snprintf(out + at, len - at, "%s--%s", k ? ", " : "",
						       o->name);
			k++;
		}
	return k;
}

/* Why the long option in token (--name or --name=value) was refused. */
static void explain_long(const char *prog, const char *token, const struct option *longopts,
			 int missing)
{
	char name[64], cause[512], fits[400];
	const char *eq = strchr(token + 2, '='), *near;
	size_t n = eq ? (size_t)(eq - token - 2) : strlen(token + 2);

	snprintf(name, sizeof(name), "%.*s", (int)(n < 63 ? n : 63), token + 2);
	if (missing) {
		cli_usage_error(prog, token, NULL, "requires a value");
	}
	for (const struct option *o = longopts; o->name; o++)
		if (!strcmp(o->name, name) && eq && o->has_arg == no_argument)
			cli_usage_error(prog, token, NULL, "takes no value");
	for (size_t i = 0; i < sizeof(renamed) / sizeof(*renamed); i++)
		if (!strcmp(renamed[i].old, name)) {
			snprintf(cause, sizeof(cause), "unknown option: it is called --%s now",
				 renamed[i].now);
			cli_usage_error(prog, token, NULL, cause);
		}
	if (abbreviates(name, longopts, fits, sizeof(fits)) > 1) {
		snprintf(cause, sizeof(cause), "ambiguous: it could be %s", fits);
		cli_usage_error(prog, token, NULL, cause);
	}
	near = cli_nearest_option(name, longopts);
	if (near) {
		snprintf(cause, sizeof(cause), "unknown option; did you mean --%s?", near);
		cli_usage_error(prog, token, NULL, cause);
	}
	cli_usage_error(prog, token, NULL, "unknown option");
}

int cli_getopt(const char *prog, int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	char spec[128], opt[3] = "-?";
	int c;

	snprintf(spec, sizeof(spec), ":%s", shortopts); /* ':' tells a missing value */
	opterr = 0;
	optopt = 0;
	if (optind > 0 && optind < argc && !strncmp(argv[optind], "--", 2))
		refuse_renamed(prog, argv[optind], longopts);
	c = getopt_long(argc, argv, spec, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	if (optopt) { /* a short option, or a long one that has a short twin */
		const char *token = optind > 0 && optind <= argc ? argv[optind - 1] : "";

		if (!strncmp(token, "--", 2))
			explain_long(prog, token, longopts, c == ':');
		opt[1] = (char)optopt;
		cli_usage_error(prog, opt, NULL, c == ':' ? "requires a value" : "unknown option");
	}
	explain_long(prog, optind > 0 && optind <= argc ? argv[optind - 1] : "--", longopts,
		     c == ':');
	return c; /* not reached */
}
