/*
 * dls status - what a running master is doing: progress and per-slave state.
 */
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	printf("usage: dls status --dir RUNDIR           (a run of dls run)\n"
	       "       dls status --run NAME                 (a run of dls run on this host)\n"
	       "       dls status                            (in a run's folder)\n"
	       "       dls status [--run NAME] [--tls-dir D] -ORBInitRef NameService=ADDRESS\n\n"
	       "Queries the master bound at DLS/NAME/master (default run: dls), and\n"
	       "each two-level hmaster below it for its own slaves; or Tree\n"
	       "Scheduling's coordinator (DLS/NAME/treesched), whose chain it lists\n"
	       "left to right with what each slave got, computed and holds.\n\n"
	       "  --dir RUNDIR  the folder of a run of dls run (its --dir, or the one it\n"
	       "                names at its start): its naming service, name and TLS\n"
	       "                folder are read there; without -ORBInitRef, the current\n"
	       "                folder when it is one, else the folder of the newest run\n"
	       "                named --run that dls run made in /tmp, else the naming\n"
	       "                service omniORB's configuration names\n"
	       "  --run NAME    the run's name\n"
	       "  --tls-dir D   a run on TLS: this host's folder of dls tls init (or of\n"
	       "                dls run --tls: RUNDIR/tls/localhost)\n");
}

/* The first line of DIR/NAME into out; 0, or -1 when there is none. */
static int read_line(const char *dir, const char *name, char *out, size_t len)
{
	char path[4200];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return ok && out[0] ? 0 : -1;
}

/* The newest folder /tmp/dls-run-* of dls run whose run.name is `run`. */
static int find_run_dir(const char *run, char *dir, size_t len)
{
	double newest = -1;
	char name[128];
	glob_t g;

	if (glob("/tmp/dls-run-*/run.name", 0, NULL, &g))
		return -1;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *d = strdup(g.gl_pathv[i]);
		struct stat st;

		if (!d)
			break;
		*strrchr(d, '/') = '\0';
		if (!read_line(d, "run.name", name, sizeof(name)) && !strcmp(name, run) &&
		    !stat(g.gl_pathv[i], &st) && (double)st.st_mtime > newest) {
			newest = (double)st.st_mtime;
			snprintf(dir, len, "%s", d);
		}
		free(d);
	}
	globfree(&g);
	return newest >= 0 ? 0 : -1;
}

/*
 * A run of dls run found by its folder (--dir, the current folder, or its
 * name in /tmp): argv gains -ORBInitRef NameService=..., --run and
 * --tls-dir from the folder, and loses --dir.  Exits 2 for a --dir that
 * is not a run's folder.
 */
static void from_run_dir(int *argc, char ***argv)
{
	static char ns[600], run[128], tls[4300], dir[4096], *out[256];
	char addr[512];
	const char *given_run = NULL;
	int n = 0, has_ns = 0, has_tls = 0, given_dir = 0;

	for (int i = 1; i < *argc; i++) {
		const char *a = (*argv)[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "--version"))
			return; /* cli_server_start answers those */
		if (!strcmp(a, "-ORBInitRef"))
			has_ns = 1;
		else if (!strcmp(a, "--tls-dir"))
			has_tls = 1;
		else if (!strcmp(a, "--run") && i + 1 < *argc)
			given_run = (*argv)[i + 1];
		else if (!strncmp(a, "--run=", 6))
			given_run = a + 6;
	}
	for (int i = 0; i < *argc && n < 240; i++) {
		if (!strcmp((*argv)[i], "--dir") && i + 1 < *argc) {
			snprintf(dir, sizeof(dir), "%s", (*argv)[++i]);
			given_dir = 1;
		} else if (!strncmp((*argv)[i], "--dir=", 6)) {
			snprintf(dir, sizeof(dir), "%s", (*argv)[i] + 6);
			given_dir = 1;
		} else {
			out[n++] = (*argv)[i];
		}
	}
	if (!given_dir) {
		if (has_ns)
			return;
		/* else the ORB's own configuration may name a naming service */
		if (!access("names.address", R_OK))
			snprintf(dir, sizeof(dir), ".");
		else if (!given_run || find_run_dir(given_run, dir, sizeof(dir)))
			return;
	}
	if (access(dir, F_OK))
		cli_usage_error(PROG, "--dir", dir,
				"no such folder (dls run removes a run's folder when the run "
				"succeeds: the run is over)");
	if (read_line(dir, "names.address", addr, sizeof(addr)))
		cli_usage_error(PROG, "--dir", dir,
				"no names.address there: not the folder of a run of dls run");
	snprintf(ns, sizeof(ns), "NameService=%s", addr);
	out[n++] = "-ORBInitRef";
	out[n++] = ns;
	if (!given_run && !read_line(dir, "run.name", run, sizeof(run))) {
		out[n++] = "--run";
		out[n++] = run;
	}
	snprintf(tls, sizeof(tls), "%s/tls/localhost", dir);
	if (!has_tls && !access(tls, R_OK)) {
		out[n++] = "--tls-dir";
		out[n++] = tls;
	}
	out[n] = NULL;
	*argc = n;
	*argv = out;
}

int dls_cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {{"run", required_argument, 0, 'r'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	const char *run = "dls";
	struct dls_status s;
	char loop[48] = "";
	char why[256];
	int c, rc;

	from_run_dir(&argc, &argv);
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
	if (rc == DLS_ENOENT) { /* neither is bound: the run is over, or not begun */
		dls_orb_destroy();
		fprintf(stderr,
			PROG ": run '%s' is not running: nothing is bound under DLS/%s (it ended, "
			     "or has not started)\n",
			run, run);
		return 1;
	}
	if (rc) {
		dls_orb_destroy();
		fprintf(stderr,
			PROG ": cannot query the master of run '%s': %s (a run of dls run that "
			     "ended took its naming service with it)\n",
			run, why);
		return 1;
	}
	if (s.loops > 1)
		snprintf(loop, sizeof(loop), "loop %u of %u: ", (unsigned)s.loop + 1,
			 (unsigned)s.loops);
	printf("run '%s': scheme %s, %s%lld/%lld iterations delivered, %lld assigned, "
	       "%d recomputations, %.2f s%s\n",
	       run, s.scheme, loop, (long long)s.delivered, (long long)s.iterations,
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
