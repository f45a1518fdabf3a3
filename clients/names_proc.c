#include "names_proc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "dls_time.h"
#include "net_addr.h"
#include "proc.h"

char *names_address(const char *addr, int port, char *buf, size_t len)
{
	char host[300];

	snprintf(buf, len, "corbaname::%s:%d", net_url_host(addr ? addr : "127.0.0.1", host,
							     sizeof(host)), port);
	return buf;
}

/* omniNames opens its port before its root context exists, and answers
 * OBJECT_NOT_EXIST meanwhile (a loaded machine widens that window): it is
 * ready once it logged "Root context is".  Waits for that line in `log`
 * past offset `from`, up to timeout_ms; 0 once seen, -1 if not. */
static int wait_root_context(const char *log, long from, int timeout_ms)
{
	double deadline = dls_now() + timeout_ms / 1000.0;

	do {
		FILE *f = fopen(log, "r");
		char line[4096];
		int seen = 0;

		if (f) {
			if (fseek(f, from, SEEK_SET) == 0)
				while (!seen && fgets(line, sizeof(line), f))
					seen = strstr(line, "Root context is") != NULL;
			fclose(f);
		}
		if (seen)
			return 0;
		dls_sleep_ms(20);
	} while (dls_now() < deadline);
	return -1;
}

/* The size of the file at path (0 when there is none). */
static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (long)st.st_size;
}

/* How long a launch may take to start omniNames at all (a remote login on
 * a loaded host runs the shell's start-up first): the wait for its port
 * goes on while it has written nothing. */
#define NAMES_LAUNCH_S 30

/* Waits for omniNames (pid, writing to log past offset from) to take
 * connections on addr:p: 5 s once it has written something, and before
 * that as long as its launch runs, up to NAMES_LAUNCH_S.  0 once it
 * answers, -1 if not. */
static int wait_names_port(const char *addr, int p, pid_t pid, const char *log, long from)
{
	double until = dls_now() + NAMES_LAUNCH_S;

	for (;;) {
		if (proc_wait_port(addr, p, 5000, pid) == 0)
			return 0;
		if (file_size(log) > from || dls_now() >= until || waitpid(pid, NULL, WNOHANG) != 0)
			return -1;
	}
}

int names_start(const char *dir, const char *addr, int port, int daemon,
		const struct names_spawn *how, pid_t *pid, int *port_out, char *why, size_t len)
{
	char log[4096], portstr[16], endpoint[400], host[300], said[512];

	if (!addr)
		addr = "127.0.0.1";
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, len, "cannot create '%s': %s", dir, strerror(errno));
		return -1;
	}
	snprintf(log, sizeof(log), "%s/omniNames.log", dir);
	for (int attempt = 0; attempt < 5; attempt++) {
		int p = port ? port : proc_free_port();
		char *argv[] = {"omniNames", "-start", portstr, "-datadir", (char *)dir, "-always",
				"-ORBendPoint", endpoint, NULL};

		snprintf(portstr, sizeof(portstr), "%d", p);
		snprintf(endpoint, sizeof(endpoint), "giop:tcp:%s:%d",
			 net_url_host(addr, host, sizeof(host)), p);
		long from = file_size(log);

		*pid = how ? how->spawn(how->ctx, argv, log) : proc_spawn(argv, log, log, daemon);
		if (*pid < 0) {
			snprintf(why, len, "cannot start omniNames: %s", strerror(errno));
			return -1;
		}
		/* it must be our omniNames that answers, not whoever took the port */
		if (wait_names_port(addr, p, *pid, log, from) == 0 &&
		    waitpid(*pid, NULL, WNOHANG) == 0) {
			/* (a launch that hides omniNames' output: the port will do) */
			wait_root_context(log, from, 5000);
			*port_out = p;
			return 0;
		}
		if (waitpid(*pid, NULL, WNOHANG) == 0) {
			/* it runs, but its port does not answer from here: the
			 * address, not the port, is wrong (another port would not do) */
			proc_stop(*pid, 500);
			snprintf(why, len,
				 "omniNames runs on %s:%d but this host cannot reach it there in 5 s "
				 "after it started: "
				 "the address must be one of this host's that the run's hosts reach "
				 "(see %s)",
				 addr, p, log);
			return -1;
		}
		proc_stop(*pid, 500);
		if (port)
			break;
	}
	proc_last_line(log, said, sizeof(said));
	if (port)
		snprintf(why, len, "omniNames did not start on %s:%d%s%s (see %s)", addr, port,
			 said[0] ? ": " : "", said, log);
	else
		snprintf(why, len, "omniNames did not start on %s, 5 free ports tried%s%s (see %s)",
			 addr, said[0] ? ": " : "", said, log);
	return -1;
}
