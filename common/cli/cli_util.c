#define _POSIX_C_SOURCE 200809L
#include "cli_util.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <malloc.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_opt.h"
#include "dls/err.h"
#include "dls_log.h"
#include "dls/workload.h"
#include "net_addr.h"
#include "run_auth.h"
#include "run_report.h"
#include "orb_util.h"
#include "out_files.h"

const char *cli_version(void)
{
	return DLS_VERSION;
}

void cli_usage_error(const char *prog, const char *opt, const char *value, const char *cause)
{
	if (value)
		fprintf(stderr, "%s: %s '%s': %s\n", prog, opt, value, cause);
	else
		fprintf(stderr, "%s: %s: %s\n", prog, opt, cause);
	fprintf(stderr, "try '%s --help'\n", prog);
	exit(2);
}

void cli_param_or_die(const char *prog, const char *opt, struct dls_param *params, int *n,
		      const char *name, const char *value)
{
	char key[DLS_PARAM_NAME_LEN];
	int rc;

	if (!name) {
		const char *eq = strchr(value, '=');

		if (!eq || eq == value || (size_t)(eq - value) >= sizeof(key))
			cli_usage_error(prog, opt, value, "must be NAME=VALUE, NAME of 1..31 characters");
		snprintf(key, sizeof(key), "%.*s", (int)(eq - value), value);
		name = key;
		value = eq + 1;
	}
	rc = dls_params_set(params, n, name, value);
	if (rc)
		cli_usage_error(prog, opt, value,
				rc == DLS_ENOMEM ? "too many parameters (16 at most)"
						 : "a value of at most 63 characters");
}

void cli_keep_message_buffers(void)
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

int64_t cli_i64_or_die(const char *prog, const char *opt, const char *value, int64_t min,
		       int64_t max)
{
	int64_t v = 0;
	const char *cause = cli_parse_i64(value, min, max, &v);

	if (cause)
		cli_usage_error(prog, opt, value, cause);
	return v;
}

double cli_double_or_die(const char *prog, const char *opt, const char *value, double min,
			 double max)
{
	double v = 0;
	const char *cause = cli_parse_double(value, min, max, &v);

	if (cause)
		cli_usage_error(prog, opt, value, cause);
	return v;
}

int cli_on_off_or_die(const char *prog, const char *opt, const char *value)
{
	if (!strcmp(value, "on"))
		return 1;
	if (!strcmp(value, "off"))
		return 0;
	cli_usage_error(prog, opt, value, "must be on or off");
}

/* A server takes as many connections as the system lets it: the soft
 * descriptor limit up to the hard one (1,024 by default is what a few
 * idle strangers exhaust). */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max > 1048576 ? 1048576 : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* Removes argv[*i] and the used - 1 after it; *i steps back, so that the
 * caller's loop goes on at what follows. */
static void drop_args(int *argc, char **argv, int *i, int used)
{
	memmove(argv + *i, argv + *i + used, (size_t)(*argc - *i - used + 1) * sizeof(*argv));
	*argc -= used;
	(*i)--;
}

/* Takes "--NAME VALUE" or "--NAME=VALUE" at argv[*i] out of argv: its
 * value, or NULL when argv[*i] is another option (then *i is left). */
static char *take_option(const char *prog, const char *name, int *argc, char **argv, int *i)
{
	size_t n = strlen(name);
	char *value;
	int used;

	if (strncmp(argv[*i], name, n) || (argv[*i][n] && argv[*i][n] != '='))
		return NULL;
	if (argv[*i][n] == '=') {
		value = argv[*i] + n + 1;
		used = 1;
	} else {
		if (*i + 1 >= *argc)
			cli_usage_error(prog, name, NULL, "needs a value");
		value = argv[*i + 1];
		used = 2;
	}
	drop_args(argc, argv, i, used);
	return value;
}

/* --lifeline: the launcher gave us a pipe as stdin and never writes to it. */
static void *lifeline(void *arg)
{
	const char *prog = arg;
	char buf[64];
	ssize_t n;

	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		;
	fprintf(stderr, "%s: its launcher is gone (standard input closed): exiting\n", prog);
	_exit(1);
	return NULL;
}

static void watch_lifeline(const char *prog)
{
	pthread_t t;

	if (pthread_create(&t, NULL, lifeline, (void *)prog) == 0)
		pthread_detach(t);
}

/* A server takes every descriptor its hard limit allows: a stranger's idle
 * connections each hold one, and the common soft limit (1,024) is soon
 * spent.  Nothing to do, or nothing allowed: it goes on with what it has. */
static void raise_descriptor_limit(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur >= r.rlim_max)
		return;
	rlim_t was = r.rlim_cur;

	r.rlim_cur = r.rlim_max;
	if (!setrlimit(RLIMIT_NOFILE, &r))
		log_info("descriptors: soft limit raised from %llu to the hard limit, %llu",
			 (unsigned long long)was, (unsigned long long)r.rlim_max);
}

int cli_server_start(const char *prog, int *argc, char **argv, void (*help)(void),
		     int default_ms)
{
	static struct net_listen listen;
	int call_timeout_ms = default_ms, has_listen = 0;
	const char *tls_dir = NULL;
	char why[512], *v;

	/* Before anything starts OpenSSL (the run's HMAC proofs, omniORB's TLS
	 * transport): no clean-up of it at exit.  That atexit handler frees
	 * every thread's OpenSSL state while the ORB's threads may still run or
	 * exit, which then free theirs again: a double free at the end of a run
	 * (seen by ASan in the soak, and as glibc's "double free or corruption";
	 * OpenSSL's issues 6214 and 17469).  The process's exit
	 * returns the memory. */
	OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
	raise_descriptor_limit();
	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help();
			return 1;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("%s %s\n", prog, cli_version());
			return 1;
		}
		if (!strcmp(argv[i], "--call-timeout-ms") && i + 1 < *argc)
			call_timeout_ms = (int)cli_i64_or_die(prog, "--call-timeout-ms", argv[i + 1],
							      1, 3600000);
		if ((v = take_option(prog, "--listen", argc, argv, &i))) {
			if (net_listen_parse(v, &listen, why, sizeof(why)))
				cli_usage_error(prog, "--listen", v, why);
			has_listen = 1;
		} else if ((v = take_option(prog, "--tls-dir", argc, argv, &i))) {
			char password[256];

			/* checked here too, so that a bad folder is a usage error */
			if (net_tls_dir_check(v, password, sizeof(password), why, sizeof(why)))
				cli_usage_error(prog, "--tls-dir", v, why);
			memset(password, 0, sizeof(password));
			tls_dir = v;
		} else if (!strcmp(argv[i], "--lifeline")) {
			drop_args(argc, argv, &i, 1);
			watch_lifeline(prog);
		}
	}
	raise_fd_limit();
	argv[0] = (char *)prog; /* getopt's own messages: "dls-slave: ...", not its path */
	return dls_orb_init_net(argc, argv, call_timeout_ms, has_listen ? &listen : NULL, tls_dir)
		       ? -1
		       : 0;
}

void cli_secret_or_die(const char *prog, const char *opt, const char *path,
		       struct run_secret *out)
{
	char why[512];

	if (run_secret_load(out, path, why, sizeof(why)))
		cli_usage_error(prog, opt, path, why);
}

void cli_writable_or_die(const char *prog, const char *opt, const char *path)
{
	struct stat st;
	int existed, fd;

	if (!path)
		return;
	existed = stat(path, &st) == 0;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		cli_usage_error(prog, opt, path, strerror(errno));
	close(fd);
	if (!existed)
		unlink(path);
}

/* The file path names: its folder resolved (it may not exist yet). */
static void resolved(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path + 1) : 1,
		 slash ? path : ".");
	if (!realpath(dir, real))
		snprintf(real, sizeof(real), "%s", dir);
	snprintf(out, len, "%s/%s", real, base);
}

void cli_files_distinct_or_die(const char *prog, const struct cli_file *f, size_t n)
{
	char a[2 * PATH_MAX], b[2 * PATH_MAX], cause[80];

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; f[i].path && j < n; j++) {
			if (!f[j].path)
				continue;
			resolved(f[i].path, a, sizeof(a));
			resolved(f[j].path, b, sizeof(b));
			if (!strcmp(a, b)) {
				snprintf(cause, sizeof(cause), "the same file as %s: one would "
							       "overwrite the other",
					 f[i].opt);
				cli_usage_error(prog, f[j].opt, f[j].path, cause);
			}
		}
}

void cli_outputs_writable_or_die(const char *prog, const struct run_outputs *o, int hold)
{
	const struct cli_file outs[] = {{"--out", o->npy},
					{"--png", o->png},
					{"--raw", o->raw},
					{"--csv", o->csv},
					{"--json", o->json}};
	size_t n = o->npy ? strlen(o->npy) : 0;

	/* --out m.txt would hold .npy octets under a name that says otherwise */
	if (o->npy && (n < 4 || strcmp(o->npy + n - 4, ".npy")))
		cli_usage_error(prog, "--out", o->npy,
				"the results are written as NumPy .npy: name the file FILE.npy");
	/* two outputs in one file: the second would overwrite the first */
	cli_files_distinct_or_die(prog, outs, sizeof(outs) / sizeof(*outs));
	/* checked, and held open until the results are written (out_files.h) */
	for (size_t i = 0; i < sizeof(outs) / sizeof(*outs); i++) {
		int e = outs[i].path && hold ? out_files_hold(outs[i].path) : 0;

		if (e)
			cli_usage_error(prog, outs[i].opt, outs[i].path, strerror(e));
		if (!hold)
			cli_writable_or_die(prog, outs[i].opt, outs[i].path);
	}
}

struct watchdog {
	char line[160];
	double seconds;
};

static void *watch(void *arg)
{
	struct watchdog *w = arg;
	struct timespec ts = {(time_t)w->seconds,
			      (long)((w->seconds - (double)(time_t)w->seconds) * 1e9)};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	fputs(w->line, stderr);
	_exit(1);
}

void cli_watchdog(const char *prog, double seconds)
{
	static struct watchdog w;
	pthread_t t;

	if (seconds <= 0)
		return;
	w.seconds = seconds;
	snprintf(w.line, sizeof(w.line), "%s: --timeout %g s passed before the run ended: giving up\n",
		 prog, seconds);
	if (pthread_create(&t, NULL, watch, &w) == 0)
		pthread_detach(t);
}
