/*
 * ior_wait.c - waiting for a server's IOR file (see ior_wait.h).
 */
#include "ior_wait.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "dls_time.h"

/* Has pid exited?  Asked without reaping it: the launcher's own wait does. */
static int exited(pid_t pid)
{
	siginfo_t info;

	memset(&info, 0, sizeof(info));
	return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       info.si_pid == pid;
}

/* The IOR in path: 0 with it in out, -1 when there is none (yet). */
static int read_ior(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(out, (int)len, f) && !strncmp(out, "IOR:", 4) && strchr(out, '\n');
	fclose(f);
	if (!ok)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

int ior_wait(const char *path, pid_t pid, int timeout_ms, char *out, size_t len)
{
	double deadline = dls_now() + timeout_ms / 1000.0;

	for (;;) {
		if (!read_ior(path, out, len))
			return 0;
		if (exited(pid) || dls_now() >= deadline)
			return -1;
		dls_sleep_ms(5);
	}
}
