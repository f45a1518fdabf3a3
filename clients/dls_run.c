/*
 * dls run - one command for a whole run: a private naming service (unless
 * one is given), the master and the slaves of an emulated cluster, the job,
 * Chronopoulos et al. 2002's table at the end, the outputs; every process it started is
 * stopped, by PID, also on Ctrl-C or when a part fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_cmds.h"
#include "pictures.h"
#include "dls_time.h"
#include "ior_wait.h"
#include "journal.h"
#include "names_proc.h"
#include "net_addr.h"
#include "proc.h"
#include "run_auth.h"
#include "run_hosts.h"
#include "run_opts.h"
#include "tls_setup.h"

#define PROG "dls run"
#define MAX_ARGS 96

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}


struct child {
	pid_t pid;
	int status; /* -1 while running */
	int resumed; /* how many times it was resumed (hmasters) */
	int said;    /* a failed exit was reported */
	int withdrawn; /* a slave: dls withdraw was started for it */
	int drilled;   /* a slave that --kill killed or --no-start launched wrong */
	char log[4200];
};

#define MAX_HELPERS 64

struct run_state {
	struct child master, names;
	struct child *slaves;
	int nslaves;
	struct child hm[MAX_HMASTERS]; /* level by level */
	int nhm;
	pid_t helpers[MAX_HELPERS]; /* dls withdraw calls still running (0: reaped) */
};

static void add_arg(char **argv, int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_arg(char **argv, int *n, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (*n >= MAX_ARGS - 1)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	argv[(*n)++] = s;
	argv[*n] = NULL;
}

static void free_args(char **argv, int n)
{
	for (int i = 0; i < n; i++)
		free(argv[i]);
}

static void reap(struct run_state *r)
{
	int ws;
	pid_t pid;

	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		if (pid == r->master.pid)
			r->master.status = proc_status(ws);
		for (int i = 0; i < r->nslaves; i++)
			if (pid == r->slaves[i].pid)
				r->slaves[i].status = proc_status(ws);
		if (pid == r->names.pid)
			r->names.status = proc_status(ws);
		for (int i = 0; i < r->nhm; i++)
			if (pid == r->hm[i].pid)
				r->hm[i].status = proc_status(ws);
		for (int i = 0; i < MAX_HELPERS; i++)
			if (pid == r->helpers[i])
				r->helpers[i] = 0;
	}
}

static void stop_all(struct run_state *r)
{
	for (int i = 0; i < r->nslaves; i++)
		if (r->slaves[i].pid > 0 && r->slaves[i].status < 0)
			r->slaves[i].status = proc_stop(r->slaves[i].pid, 1000);
	for (int i = 0; i < r->nhm; i++)
		if (r->hm[i].pid > 0 && r->hm[i].status < 0)
			r->hm[i].status = proc_stop(r->hm[i].pid, 1000);
	if (r->master.pid > 0 && r->master.status < 0)
		r->master.status = proc_stop(r->master.pid, 2000);
	if (r->names.pid > 0 && r->names.status < 0)
		r->names.status = proc_stop(r->names.pid, 1000);
	for (int i = 0; i < MAX_HELPERS; i++)
		if (r->helpers[i] > 0) {
			proc_stop(r->helpers[i], 200);
			r->helpers[i] = 0;
		}
}

static void show_log(const char *what, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f)
		return;
	fprintf(stderr, "---- %s (%s) ----\n", what, path);
	while (fgets(line, sizeof(line), f))
		fputs(line, stderr);
	fclose(f);
}

static void remove_dir(const char *dir)
{
	char cmd[4200];

	/* only the folder we made: mkdtemp names it, nothing else is in it */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, PROG ": cannot remove '%s'\n", dir);
}


/* How often dls run resumes a master that died before it gives up. */
#define MAX_RESUMES 3
/* How long a slave keeps trying to rejoin a master that died. */
#define REJOIN_MS 30000


/* Where the processes of a run are found and how they talk. */
struct run_env {
	char logdir[4096], bindir[4096], ns[128];
	char pictures_json[4200]; /* --gantt or --report without --json: the master's JSON here */
	char secret[4300]; /* the run's secret: every process of the run gets it */
	char master_ior[4096]; /* the master's (coordinator's) IOR, once written: "" by name */
};

/* The run's TLS folder for host h (its CA's folder holds one per host). */
static char *tls_dir_of(const struct run_opts *o, const struct run_env *e, int h, char *buf,
			size_t len)
{
	snprintf(buf, len, "%s/tls/%s", e->logdir, o->hosts.hf.host[h].name);
	return buf;
}

/*
 * The naming service, and where a process on host h listens: --listen its
 * host's address and, with TLS, --tls-dir its host's folder.  orb_style: as
 * -ORBendPoint, for a program that takes only the ORB's options
 * (--slave-program, which runs without TLS).
 */
static void add_net_args(char **argv, int *n, const struct run_opts *o,
			 const struct run_env *e, int h, int orb_style)
{
	const char *addr = run_hosts_addr(&o->hosts, h);
	char host[HOST_ADDR_LEN + 2], dir[4400];

	net_url_host(addr, host, sizeof(host));
	add_arg(argv, n, "-ORBInitRef");
	add_arg(argv, n, "NameService=%s", e->ns);
	if (orb_style) {
		add_arg(argv, n, "-ORBendPoint");
		add_arg(argv, n, "giop:tcp:%s:", host);
		return;
	}
	add_arg(argv, n, "--listen=%s", host);
	add_arg(argv, n, "--lifeline"); /* it exits when dls run does, however */
	if (o->tls)
		add_arg(argv, n, "--tls-dir=%s", tls_dir_of(o, e, h, dir, sizeof(dir)));
}

/* The liveness options of a process with children (master, coordinator, hmaster). */
static void add_ping_args(char **argv, int *n, const struct run_opts *o)
{
	if (o->ping_ms)
		add_arg(argv, n, "--ping-ms=%d", o->ping_ms);
	if (o->ping_timeout_ms)
		add_arg(argv, n, "--ping-timeout-ms=%d", o->ping_timeout_ms);
}

/* names_start()'s way of starting omniNames on the first host: guarded by
 * the lifeline, since stopping ssh or srun need not stop it there. */
static pid_t spawn_on_first_host(void *ctx, char *const argv[], const char *log)
{
	char *guarded[64];

	if (run_hosts_guard(argv, guarded, 64) < 0) {
		errno = E2BIG;
		return -1;
	}
	return run_hosts_spawn(ctx, 0, guarded, log, log);
}

/* The run's CA and each host's folder (dls tls init's layout) in LOGDIR/tls. */
static int make_tls(const struct run_opts *o, const struct run_env *e, char *why, size_t len)
{
	char root[4200];

	snprintf(root, sizeof(root), "%s/tls", e->logdir);
	if (tls_make_ca(root, 2, why, len))
		return -1;
	for (int h = 0; h < o->hosts.hf.n; h++)
		if (tls_make_host(root, o->hosts.hf.host[h].name, run_hosts_addr(&o->hosts, h), 2,
				  why, len))
			return -1;
	return 0;
}

/* Writes LOGDIR/NAME holding `line` (a note for dls status --dir: a
 * failure is a warning). */
static void write_note(const struct run_env *e, const char *name, const char *line)
{
	char path[4200];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", e->logdir, name);
	f = fopen(path, "w");
	ok = f && fprintf(f, "%s\n", line) >= 0;
	if (f && fclose(f))
		ok = 0;
	if (!ok)
		fprintf(stderr, PROG ": warning: cannot write '%s': %s\n", path, strerror(errno));
}

/* Leaves the run's naming service and name in its folder, and says how to
 * watch it (dls status --dir reads them). */
static void write_names_address(const struct run_opts *o, const struct run_env *e)
{
	write_note(e, "names.address", e->ns);
	write_note(e, "run.name", o->run);
	fprintf(stderr, PROG ": run '%s' in %s; to watch it: dls status --dir %s\n", o->run,
		e->logdir, e->logdir);
}

/* The naming service (ours unless --names), the run's secret (PROTOCOL.md
 * 7) and, with --tls, the run's CA. */
static int start_names_and_tls(const struct run_opts *o, struct run_env *e, struct run_state *r)
{
	struct run_secret secret;
	char why[4600];
	int port;

	snprintf(e->secret, sizeof(e->secret), "%s/run.secret", e->logdir);
	unlink(e->secret); /* a --dir used before: every run has its own */
	if (run_secret_create(&secret, e->secret, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}

	if (o->names) {
		snprintf(e->ns, sizeof(e->ns), "%s", o->names);
	} else {
		char nsdir[4300];

		struct names_spawn how = {spawn_on_first_host, (void *)&o->hosts};
		const char *addr = run_hosts_addr(&o->hosts, 0);

		snprintf(nsdir, sizeof(nsdir), "%s/names", e->logdir);
		if (names_start(nsdir, addr, 0, 0, o->hosts.launch ? &how : NULL, &r->names.pid,
				&port, why, sizeof(why))) {
			fprintf(stderr, PROG ": cannot start the naming service: %s\n", why);
			return 1;
		}
		names_address(addr, port, e->ns, sizeof(e->ns));
	}
	write_names_address(o, e);
	/* TLS: the run's own CA; every servant listens on giop:ssl only, so all
	 * traffic between them is TLS (the naming service holds only names) */
	if (o->tls && make_tls(o, e, why, sizeof(why))) {
		fprintf(stderr, PROG ": cannot set up TLS: %s\n", why);
		return 1;
	}
	return 0;
}

/*
 * How long the master (or coordinator) waits for every slave to register,
 * from its start: starting a slave costs this machine some 20 ms of CPU
 * (its ORB, the naming service), so a fixed window closes before a large
 * cluster is in; 30 s plus 30 ms a slave (90 s for 2,000).
 */
static int register_window_ms(const struct run_opts *o)
{
	return o->register_window_ms ? o->register_window_ms : 30000 + 30 * o->cl.n;
}

/*
 * An hmaster of level l (0: below the master) waits for its slaves this
 * long from its first one's registration, then registers those it has:
 * each level closes a margin before the level above, so that a slave that
 * never starts costs its parent only itself, not the whole subtree (an
 * hmaster whose window outlasted the master's came too late, and its live
 * slaves sat out the run).  The margin covers the start of the hmasters
 * and slaves after the master's window opened and the forwarding: 3 s a
 * level, less for a short window.
 */
static int hmaster_window_ms(const struct run_opts *o, int l)
{
	int w = register_window_ms(o), margin = w / (2 * (o->nlevels + 1));

	if (margin > 3000)
		margin = 3000;
	return w - (l + 1) * margin;
}

/* The options of the master's (or coordinator's) configuration: a resumed
 * master takes them from its journal instead. */
static void add_config_args(char **margv, int *mn, const struct run_opts *o,
			    const struct run_env *e)
{
	add_arg(margv, mn, "--run=%s", o->run);
	/* two-level: the master's children are the first level of hmasters */
	add_arg(margv, mn, "--slaves=%d",
		o->nlevels && !strcmp(o->hmode, "twolevel") ? o->levels[0] : o->cl.n);
	add_arg(margv, mn, "--workload=%s", o->workload);
	add_arg(margv, mn, "--register-timeout-ms=%d", register_window_ms(o));
	for (int i = 0; i < o->nparams; i++)
		add_arg(margv, mn, "--param=%s=%s", o->params[i].name, o->params[i].value);
	add_arg(margv, mn, "--order=%s", o->order);
	if (!o->trees) /* Tree Scheduling collects by --report-interval */
		add_arg(margv, mn, "--collect=%s", o->collect);
	if (!o->trees)
		add_arg(margv, mn, "--take-back=%s", o->take_back);
	for (int i = 0; i < o->sched_argc; i++)
		add_arg(margv, mn, "%s", o->sched_argv[i]);
	for (int i = 0; i < o->tree_argc; i++)
		add_arg(margv, mn, "%s", o->tree_argv[i]);
	if (o->loops > 1)
		add_arg(margv, mn, "--loops=%d", o->loops);
	if (o->fresh_loops)
		add_arg(margv, mn, "--fresh-loops");
	if (o->verify > 0)
		add_arg(margv, mn, "--verify=%.17g", o->verify);
	if (o->journal)
		add_arg(margv, mn, "--journal=%s", e->logdir);
}

/* The master, or Tree Scheduling's coordinator; resume: a master that died,
 * from its journal. */
static int start_master(const struct run_opts *o, const struct run_env *e, struct run_state *r,
			int resume)
{
	char *margv[MAX_ARGS], powerstr[4096];
	int mn = 0;

	add_arg(margv, &mn, "%s/%s", e->bindir, o->trees ? "dls-treesched" : "dls-master");
	if (resume)
		add_arg(margv, &mn, "--resume=%s", e->logdir);
	else
		add_config_args(margv, &mn, o, e);
	if (o->journal)
		add_arg(margv, &mn, "--journal-sync=%s", o->journal_sync);
	if (!o->real) { /* T_ideal and E: of the emulated cluster only */
		add_arg(margv, &mn, "--t-iter=%.17g", o->t_iter);
		add_arg(margv, &mn, "--power=%s",
			emul_steps_format(&o->power, powerstr, sizeof(powerstr)));
	}
	if (o->out.npy)
		add_arg(margv, &mn, "--out=%s", o->out.npy);
	if (o->out.png)
		add_arg(margv, &mn, "--png=%s", o->out.png);
	if (o->out.raw)
		add_arg(margv, &mn, "--raw=%s", o->out.raw);
	if (o->out.csv)
		add_arg(margv, &mn, "--csv=%s", o->out.csv);
	if (o->out.json)
		add_arg(margv, &mn, "--json=%s", o->out.json);
	if (o->progress)
		add_arg(margv, &mn, "--progress");
	add_arg(margv, &mn, "--secret-file=%s", e->secret);
	if (!o->hosts.from_file) /* on this host: its IOR for the slaves (below) */
		add_arg(margv, &mn, "--ior=%s/master.ior", e->logdir);
	add_ping_args(margv, &mn, o);
	if (o->stall_ms >= 0 && !o->trees)
		add_arg(margv, &mn, "--stall-ms=%d", o->stall_ms);
	add_net_args(margv, &mn, o, e, 0, 0);
	snprintf(r->master.log, sizeof(r->master.log), "%s/master.log", e->logdir);
	r->master.status = -1;
	r->master.pid =
		run_hosts_spawn(&o->hosts, 0, margv, NULL, o->progress ? NULL : r->master.log);
	free_args(margv, mn);
	if (r->master.pid < 0) {
		fprintf(stderr, PROG ": cannot start %s: %s\n",
			o->trees ? "dls-treesched" : "dls-master", strerror(errno));
		return 1;
	}
	return 0;
}

/* The host of hmaster.l.i: per host, the host of its slaves; else spread
 * over the hosts in turn. */
static int hmaster_host(const struct run_opts *o, int i)
{
	if (o->hm_per_host)
		return o->hosts.used_host[i];
	return i % o->hosts.hf.n;
}

/* Two-level hmasters: each keeps a record to be resumed from. */
static int twolevel(const struct run_opts *o)
{
	return o->nlevels && !strcmp(o->hmode, "twolevel");
}

/* The index i of hmaster.l.i above slave k: its last-level hmaster, then
 * each parent, hmaster.(l-1).(i mod K). */
static int hmaster_above(const struct run_opts *o, int k, int l)
{
	int at = o->slave_hm[k];

	for (int up = o->nlevels - 1; up > l; up--)
		at %= o->levels[up - 1];
	return at;
}

/* hmaster.l.i, under hmaster.(l-1).(i mod K); resume: it succeeds one
 * that died (a two-level one from the record its predecessor kept). */
static void start_hmaster(const struct run_opts *o, const struct run_env *e, struct run_state *r,
			  int l, int i, int resume)
{
	struct child *hm = &r->hm[o->first[l] + i];
	char *hargv[MAX_ARGS];
	int hn = 0, below = 0;

	/* the slaves below hmaster.l.i: those whose last-level hmaster
	 * descends from it */
	for (int k = 0; k < o->cl.n; k++)
		below += hmaster_above(o, k, l) == i;
	add_arg(hargv, &hn, "%s/dls-hmaster", e->bindir);
	add_arg(hargv, &hn, "--run=%s", o->run);
	add_arg(hargv, &hn, "--name=hmaster.%d.%d", l, i);
	if (l == 0)
		add_arg(hargv, &hn, "--parent=master");
	else
		add_arg(hargv, &hn, "--parent=hmaster.%d.%d", l - 1, i % o->levels[l - 1]);
	add_arg(hargv, &hn, "--slaves=%d", below);
	add_arg(hargv, &hn, "--mode=%s", o->hmode);
	add_arg(hargv, &hn, "--link-latency-us=%.17g", o->latency_us);
	/* its registration call blocks until its parent's window closes */
	add_arg(hargv, &hn, "--register-timeout-ms=%d", register_window_ms(o) + 30000);
	add_arg(hargv, &hn, "--window-ms=%d", hmaster_window_ms(o, l));
	/* a resumed parent (master or hmaster): its hmasters rejoin it */
	add_arg(hargv, &hn, "--rejoin-ms=%d", REJOIN_MS);
	if (twolevel(o))
		add_arg(hargv, &hn, "--record=%s/hmaster.%d.%d.record", e->logdir, l, i);
	if (resume)
		add_arg(hargv, &hn, "--resume");
	add_arg(hargv, &hn, "--secret-file=%s", e->secret);
	add_ping_args(hargv, &hn, o);
	add_net_args(hargv, &hn, o, e, hmaster_host(o, i), 0);
	if (resume)
		hm->resumed++;
	/* each its own log: hmaster.0.1.log, .resumed.log, .resumed-2.log, ... */
	if (hm->resumed > 1)
		snprintf(hm->log, sizeof(hm->log), "%s/hmaster.%d.%d.resumed-%d.log", e->logdir, l,
			 i, hm->resumed);
	else
		snprintf(hm->log, sizeof(hm->log), "%s/hmaster.%d.%d%s.log", e->logdir, l, i,
			 hm->resumed ? ".resumed" : "");
	hm->status = -1;
	hm->pid = run_hosts_spawn(&o->hosts, hmaster_host(o, i), hargv, hm->log, hm->log);
	free_args(hargv, hn);
}

/* The hmasters, level by level. */
static void start_hmasters(const struct run_opts *o, const struct run_env *e,
			   struct run_state *r)
{
	for (int l = 0; l < o->nlevels; l++)
		for (int i = 0; i < o->levels[l]; i++)
			start_hmaster(o, e, r, l, i, 0);
}

/*
 * An hmaster that died of a signal while the run goes on is resumed under
 * its name (at most MAX_RESUMES times in all): its children rejoin it (a
 * relay one's parent vouches for them; a two-level one reads the record
 * its predecessor kept, and its parent requeues what that one held).
 */
static void resume_hmasters(const struct run_opts *o, const struct run_env *e,
			    struct run_state *r, int *resumes, double t0)
{
	for (int l = 0; l < o->nlevels; l++)
		for (int i = 0; i < o->levels[l]; i++) {
			struct child *hm = &r->hm[o->first[l] + i];

			if (hm->status <= 128 || hm->pid <= 0)
				continue;
			if (*resumes >= MAX_RESUMES) {
				fprintf(stderr,
					PROG ": hmaster.%d.%d of run '%s' died of signal %d at %.2f "
					     "s; it is not resumed: %d hmasters were already\n",
					l, i, o->run, hm->status - 128, dls_now() - t0, MAX_RESUMES);
				hm->pid = 0; /* said once */
				continue;
			}
			fprintf(stderr,
				PROG ": hmaster.%d.%d of run '%s' died of signal %d at %.2f s: "
				     "resuming it, its slaves rejoin it (%d of %d)\n",
				l, i, o->run, hm->status - 128, dls_now() - t0, ++*resumes,
				MAX_RESUMES);
			start_hmaster(o, e, r, l, i, 1);
		}
}

/* How long the slaves wait for the master's IOR before they look for it by name. */
#define MASTER_IOR_WAIT_MS 10000

/* What --no-start launches a slave from: no such program in the bin folder. */
#define NOSTART_PROGRAM "dls-slave.no-start-drill"

/* One slave per PE of the cluster (the one of --no-start from a missing program). */
static int start_slaves(const struct run_opts *o, const struct run_env *e, struct run_state *r)
{
	for (int i = 0; i < o->cl.n; i++) {
		char *sargv[MAX_ARGS], sched[2048];
		int sn = 0;

		if (i == o->nostart_slave) {
			fprintf(stderr, PROG ": drill: slave.%d launched from %s/%s, which does not exist\n",
				i, e->bindir, NOSTART_PROGRAM);
			add_arg(sargv, &sn, "%s/%s", e->bindir, NOSTART_PROGRAM);
			r->slaves[i].drilled = 1;
		} else if (o->slave_program)
			add_arg(sargv, &sn, "%s", o->slave_program);
		else
			add_arg(sargv, &sn, "%s/dls-slave", e->bindir);
		add_arg(sargv, &sn, "--run=%s", o->run);
		if (o->hosts.from_file) /* the table then says where each PE ran */
			add_arg(sargv, &sn, "--name=slave.%d@%s", i,
				o->hosts.hf.host[o->hosts.slave_host[i]].name);
		else
			add_arg(sargv, &sn, "--name=slave.%d", i);
		if (o->real) {
			add_arg(sargv, &sn, "--real");
		} else {
			add_arg(sargv, &sn, "--speed=%.17g", o->cl.speed[i]);
			if (o->cl.declared[i] > 0)
				add_arg(sargv, &sn, "--declare=%.17g", o->cl.declared[i]);
			add_arg(sargv, &sn, "--load=%s",
				emul_steps_format(&o->cl.load[i], sched, sizeof(sched)));
			add_arg(sargv, &sn, "--t-iter=%.17g", o->t_iter);
		}
		add_arg(sargv, &sn, "--link-latency-us=%.17g", o->latency_us);
		if (!o->overlap && !o->trees)
			add_arg(sargv, &sn, "--overlap=off");
		if (!o->low_priority && !o->trees && !o->real)
			add_arg(sargv, &sn, "--low-priority=off");
		if (o->nlevels)
			add_arg(sargv, &sn, "--master=hmaster.%d.%d", o->nlevels - 1,
				o->slave_hm[i]);
		else if (e->master_ior[0] && !o->slave_program && !r->slaves[i].drilled)
			add_arg(sargv, &sn, "--master-ior=%s", e->master_ior);
		if (o->trees)
			add_arg(sargv, &sn, "--coordinator=treesched");
		if (o->journal || o->nlevels) /* a resumed master or hmaster */
			add_arg(sargv, &sn, "--rejoin-ms=%d", REJOIN_MS);
		/* its registration call blocks until the window closes */
		add_arg(sargv, &sn, "--register-timeout-ms=%d", register_window_ms(o) + 30000);
		add_arg(sargv, &sn, "--secret-file=%s", e->secret);
		add_net_args(sargv, &sn, o, e, o->hosts.slave_host[i], o->slave_program != NULL);
		snprintf(r->slaves[i].log, sizeof(r->slaves[i].log), "%s/slave.%d.log", e->logdir, i);
		r->slaves[i].pid = run_hosts_spawn(&o->hosts, o->hosts.slave_host[i], sargv,
						   r->slaves[i].log, r->slaves[i].log);
		free_args(sargv, sn);
		if (r->slaves[i].pid < 0) {
			fprintf(stderr, PROG ": cannot start dls-slave %d: %s\n", i, strerror(errno));
			return 1;
		}
	}
	return 0;
}

/* Starts every process of the run: 0, or 1 (said why) when one could not start. */
/* The role at the top of the run: "master", or "coordinator" (Tree Scheduling). */
static const char *top_role(const struct run_opts *o)
{
	return o->trees ? "coordinator" : "master";
}

/* Where the processes go, on stderr, when they go to other hosts. */
static void say_placement(const struct run_opts *o)
{
	const struct run_hosts *rh = &o->hosts;

	if (!rh->from_file)
		return;
	fprintf(stderr, PROG ": run '%s' on %d host%s (%s): %s runs the naming service and the %s",
		o->run, rh->hf.n, rh->hf.n == 1 ? "" : "s", rh->launch, rh->hf.host[0].name,
		top_role(o));
	for (int h = 0; h < rh->hf.n; h++) {
		int n = 0;

		for (int i = 0; i < o->cl.n; i++)
			n += rh->slave_host[i] == h;
		fprintf(stderr, "%s %s %d slave%s", h ? "," : ";", rh->hf.host[h].name, n,
			n == 1 ? "" : "s");
	}
	fprintf(stderr, "\n");
}

static int launch(const struct run_opts *o, struct run_env *e, struct run_state *r)
{
	char ior_path[4200];

	say_placement(o);
	if (start_names_and_tls(o, e, r) || start_master(o, e, r, 0))
		return 1;
	/* the slaves reach the master by its reference, which no stranger on
	 * the naming service can rebind or squat (a successor resumed later
	 * they find by name, proving the run's secret); by name when the
	 * master is on another host, or is not up in time */
	snprintf(ior_path, sizeof(ior_path), "%s/master.ior", e->logdir);
	if (!o->hosts.from_file &&
	    ior_wait(ior_path, r->master.pid, MASTER_IOR_WAIT_MS, e->master_ior,
		     sizeof(e->master_ior)))
		e->master_ior[0] = '\0';
	start_hmasters(o, e, r);
	return start_slaves(o, e, r);
}

/* A slave that exited with a failure, said once, with what it printed last
 * (a launch that could not reach its host, a slave that gave up): the run
 * may go on without it, and the table would only show it missing. */
static void say_failed_slaves(const struct run_opts *o, struct run_state *r)
{
	char last[512];

	for (int i = 0; i < r->nslaves; i++) {
		struct child *c = &r->slaves[i];

		if (c->status <= 0 || c->said || c->drilled)
			continue;
		c->said = 1;
		proc_last_line(c->log, last, sizeof(last));
		fprintf(stderr, PROG ": slave.%d%s%s exited %d%s%s (its log: %s)\n", i,
			o->hosts.from_file ? "@" : "",
			o->hosts.from_file ? o->hosts.hf.host[o->hosts.slave_host[i]].name : "",
			c->status, last[0] ? ": " : "", last, c->log);
	}
}

/* How many slaves exited with a failure. */
static int failed_slaves(const struct run_state *r)
{
	int n = 0;

	for (int i = 0; i < r->nslaves; i++)
		n += r->slaves[i].said;
	return n;
}

static int slaves_running(const struct run_opts *o, struct run_state *r)
{
	int running = 0;

	reap(r);
	say_failed_slaves(o, r);
	for (int i = 0; i < r->nslaves; i++)
		running += r->slaves[i].status < 0;
	return running;
}

/* Starts `dls withdraw` of slave i along `chain` (n parents, from the
 * slave's own upwards: each is told only once the one below withdrew it),
 * kept among r's helpers (stop_all ends one still running); none when
 * MAX_HELPERS run already (the window then applies).  Its output goes to
 * LOGDIR/withdraw.slave.N.log. */
static void spawn_withdraw(const struct run_opts *o, const struct run_env *e, struct run_state *r,
			   int i, char chain[][64], int nchain)
{
	char *argv[MAX_ARGS], log[4400], dir[4400];
	int n = 0, slot = -1;
	pid_t pid;

	for (int k = 0; k < MAX_HELPERS && slot < 0; k++)
		if (r->helpers[k] == 0)
			slot = k;
	if (slot < 0)
		return;

	add_arg(argv, &n, "%s/dls", e->bindir);
	add_arg(argv, &n, "withdraw");
	add_arg(argv, &n, "--run=%s", o->run);
	if (o->hosts.from_file)
		add_arg(argv, &n, "--name=slave.%d@%s", i,
			o->hosts.hf.host[o->hosts.slave_host[i]].name);
	else
		add_arg(argv, &n, "--name=slave.%d", i);
	for (int k = 0; k < nchain; k++)
		add_arg(argv, &n, "--parent=%s", chain[k]);
	add_arg(argv, &n, "--secret-file=%s", e->secret);
	if (o->tls)
		add_arg(argv, &n, "--tls-dir=%s", tls_dir_of(o, e, 0, dir, sizeof(dir)));
	add_arg(argv, &n, "-ORBInitRef");
	add_arg(argv, &n, "NameService=%s", e->ns);
	argv[n] = NULL;
	snprintf(log, sizeof(log), "%s/withdraw.slave.%d.log", e->logdir, i);
	pid = proc_spawn(argv, log, log, 0);
	if (pid < 0)
		fprintf(stderr, PROG ": warning: cannot start dls withdraw for slave.%d: %s\n", i,
			strerror(errno));
	else
		r->helpers[slot] = pid;
	free_args(argv, n);
}

/*
 * A slave that exited with a failure while registration may still be open:
 * `dls withdraw` tells every parent that waits for it not to (its hmaster
 * and each one above, which count the slaves below them, and in relay mode
 * the master, which counts every slave; else the master or coordinator),
 * instead of waiting out its window.  The parents are told in a chain from
 * the slave upwards, each only once the one below withdrew it: a slave that
 * registered with its hmaster, even one not yet passed on, is refused there
 * and counted above as it should be (told all at once, a relay's master
 * would expect one slave fewer than its hmasters bring).  Started, not
 * waited for: reap() collects them.
 */
static void withdraw_failed_slaves(const struct run_opts *o, const struct run_env *e,
				   struct run_state *r, double t0)
{
	if (dls_now() - t0 > register_window_ms(o) / 1000.0)
		return;
	for (int i = 0; i < r->nslaves; i++) {
		struct child *c = &r->slaves[i];
		char chain[MAX_LEVELS + 1][64];
		int n = 0;

		if (c->status <= 0 || c->withdrawn)
			continue;
		c->withdrawn = 1;
		for (int l = o->nlevels - 1; l >= 0; l--)
			snprintf(chain[n++], sizeof(chain[0]), "hmaster.%d.%d", l,
				 hmaster_above(o, i, l));
		if (!o->nlevels || !twolevel(o))
			snprintf(chain[n++], sizeof(chain[0]), "%s",
				 o->trees ? "treesched" : "master");
		spawn_withdraw(o, e, r, i, chain, n);
	}
}

/* A failure drill: kill -9 `who` (pid) now, t0 being the launch and
 * started_at the loop's start (0: not seen). */
static void drill(const char *who, pid_t pid, double t0, double started_at)
{
	double now = dls_now();

	if (started_at)
		fprintf(stderr, PROG ": drill: kill -9 %s (pid %d) at %.2f s (%.2f s after the "
				     "loop started)\n", who, (int)pid, now - t0, now - started_at);
	else
		fprintf(stderr, PROG ": drill: kill -9 %s (pid %d) at %.2f s\n", who, (int)pid,
			now - t0);
	kill(pid, SIGKILL);
}

/*
 * The master exited.  If it died of a signal and its journal may be
 * resumed (at most MAX_RESUMES times), starts a new master on it: every
 * result it acknowledged is in the journal, and the slaves rejoin.  A
 * master that died before its journal recorded the run had told no slave
 * its id and acknowledged nothing: a new one starts afresh there, and the
 * slaves, still registering, find it by name.  Returns 1 when the run goes
 * on with the new master, else 0.
 */
static int resume_master(const struct run_opts *o, const struct run_env *e, struct run_state *r,
			 int *resumes, double t0)
{
	char why[512];
	int unborn;

	if (r->master.status <= 128 || !o->journal || *resumes >= MAX_RESUMES)
		return 0;
	unborn = journal_discard_unborn(e->logdir, why, sizeof(why));
	if (unborn != DLS_OK && unborn != DLS_ESTATE) {
		fprintf(stderr, PROG ": the %s of run '%s' died of signal %d: %s\n", top_role(o),
			o->run, r->master.status - 128, why);
		return 0;
	}
	fprintf(stderr,
		unborn == DLS_OK
			? PROG ": the %s of run '%s' died of signal %d at %.2f s, before its journal "
			       "recorded the run (it had acknowledged nothing): starting it afresh "
			       "(%d of %d)\n"
			: PROG ": the %s of run '%s' died of signal %d at %.2f s: resuming it from "
			       "its journal (%d of %d)\n",
		top_role(o), o->run, r->master.status - 128, dls_now() - t0, ++*resumes,
		MAX_RESUMES);
	if (start_master(o, e, r, unborn == DLS_ESTATE)) {
		r->master.status = 1; /* said why */
		return 0;
	}
	return 1;
}

/* Does a drill still wait for the loop's start (WHO@start+SECS)? */
static int drill_waits_for_start(const struct run_opts *o)
{
	for (int i = 0; i < o->ndrills; i++)
		if (o->drills[i].from_start && !o->drills[i].done)
			return 1;
	return 0;
}

/* The drills (--kill) whose time came, t0 being the launch; *started_at:
 * when the loop was seen to start (0: not yet), looked for in the journal
 * while a drill counts from it: the master's start gate, or the chain
 * Tree Scheduling's coordinator builds once every slave registered. */
static void fire_drills(struct run_opts *o, const struct run_env *e, struct run_state *r,
			double t0, double *started_at)
{
	if (!*started_at && drill_waits_for_start(o) &&
	    journal_has_event(e->logdir, o->trees ? "chain" : "gate")) {
		*started_at = dls_now();
		fprintf(stderr, PROG ": the loop started at %.2f s\n", *started_at - t0);
	}
	for (int i = 0; i < o->ndrills; i++) {
		struct run_drill *d = &o->drills[i];
		char who[32];

		if (d->done || (d->from_start && !*started_at) ||
		    dls_now() - (d->from_start ? *started_at : t0) < d->at)
			continue;
		d->done = 1;
		if (d->hm >= 0)
			drill(d->name, r->hm[d->hm].pid, t0, *started_at);
		if (d->master) {
			snprintf(who, sizeof(who), "the %s", top_role(o));
			drill(who, r->master.pid, t0, *started_at);
		}
		if (d->slave >= 0) {
			snprintf(who, sizeof(who), "slave.%d", d->slave);
			drill(who, r->slaves[d->slave].pid, t0, *started_at);
			r->slaves[d->slave].drilled = 1;
		}
	}
}

/*
 * Waits for the master; watches the clock, the signals, the failure drills
 * and the slaves: when every one of them has exited the run cannot end.
 * Returns the run's exit status.
 */
static int monitor(struct run_opts *o, const struct run_env *e, struct run_state *r)
{
	double t0 = dls_now(), all_gone_at = 0, started_at = 0;
	int names_gone_said = 0, resumes = 0, hm_resumes = 0;

	for (;;) {
		int running;

		/* first: a process that died of the same interrupt is not resumed */
		if (interrupted) {
			fprintf(stderr, "\n" PROG ": interrupted: stopping every process of run '%s'\n",
				o->run);
			return 130;
		}
		if (r->master.status >= 0 && !resume_master(o, e, r, &resumes, t0))
			break;
		running = slaves_running(o, r);

		withdraw_failed_slaves(o, e, r, t0);
		resume_hmasters(o, e, r, &hm_resumes, t0);

		if (!running && !all_gone_at)
			all_gone_at = dls_now();
		if (!running && dls_now() - all_gone_at > 5) {
			fprintf(stderr, PROG ": every slave of run '%s' has exited and the master is "
					     "still waiting: stopping the run\n", o->run);
			for (int i = 0; i < r->nslaves; i++)
				if (r->slaves[i].status != 0) {
					show_log("a slave", r->slaves[i].log);
					break;
				}
			return 1;
		}
		if (dls_now() - t0 > o->timeout) {
			fprintf(stderr, PROG ": run '%s' exceeded --timeout %.0f s: stopping it\n",
				o->run, o->timeout);
			return 1;
		}
		if (r->names.pid > 0 && r->names.status >= 0 && !names_gone_said) {
			/* nothing needs it once every process found its master; one
			 * that still looks for it fails, and the run ends as above */
			fprintf(stderr,
				PROG ": the naming service stopped (exit %d); the run goes on with "
				     "the processes that found their master\n",
				r->names.status);
			names_gone_said = 1;
		}
		fire_drills(o, e, r, t0, &started_at);
		dls_sleep_ms(20);
	}
	if (r->master.status > 128) { /* killed: the run failed, whatever the signal */
		fprintf(stderr, PROG ": the %s of run '%s' died of signal %d\n", top_role(o),
			o->run, r->master.status - 128);
		return 1;
	}
	/* the slaves heard DONE; give them a moment to unbind and exit */
	for (double end = dls_now() + 5; dls_now() < end && slaves_running(o, r);)
		dls_sleep_ms(20);
	return r->master.status;
}

/* Two-level hmasters: the master's table has a row per hmaster; each one's
 * own table (its slaves) is in its log, from the line "hmaster.L.I: N
 * slaves, ..." on: printed after the master's, so that every slave shows. */
static void show_hmaster_tables(const struct run_opts *o, const struct run_state *r)
{
	for (int l = 0; l < o->nlevels; l++)
		for (int i = 0; i < o->levels[l]; i++) {
			const struct child *hm = &r->hm[o->first[l] + i];
			char head[32], line[512];
			int in = 0;
			FILE *f = fopen(hm->log, "r");

			if (!f)
				continue;
			snprintf(head, sizeof(head), "hmaster.%d.%d: ", l, i);
			while (fgets(line, sizeof(line), f)) {
				if (!strncmp(line, head, strlen(head)) && strstr(line, " slaves, "))
					in = 1;
				else if (in && strncmp(line, "  ", 2))
					in = 0;
				if (in)
					fputs(line, stdout);
			}
			fclose(f);
		}
	fflush(stdout);
}

/* The folder for logs and the naming service's data: --dir, or a new one. */
static int make_logdir(const struct run_opts *o, struct run_env *e)
{
	char tmpdir[] = "/tmp/dls-run-XXXXXX";

	if (o->dir) {
		if (mkdir(o->dir, 0755) && errno != EEXIST) {
			fprintf(stderr, PROG ": cannot create '%s': %s\n", o->dir, strerror(errno));
			return 1;
		}
		snprintf(e->logdir, sizeof(e->logdir), "%s", o->dir);
	} else if (!mkdtemp(tmpdir)) {
		fprintf(stderr, PROG ": cannot create a temporary folder: %s\n", strerror(errno));
		return 1;
	} else {
		snprintf(e->logdir, sizeof(e->logdir), "%s", tmpdir);
	}
	return 0;
}

int dls_cmd_run(int argc, char **argv)
{
	static struct run_opts o; /* a cluster of up to CLUSTER_MAX slaves: not on the stack */
	static struct run_env e;
	struct run_state r;
	int status = 1, rc;

	run_opts_init(&o);
	memset(&e, 0, sizeof(e));
	rc = run_opts_parse(argc, argv, &o);
	if (rc) {
		run_opts_free(&o);
		return rc == 1 ? 0 : rc;
	}
	run_opts_validate(&o);
	if (run_hosts_lifeline(&o.hosts)) {
		fprintf(stderr, PROG ": cannot make the run's lifeline: %s\n", strerror(errno));
		run_opts_free(&o);
		return 1;
	}
	memset(&r, 0, sizeof(r));
	r.master.status = r.names.status = -1;
	r.nhm = o.nlevels ? o.first[o.nlevels] : 0;
	if (make_logdir(&o, &e)) {
		run_opts_free(&o);
		return 1;
	}
	if ((o.gantt || o.report) && !o.out.json) { /* drawn from the master's JSON */
		snprintf(e.pictures_json, sizeof(e.pictures_json), "%s/run.json", e.logdir);
		o.out.json = e.pictures_json;
	}
	proc_self_dir(e.bindir, sizeof(e.bindir));
	r.slaves = calloc((size_t)o.cl.n, sizeof(*r.slaves));
	if (!r.slaves) {
		run_opts_free(&o);
		return 1;
	}
	r.nslaves = o.cl.n;

	for (int i = 0; i < o.cl.n; i++)
		r.slaves[i].status = -1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);

	if (!launch(&o, &e, &r))
		status = monitor(&o, &e, &r);
	stop_all(&r);
	if (status == 0 && twolevel(&o) && !o.out.quiet)
		show_hmaster_tables(&o, &r);
	if (status == 0 && (o.gantt || o.report))
		status = pictures_draw(o.out.json, o.gantt, o.report, PROG, stderr, PROG ": ");
	if (status != 0 && status != 130) {
		if (r.master.pid <= 0) /* it never ran: launch() said why */
			fprintf(stderr, PROG ": run '%s' failed before its %s ran; logs in %s\n",
				o.run, top_role(&o), e.logdir);
		else
			fprintf(stderr, PROG ": run '%s' failed (%s exit %d); logs in %s\n", o.run,
				top_role(&o), r.master.status, e.logdir);
		if (!o.progress)
			show_log("master", r.master.log);
	} else if (!o.dir && status == 130) {
		fprintf(stderr, PROG ": logs kept in %s (the run was interrupted)\n", e.logdir);
	} else if (!o.dir && failed_slaves(&r)) {
		fprintf(stderr, PROG ": logs kept in %s (a slave failed)\n", e.logdir);
	} else if (!o.dir) {
		remove_dir(e.logdir);
	}
	run_opts_free(&o);
	free(r.slaves);
	return status;
}
