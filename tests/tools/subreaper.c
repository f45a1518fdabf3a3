/*
 * subreaper.c - runs a command as a child subreaper, so that the test
 * library can find every process a test started.
 *
 *   subreaper COMMAND [ARG...]
 *
 * Sets PR_SET_CHILD_SUBREAPER (kept across execve) and then becomes
 * COMMAND.  A process the command's descendants leave orphaned (a server
 * whose `timeout` wrapper was killed, a daemon that forked away from its
 * starter, omniNames after `dls names start` returned) is then re-parented
 * to COMMAND rather than to init: every process the command started stays
 * in its tree, where tests/integration/procs.sh lists, stops and names it.
 * Exit status: COMMAND's, or 127 when it cannot be run.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: subreaper COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L)) {
		fprintf(stderr, "subreaper: cannot become a child subreaper: %s\n",
			strerror(errno));
		return 127;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "subreaper: cannot run '%s': %s\n", argv[1], strerror(errno));
	return 127;
}
