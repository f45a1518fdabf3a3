/*
 * replay_main.c - runs a fuzz harness over saved inputs without libFuzzer,
 * so that any compiler (and `make check`) replays the committed corpus:
 *   fuzz_X FILE|DIR ...
 * Each input goes once through LLVMFuzzerTestOneInput; a harness that finds
 * a broken invariant aborts, so a bad input fails the run.  Prints how many
 * inputs ran.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_input.h"

static char current[4096]; /* the input running now */

/* An invariant broke (abort) or a sanitizer stopped the run: name the input. */
static void name_input(int sig)
{
	static const char head[] = "the input that broke it: ";

	if (write(2, head, sizeof(head) - 1) < 0 || write(2, current, strlen(current)) < 0 ||
	    write(2, "\n", 1) < 0)
		_exit(128 + sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int run_file(const char *prog, const char *path)
{
	FILE *in = fopen(path, "rb");
	uint8_t *buf;
	long size;

	if (!in) {
		fprintf(stderr, "%s: cannot open input %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	if (fseek(in, 0, SEEK_END) != 0 || (size = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) != 0) {
		fprintf(stderr, "%s: cannot size input %s: %s\n", prog, path, strerror(errno));
		fclose(in);
		return -1;
	}
	buf = malloc((size_t)size + 1);
	if (!buf || fread(buf, 1, (size_t)size, in) != (size_t)size) {
		fprintf(stderr, "%s: cannot read input %s\n", prog, path);
		free(buf);
		fclose(in);
		return -1;
	}
	fclose(in);
	snprintf(current, sizeof(current), "%s", path);
	LLVMFuzzerTestOneInput(buf, (size_t)size);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	long ran = 0;

	fz_setup();
	signal(SIGABRT, name_input);
	signal(SIGSEGV, name_input);
	for (int a = 1; a < argc; a++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[a], &st) != 0) {
			fprintf(stderr, "%s: no input %s: %s\n", argv[0], argv[a], strerror(errno));
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[0], argv[a]))
				return 2;
			ran++;
			continue;
		}
		if (!(d = opendir(argv[a]))) {
			fprintf(stderr, "%s: cannot list %s: %s\n", argv[0], argv[a], strerror(errno));
			return 2;
		}
		while ((e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[a], e->d_name);
			if (run_file(argv[0], path)) {
				closedir(d);
				return 2;
			}
			ran++;
		}
		closedir(d);
	}
	printf("%s: %ld inputs, no broken invariant\n", argv[0], ran);
	return 0;
}
