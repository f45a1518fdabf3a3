/*
 * dls compare - checks an image computed by a run against another (usually
 * the sequential `dls mandel --raw`), column by column.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_cmds.h"
#include "image_file.h"

#define PROG "dls compare"

/* Reads path, or says why not (the file, the cause): DLS_OK or the error. */
static int read_image(const char *path, uint16_t **counts, int32_t *w, int32_t *h)
{
	int rc;

	errno = 0;
	rc = image_file_read_pgm16(path, counts, w, h);
	if (rc == DLS_EIO)
		fprintf(stderr, PROG ": cannot read '%s': %s\n", path, strerror(errno));
	else if (rc == DLS_ENOMEM)
		fprintf(stderr, PROG ": cannot read '%s': no memory for its size\n", path);
	else if (rc)
		fprintf(stderr,
			PROG ": cannot read '%s': not a 16-bit PGM (P5, maxval 65535), or cut "
			     "short\n",
			path);
	return rc;
}

int dls_cmd_compare(int argc, char **argv)
{
	uint16_t *a, *b;
	int32_t wa, ha, wb, hb;
	int64_t bad = 0, first = -1;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: dls compare A.pgm B.pgm\n\n"
		       "Compares two 16-bit PGM images (dls-master --raw, dls mandel --raw) column\n"
		       "by column; exit 0 when identical, 1 when not.\n");
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, PROG ": two images are required\ntry '" PROG " --help'\n");
		return 2;
	}
	if (read_image(argv[1], &a, &wa, &ha))
		return 2;
	if (read_image(argv[2], &b, &wb, &hb)) {
		free(a);
		return 2;
	}
	if (wa != wb || ha != hb) {
		printf("different sizes: %dx%d and %dx%d\n", wa, ha, wb, hb);
		free(a);
		free(b);
		return 1;
	}
	for (int32_t x = 0; x < wa; x++)
		if (memcmp(a + (size_t)x * ha, b + (size_t)x * ha, (size_t)ha * 2)) {
			if (first < 0)
				first = x;
			bad++;
		}
	if (bad)
		printf("%lld of %d columns differ (first: column %lld)\n", (long long)bad, wa,
		       (long long)first);
	else
		printf("identical: %d columns of %d rows\n", wa, ha);
	free(a);
	free(b);
	return bad ? 1 : 0;
}
