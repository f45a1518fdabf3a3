/*
 * dls names - a private omniNames for users who launch servants by hand:
 * `dls names start` prints its corbaname:: address, `dls names stop` stops it.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_cmds.h"
#include "names_proc.h"
#include "net_addr.h"
#include "proc.h"

#define PROG "dls names"

static void help(void)
{
	printf("usage: dls names start [--listen ADDR[:P]] [--port P] [--dir D]\n"
	       "       dls names stop [--dir D]\n\n"
	       "start: runs omniNames on ADDR:P (default 127.0.0.1 and a free port; ADDR one\n"
	       "       of this host's addresses that the run's other hosts reach) with its\n"
	       "       data in D (default /tmp/dls-names-UID), detached, and prints the address\n"
	       "       to give every program as -ORBInitRef NameService=ADDRESS.\n"
	       "stop:  stops the omniNames started in D.\n");
}

/* dls names start: a detached omniNames in dir on listen (port 0: any),
 * its pid, port and host kept in pidfile; prints the address.  The exit
 * status. */
static int names_start_cmd(const char *dir, const char *pidfile, const struct net_listen *listen,
			   int port)
{
	char why[512], addr[400], was[NET_HOST_LEN];
	int got_port, old;
	pid_t pid;
	FILE *f = fopen(pidfile, "r");

	if (f) {
		if (fscanf(f, "%d %d %255s", &old, &got_port, was) == 3 && kill(old, 0) == 0) {
			fclose(f);
			fprintf(stderr, PROG ": already running in %s (pid %d): %s\n", dir, old,
				names_address(was, got_port, addr, sizeof(addr)));
			return 1;
		}
		fclose(f);
	}
	if (names_start(dir, listen->host, port, 1, NULL, &pid, &got_port, why, sizeof(why))) {
		fprintf(stderr, PROG ": cannot start the naming service: %s\n", why);
		return 1;
	}
	f = fopen(pidfile, "w");
	if (!f || fprintf(f, "%d %d %s\n", (int)pid, got_port, listen->host) < 0 || fclose(f)) {
		fprintf(stderr, PROG ": cannot write '%s': %s\n", pidfile, strerror(errno));
		proc_stop(pid, 1000);
		return 1;
	}
	printf("%s\n", names_address(listen->host, got_port, addr, sizeof(addr)));
	return 0;
}

/* dls names stop: stops the omniNames whose pid pidfile holds.  The exit
 * status. */
static int names_stop_cmd(const char *dir, const char *pidfile)
{
	int pid, port;
	FILE *f = fopen(pidfile, "r");

	if (!f || fscanf(f, "%d %d", &pid, &port) != 2) {
		fprintf(stderr, PROG ": no naming service started in %s\n", dir);
		if (f)
			fclose(f);
		return 1;
	}
	fclose(f);
	proc_stop(pid, 2000);
	remove(pidfile);
	return 0;
}

int dls_cmd_names(int argc, char **argv)
{
	static const struct option opts[] = {{"port", required_argument, 0, 'p'},
					     {"listen", required_argument, 0, 'l'},
					     {"dir", required_argument, 0, 'd'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	char dir[4096], pidfile[4200], why[512];
	struct net_listen listen = {"127.0.0.1", 0};
	int c, port = 0;
	const char *verb;

	snprintf(dir, sizeof(dir), "/tmp/dls-names-%d", (int)getuid());
	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'p':
			port = (int)cli_i64_or_die(PROG, "--port", optarg, 1, 65535);
			break;
		case 'l':
			if (net_listen_parse(optarg, &listen, why, sizeof(why)))
				cli_usage_error(PROG, "--listen", optarg, why);
			if (listen.port)
				port = listen.port;
			break;
		case 'd':
			snprintf(dir, sizeof(dir), "%s", optarg);
			break;
		case 'h':
			help();
			return 0;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind >= argc)
		cli_usage_error(PROG, "command", NULL, "start or stop is required");
	verb = argv[optind];
	snprintf(pidfile, sizeof(pidfile), "%s/omniNames.pid", dir);
	if (!strcmp(verb, "start"))
		return names_start_cmd(dir, pidfile, &listen, port);
	if (!strcmp(verb, "stop"))
		return names_stop_cmd(dir, pidfile);
	cli_usage_error(PROG, "command", verb, "must be start or stop");
}
