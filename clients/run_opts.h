/*
 * run_opts.h - the command line of `dls run`: its options read, checked
 * against each other and the cluster, and kept for the launcher (dls_run.c).
 */
#ifndef DLS_RUN_OPTS_H
#define DLS_RUN_OPTS_H

#include "cluster.h"
#include "emul.h"
#include "dls/workload.h"
#include "pile_cli.h"
#include "run_hosts.h"
#include "run_report.h"
#include "sched_cli.h"

#define MAX_LEVELS 4
#define MAX_HMASTERS 256

/* Everything the command line says, checked. */
/* A --kill drill: kill -9 of one process at its time. */
#define RUN_MAX_DRILLS 8
struct run_drill {
	double at;     /* seconds after the launch, or after the loop's start */
	int from_start; /* WHO@start+SECS: counted from the master's start gate */
	int slave;     /* a slave's index, or -1 */
	int hm;	       /* an hmaster's index (from name), or -1 */
	int master;    /* the master, or Tree Scheduling's coordinator */
	char name[64]; /* as given: slave.3, hmaster.0.1, master, coordinator */
	int done;
};

struct run_opts {
	struct cluster cl;
	struct emul_steps power; /* the cluster's sum V_i/Q_i(t), for the master's E */
	const char *loads, *names, *dir;
	const char *hostfile, *launch; /* the hosts, and how a program starts on one */
	int slurm;		       /* the hosts of the Slurm allocation */
	int real;		       /* slaves measure their Speed and Q_i (no emulation) */
	int t_iter_given;	       /* --t-iter (an emulation option) was given */
	int overlap;		       /* slaves ask ahead (dls-slave --overlap) */
	int low_priority;	       /* ... and yield the cores (--low-priority) */
	/* every path the programs get, made absolute: they may run elsewhere
	 * (ssh starts them in the home folder) */
	char abs_path[9][4200];
	int hm_per_host;	       /* --hmasters per-host */
	int ping_ms, ping_timeout_ms;  /* 0: the programs' defaults */
	int stall_ms;		       /* dls-master --stall-ms; -1: its default */
	int loops, fresh_loops;	       /* dls-master --loops, --fresh-loops */
	int register_window_ms;	       /* --register-window-ms; 0: 30 s + 30 ms a slave */
	struct run_hosts hosts;	       /* checked; where each process goes */
	int slave_hm[CLUSTER_MAX];     /* each slave's hmaster on the last level */
	const char *slave_program; /* instead of dls-slave: a program taking its options */
	const char *gantt;	   /* --gantt: the Gantt chart to draw at the end, or NULL */
	const char *report;	   /* --report: the HTML report to write at the end, or NULL */
	struct run_outputs out; /* the master's files (paths only; passed through) */
	const char *order, *collect, *hmode;
	const char *take_back; /* dls-master --take-back: on or off */
	double verify;	       /* dls-master --verify: the fraction checked (0: none) */
	const char *workload;
	struct dls_param params[DLS_MAX_PARAMS]; /* the workload's */
	int nparams;
	char run[64];
	double t_iter, timeout, latency_us;
	int levels[MAX_LEVELS], nlevels, first[MAX_LEVELS + 1]; /* hmasters by level */
	struct run_drill drills[RUN_MAX_DRILLS]; /* --kill, each at its own time */
	int ndrills;
	int nostart_slave; /* --no-start: launched from a missing program, or -1 */
	int journal; /* the master journals to the run's folder and is resumed if it dies */
	const char *journal_sync; /* disk or os (dls-master --journal-sync) */
	int tls, trees, progress;
	int piles, pile_given;	 /* --scheme workpile|roc (trees is set too); its options */
	enum pile_policy policy; /* which */
	struct pile_params pile;
	int collect_given;
	int take_back_given; /* --take-back given (refused with Tree Scheduling) */
	char *tree_argv[32], *sched_argv[48]; /* passed through to the master */
	struct sched_cli sc;		      /* the same, checked before anything starts */
	int tree_argc, sched_argc;
};

/* The defaults: natural order, piggy-back collection, a journal, run-PID. */
void run_opts_init(struct run_opts *o);

/* Frees what parsing kept. */
void run_opts_free(struct run_opts *o);

/*
 * Reads the command line into *o; a bad value exits 2 with its cause.
 * Returns 0, 1 after --help, or 2 for an unknown option.
 */
int run_opts_parse(int argc, char **argv, struct run_opts *o);

/*
 * Checks the options against each other, reads the hosts and places the
 * cluster's slaves on them; exits 2 with the cause.
 */
void run_opts_validate(struct run_opts *o);

#endif
