/*
 * host_peers.c - the run's computing threads on this host (see
 * host_peers.h).
 */
#include "host_peers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dls_log.h"

/* A run name that is a plain file name: letters, digits, '-', '_', '.',
 * not starting with '.'. */
static int plain_name(const char *run)
{
	if (!run[0] || run[0] == '.')
		return 0;
	for (const char *c = run; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9') && *c != '-' && *c != '_' && *c != '.')
			return 0;
	return 1;
}

/* Makes dir (mode 0700) unless it is there; usable only when it is a real
 * folder of this user's.  0 or an errno. */
static int own_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return errno;
	if (lstat(dir, &st))
		return errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return EPERM;
	return 0;
}

/* The run's folder into p->dir: 0 or an errno (p->dir then ""). */
static int find_dir(struct host_peers *p, const char *run)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char base[160];
	int e;

	if (rt && rt[0] == '/' && strlen(rt) < 100)
		snprintf(base, sizeof(base), "%s/dls-runs", rt);
	else
		snprintf(base, sizeof(base), "/dev/shm/dls-%ld", (long)geteuid());
	if ((e = own_dir(base)))
		return e;
	snprintf(p->dir, sizeof(p->dir), "%s/%s", base, run);
	if ((e = own_dir(p->dir)))
		p->dir[0] = '\0';
	return e;
}

int host_peers_join(struct host_peers *p, const char *run)
{
	static atomic_int said;
	int fd, e;

	memset(p, 0, sizeof(*p));
	if (!plain_name(run))
		e = EINVAL;
	else if ((e = find_dir(p, run)) == 0) {
		snprintf(p->entry, sizeof(p->entry), "%s/%ld.%ld", p->dir, (long)getpid(),
			 (long)gettid());
		fd = open(p->entry, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0)
			close(fd);
		else
			e = errno;
	}
	if (!e)
		return 1;
	if (!atomic_exchange(&said, 1))
		log_warn("Q_i counts this run's own slaves on this host as load: no folder "
			 "for run '%s' to list them in (%s)",
			 run, e == EINVAL ? "its name is not a plain file name" : strerror(e));
	p->dir[0] = p->entry[0] = '\0';
	return 0;
}

void host_peers_leave(struct host_peers *p)
{
	if (p->entry[0])
		unlink(p->entry);
	p->entry[0] = '\0';
}

/* Thread tid of process pid: 1 running, 0 not, -1 gone. */
static int thread_running(long pid, long tid)
{
	char path[64], buf[512], *close_paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	close_paren = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
	if (!close_paren || close_paren[1] != ' ')
		return 0;
	return close_paren[2] == 'R';
}

int host_peers_running(const struct host_peers *p)
{
	long me = (long)gettid(), pid, tid;
	struct dirent *d;
	char extra, path[480];
	int n = 0, state;
	DIR *dir;

	if (!p->dir[0] || !(dir = opendir(p->dir)))
		return 0;
	while ((d = readdir(dir))) {
		if (sscanf(d->d_name, "%ld.%ld%c", &pid, &tid, &extra) != 2 || tid == me)
			continue;
		state = thread_running(pid, tid);
		if (state > 0)
			n++;
		else if (state < 0) { /* its thread is gone: a crash left it */
			snprintf(path, sizeof(path), "%s/%s", p->dir, d->d_name);
			unlink(path);
		}
	}
	closedir(dir);
	return n;
}
