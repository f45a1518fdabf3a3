/*
 * freeze_main.c - runs a command and, when told, freezes its main thread
 * alone: the thread stops (a ptrace stop of that one thread) while the
 * process's other threads go on.  A dls-slave computes on its main thread
 * and answers its ORB's calls (pings, progress) on others: frozen so, it
 * is a slave whose computation hangs while it still answers.
 *
 *   freeze_main COMMAND [ARG...]
 *
 * SIGUSR2 freezes the thread ("frozen PID" on stdout once it stopped, or
 * "cannot freeze" on stderr when the kernel forbids ptrace); SIGUSR1 lets
 * it go on ("thawed PID": a straggler that was only slow).  On SIGTERM, or
 * when the command exits, the command is killed with SIGKILL and reaped,
 * and freeze_main exits 0 (2 on a usage error).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop, freeze, thaw;

static void on_signal(int sig)
{
	if (sig == SIGTERM)
		stop = 1;
	else if (sig == SIGUSR2)
		freeze = 1;
	else
		thaw = 1;
}

/* Stops child's main thread alone: a seize attaches to that one thread. */
static void freeze_thread(pid_t child)
{
	int status;

	if (ptrace(PTRACE_SEIZE, child, NULL, NULL) ||
	    ptrace(PTRACE_INTERRUPT, child, NULL, NULL)) {
		fprintf(stderr, "freeze_main: cannot freeze %d: ptrace: %s\n", (int)child,
			strerror(errno));
		return;
	}
	if (waitpid(child, &status, __WALL) == child && WIFSTOPPED(status)) {
		printf("frozen %d\n", (int)child);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	pid_t child;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: freeze_main COMMAND [ARG...]\n");
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, on_signal);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGUSR1, SIG_DFL);
		signal(SIGUSR2, SIG_DFL);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "freeze_main: cannot run '%s': %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (!stop && waitpid(child, &status, WNOHANG | __WALL) == 0) {
		if (freeze) {
			freeze = 0;
			freeze_thread(child);
		}
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
	return 0;
}
