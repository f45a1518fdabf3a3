#include "proc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <fcntl.h>
#include <libgen.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dls_time.h"

static int redirect(const char *path, int fd)
{
	int f = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);

	if (f < 0)
		return -1;
	if (dup2(f, fd) < 0)
		return -1;
	close(f);
	return 0;
}

/* fork and exec argv: stdin from in_fd (-1: inherited, or /dev/null in a
 * new session), stdout and stderr to the files. */
static pid_t spawn(char *const argv[], int in_fd, const char *out_path, const char *err_path,
		   int new_session)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (new_session)
		setsid();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if ((out_path && redirect(out_path, STDOUT_FILENO)) ||
	    (err_path && redirect(err_path, STDERR_FILENO)))
		_exit(127);
	if (new_session && in_fd < 0)
		in_fd = open("/dev/null", O_RDONLY);
	if (in_fd >= 0 && dup2(in_fd, STDIN_FILENO) < 0)
		_exit(127);
	execvp(argv[0], argv);
	fprintf(stderr, "cannot start '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

pid_t proc_spawn(char *const argv[], const char *out_path, const char *err_path, int new_session)
{
	return spawn(argv, -1, out_path, err_path, new_session);
}

pid_t proc_spawn_in(char *const argv[], int in_fd, const char *out_path, const char *err_path)
{
	return spawn(argv, in_fd, out_path, err_path, 0);
}

int proc_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return -1;
}

/* Reaps pid if it is our child and has ended; 1 when gone. */
static int gone(pid_t pid, int *status)
{
	int ws;
	pid_t r = waitpid(pid, &ws, WNOHANG);

	if (r == pid) {
		*status = proc_status(ws);
		return 1;
	}
	if (r < 0 && errno == ECHILD) /* not our child: ask the kernel */
		return kill(pid, 0) != 0;
	return 0;
}

int proc_stop(pid_t pid, int grace_ms)
{
	int status = -1;
	double deadline = dls_now() + grace_ms / 1000.0;

	if (pid <= 0)
		return -1;
	if (gone(pid, &status))
		return status;
	kill(pid, SIGTERM);
	while (dls_now() < deadline) {
		if (gone(pid, &status))
			return status;
		dls_sleep_ms(10);
	}
	kill(pid, SIGKILL);
	for (int i = 0; i < 500; i++) {
		if (gone(pid, &status))
			return status;
		dls_sleep_ms(10);
	}
	return status;
}

void proc_last_line(const char *path, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

int proc_free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (s < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(s, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(s);
	return port;
}

/* Can a TCP connection to host:port be made now? */
static int connects(const char *host, int port)
{
	struct addrinfo hints = {0}, *res = NULL;
	char portstr[16];
	int ok = 0;

	hints.ai_socktype = SOCK_STREAM;
	snprintf(portstr, sizeof(portstr), "%d", port);
	if (getaddrinfo(host ? host : "127.0.0.1", portstr, &hints, &res))
		return 0;
	for (struct addrinfo *a = res; a && !ok; a = a->ai_next) {
		int s = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);

		ok = s >= 0 && connect(s, a->ai_addr, a->ai_addrlen) == 0;
		if (s >= 0)
			close(s);
	}
	freeaddrinfo(res);
	return ok;
}

/* 1 once the child pid has exited; it stays a zombie for its reaper. */
static int exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

int proc_wait_port(const char *host, int port, int timeout_ms, pid_t starter)
{
	double deadline = dls_now() + timeout_ms / 1000.0;

	do {
		if (connects(host, port))
			return 0;
		if (starter > 0 && exited(starter))
			return -1;
		dls_sleep_ms(20);
	} while (dls_now() < deadline);
	return -1;
}

const char *proc_self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n <= 0) {
		snprintf(buf, len, ".");
		return buf;
	}
	buf[n] = '\0';
	return dirname(buf);
}
