/*
 * out_files.c - output files held from the start (see out_files.h).
 */
#include "out_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct held {
	char *path;
	int fd;
	int made; /* this program made the file: removed if never written */
} held[OUT_FILES_MAX];
static int nheld;

/* At the end of a program that did not write a held file: a file it made
 * goes again, as if never opened; one that was there is left as it was. */
static void drop_unwritten(void)
{
	for (int i = 0; i < nheld; i++)
		if (held[i].path) {
			close(held[i].fd);
			if (held[i].made)
				unlink(held[i].path);
			free(held[i].path);
			held[i].path = NULL;
		}
}

int out_files_hold(const char *path)
{
	struct stat st;
	int fd, made, e;

	if (nheld == OUT_FILES_MAX)
		return 0; /* opened when written, as without holding */
	made = stat(path, &st) != 0;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	held[nheld].path = strdup(path);
	if (!held[nheld].path) {
		e = errno;
		close(fd);
		if (made)
			unlink(path);
		return e;
	}
	held[nheld].fd = fd;
	held[nheld].made = made;
	if (nheld++ == 0)
		atexit(drop_unwritten);
	return 0;
}

FILE *out_file_open(const char *path, const char *mode)
{
	for (int i = 0; i < nheld; i++) {
		FILE *f;

		if (!held[i].path || strcmp(held[i].path, path))
			continue;
		if (ftruncate(held[i].fd, 0) || lseek(held[i].fd, 0, SEEK_SET) < 0)
			return NULL;
		f = fdopen(held[i].fd, mode);
		if (f) { /* the stream owns the descriptor now */
			free(held[i].path);
			held[i].path = NULL;
		}
		return f;
	}
	return fopen(path, mode);
}
