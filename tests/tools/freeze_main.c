/*
 * freeze_main.c - runs a command and, after a delay, freezes its main
 * thread alone: the thread stops (a ptrace stop of that one thread) while
 * the process's other threads go on.  A dls-slave computes on its main
 * thread and answers its ORB's calls (pings, progress) on others: frozen
 * so, it is a slave whose computation hangs while it still answers.
 *
 *   freeze_main SECONDS COMMAND [ARG...]
 *
 * Prints "frozen PID" once the thread stopped.  SIGUSR1 lets the thread go
 * on (a straggler that was only slow).  On SIGTERM (or when the
 * command exits) the command is killed with SIGKILL and reaped, and
 * freeze_main exits: 0, or 1 when the thread could not be frozen (the
 * line says why: a kernel that forbids ptrace), 2 on a usage error.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop, thaw;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_usr1(int sig)
{
	(void)sig;
	thaw = 1;
}

int main(int argc, char **argv)
{
	struct timespec delay;
	double secs;
	pid_t child;
	int status, rc = 0;

	if (argc < 3 || (secs = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: freeze_main SECONDS COMMAND [ARG...]\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	signal(SIGUSR1, on_usr1);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		signal(SIGTERM, SIG_DFL);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "freeze_main: cannot run '%s': %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	delay.tv_sec = (time_t)secs;
	delay.tv_nsec = (long)((secs - (double)delay.tv_sec) * 1e9);
	while (nanosleep(&delay, &delay) && errno == EINTR && !stop)
		;
	/* the main thread only: a seize attaches to that one thread */
	if (!stop && waitpid(child, &status, WNOHANG) == 0) {
		if (ptrace(PTRACE_SEIZE, child, NULL, NULL) ||
		    ptrace(PTRACE_INTERRUPT, child, NULL, NULL)) {
			fprintf(stderr, "freeze_main: cannot freeze %d: ptrace: %s\n", (int)child,
				strerror(errno));
			rc = 1;
		} else if (waitpid(child, &status, __WALL) == child && WIFSTOPPED(status)) {
			printf("frozen %d\n", (int)child);
			fflush(stdout);
		}
	}
	while (!stop && waitpid(child, &status, WNOHANG | __WALL) == 0) {
		if (thaw) {
			thaw = 0;
			if (ptrace(PTRACE_DETACH, child, NULL, NULL))
				fprintf(stderr, "freeze_main: cannot let %d go: %s\n", (int)child,
					strerror(errno));
			else
				printf("thawed %d\n", (int)child), fflush(stdout);
		}
		usleep(20000);
	}
	kill(child, SIGKILL);
	while (waitpid(child, &status, __WALL) > 0)
		;
	return rc;
}
