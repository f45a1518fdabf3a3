/*
 * run_hosts.h - where the processes of `dls run` go: the hosts (a hostfile,
 * or this machine alone), which host runs which slave and hmaster, and how
 * a program is started on a host (the --launch template) with the address
 * it listens on and its TLS folder.
 */
#ifndef DLS_RUN_HOSTS_H
#define DLS_RUN_HOSTS_H

#include <sys/types.h>

#include "cluster.h"
#include "hostfile.h"

struct run_hosts {
	struct hostfile hf;   /* without --hostfile: one host, localhost at 127.0.0.1 */
	int from_file;        /* hf came from --hostfile or Slurm */
	const char *launch;   /* the template; NULL: start programs here */
	int remote_shell;     /* the template hands the command to a remote shell
				 (ssh, rsh): every argument is quoted */
	int slave_host[CLUSTER_MAX];
	/* the hosts that run slaves, in order (run_hosts_place): nused of
	 * them; host used_host[k] is the k-th, used_index[h] is host h's k
	 * (-1: no slave there) */
	int nused, used_host[HOSTFILE_MAX], used_index[HOSTFILE_MAX];
	int lifeline; /* the read end of the lifeline (run_hosts_lifeline), or -1 */
};

/*
 * Sets rh to this machine alone (hostfile NULL, slurm 0), to the hosts of
 * hostfile, or (slurm) to those of the Slurm allocation this process runs
 * in, started with the template launch (NULL: "ssh {host}" for a hostfile,
 * SLURM_LAUNCH for Slurm).  0, or -1 with why filled (the file, the line,
 * the cause).
 */
int run_hosts_init(struct run_hosts *rh, const char *hostfile, int slurm, const char *launch,
		   char *why, size_t len);

/*
 * Places n slaves on the hosts' slots in order (MPI's "by slot"), and
 * numbers the hosts that got some (used_host, used_index); with use_hosts
 * (no --cluster or --speeds), first makes c the hosts' slots with their
 * speed= and load=.  0, or -1 with why filled (more slaves than
 * slots; speed= or load= beside a cluster given on the command line).
 */
int run_hosts_place(struct run_hosts *rh, struct cluster *c, int use_hosts, char *why,
		    size_t len);

/* Host h's address, as its programs --listen. */
const char *run_hosts_addr(const struct run_hosts *rh, int h);

/*
 * Opens the run's lifeline: every program started afterwards reads its
 * stdin from a pipe whose only writer is this process, which never writes.
 * When it ends, however it ends (even kill -9), the pipe closes; DLS's
 * programs started with --lifeline then exit, on every host (ssh and srun
 * forward the end of stdin), and run_hosts_guard() stops the others.
 * 0, or -1 with errno.
 */
int run_hosts_lifeline(struct run_hosts *rh);

/*
 * argv of a program that has no --lifeline (omniNames) as `sh -c SCRIPT sh
 * argv...` into out (max words with the NULL): the shell starts it, stops
 * it when stdin closes or the shell is stopped (TERM, HUP, INT), and exits
 * with it.  The number of words, or -1 when max is too small.
 */
int run_hosts_guard(char *const argv[], char **out, int max);

/*
 * Starts argv on host h (through the template, argv quoted for a remote
 * shell), stdin from the lifeline if open, output to out_path and err_path
 * as proc_spawn().  The PID of the
 * local process (the program itself, ip netns exec, ssh or srun), or -1.
 */
pid_t run_hosts_spawn(const struct run_hosts *rh, int h, char *const argv[],
		      const char *out_path, const char *err_path);

#endif
