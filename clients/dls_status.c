/*
 * dls status - what a running master is doing: progress and per-slave state.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_cmds.h"
#include "dls/err.h"
#include "orb_util.h"
#include "status_client.h"

#define PROG "dls status"

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct dls_slave_status *)a)->name,
		      ((const struct dls_slave_status *)b)->name);
}

/*
 * Prints the rows of s as a tree below indentation `base`: relay hmasters
 * appear in their slaves' path names (hmaster.0.1/slave.3); a two-level
 * hmaster is one row of its parent, and its own slaves are asked of it.
 */
static void print_rows(const char *run, struct dls_status *s, int base, int level)
{
	qsort(s->slaves, (size_t)s->nslaves, sizeof(*s->slaves), by_name);
	for (int i = 0; i < s->nslaves; i++) {
		const struct dls_slave_status *p = &s->slaves[i];
		const char *prev = i ? s->slaves[i - 1].name : "", *leaf = p->name;
		int depth = base;
		char label[128];

		for (const char *ch = p->name; *ch; ch++) {
			size_t upto = (size_t)(ch - p->name) + 1;

			if (*ch != '/')
				continue;
			/* an hmaster line where this prefix first appears */
			if (strncmp(prev, p->name, upto))
				printf("%*s%.*s\n", 2 * depth, "", (int)(ch - leaf), leaf);
			depth++;
			leaf = ch + 1;
		}
		snprintf(label, sizeof(label), "%*s%s", 2 * depth, "", leaf);
		printf("%-32s %4d %-10s %6.2f %4lld %7lld %10lld %8lld\n", label, p->id,
		       dls_slave_state_name(p->state), p->vpower, (long long)p->acp,
		       (long long)p->chunks, (long long)p->iterations, (long long)p->held);
		if (!strchr(p->name, '/') && !strncmp(p->name, "hmaster.", 8) && level < 8) {
			struct dls_status sub;
			char why[256];

			if (status_fetch(run, p->name, &sub, why, sizeof(why)) == DLS_OK) {
				print_rows(run, &sub, depth + 1, level + 1);
				dls_status_free(&sub);
			} else {
				printf("%*s(its slaves: %s)\n", 2 * depth + 2, "", why);
			}
		}
	}
}

static void help(void)
{
	printf("usage: dls status [--run NAME] [--tls-dir D] -ORBInitRef NameService=ADDRESS\n\n"
	       "Queries the master bound at DLS/NAME/master (default run: dls), and\n"
	       "each two-level hmaster below it for its own slaves; or Tree\n"
	       "Scheduling's coordinator (DLS/NAME/treesched), whose chain it lists\n"
	       "left to right with what each slave got, computed and holds.\n\n"
	       "  --tls-dir D   a run on TLS: this host's folder of dls tls init (or of\n"
	       "                dls run --tls: RUNDIR/tls/localhost)\n");
}

int dls_cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {{"run", required_argument, 0, 'r'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	const char *run = "dls";
	struct dls_status s;
	char why[256];
	int c, rc;

	rc = cli_server_start(PROG, &argc, argv, help, 5000);
	if (rc)
		return rc > 0 ? 0 : 1;
	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'r':
			run = optarg;
			break;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			dls_orb_destroy();
			return 2;
		}
	}
	rc = status_fetch(run, "master", &s, why, sizeof(why));
	if (rc == DLS_ENOENT) /* Tree Scheduling: the coordinator */
		rc = status_fetch(run, "treesched", &s, why, sizeof(why));
	if (rc) {
		dls_orb_destroy();
		fprintf(stderr, PROG ": cannot query the master of run '%s': %s\n", run, why);
		return 1;
	}
	printf("run '%s': scheme %s, %lld/%lld iterations delivered, %lld assigned, "
	       "%d recomputations, %.2f s%s\n",
	       run, s.scheme, (long long)s.delivered, (long long)s.iterations,
	       (long long)s.assigned, s.recomputations, s.elapsed, s.done ? ", done" : "");
	if (!strcmp(s.scheme, "trees")) { /* the coordinator lists its chain in order */
		printf("%-32s %4s %-10s %6s %7s %10s %8s\n", "chain (work flows down)", "PE",
		       "state", "V", "got", "computed", "holds");
		for (int i = 0; i < s.nslaves; i++) {
			const struct dls_slave_status *p = &s.slaves[i];

			printf("  %-30s %4d %-10s %6.2f %7lld %10lld %8lld\n", p->name, p->id,
			       dls_slave_state_name(p->state), p->vpower, (long long)p->chunks,
			       (long long)p->iterations, (long long)p->held);
		}
	} else {
		printf("%-32s %4s %-10s %6s %4s %7s %10s %8s\n", "tree (master, hmasters, slaves)",
		       "PE", "state", "V", "A", "chunks", "iterations", "held");
		printf("master\n");
		print_rows(run, &s, 1, 0);
	}
	dls_status_free(&s);
	dls_orb_destroy();
	return 0;
}
