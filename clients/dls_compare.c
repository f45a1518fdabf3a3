/*
 * dls compare - checks an image computed by a run against another (usually
 * the sequential `dls mandel --raw`), column by column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_cmds.h"
#include "image_file.h"

#define PROG "dls compare"

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
	if (image_file_read_pgm16(argv[1], &a, &wa, &ha)) {
		fprintf(stderr, PROG ": cannot read '%s': not a 16-bit PGM\n", argv[1]);
		return 2;
	}
	if (image_file_read_pgm16(argv[2], &b, &wb, &hb)) {
		fprintf(stderr, PROG ": cannot read '%s': not a 16-bit PGM\n", argv[2]);
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
