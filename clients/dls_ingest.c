/*
 * dls ingest - the master's result ingest rate and the bare ORB's transfer
 * rate of the same messages (see ingest.h; scripts/bench-ingest.sh runs
 * both side by side).
 */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "dls_cmds.h"
#include "ingest.h"
#include "orb_util.h"

#define PROG "dls ingest"

int dls_cmd_ingest(int argc, char **argv)
{
	int rc;

	if (argc >= 2 && !strcmp(argv[1], "--help")) {
		printf("usage: dls ingest --serve IOR_FILE [-ORB...]\n"
		       "       dls ingest --bare IOR --block-bytes B --bytes N [-ORB...]\n"
		       "       dls ingest --master RUN [-ORB...]\n\n"
		       "--serve: a master whose submit() drops what it gets, until killed.\n"
		       "--bare: submit() blocks of B octets to it until N went.\n"
		       "--master: deliver a whole loop to the real master of RUN (started with\n"
		       "          --slaves 1 --scheme gss) as a slave does.\n"
		       "Both senders print 'bytes N start S end E'.\n");
		return 0;
	}
	if (dls_orb_init(&argc, argv, 120000))
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--serve")) {
		cli_keep_message_buffers(); /* as dls-master does: the same ground */
		rc = ingest_bare_serve(argv[2]);
	}
	else if (argc == 7 && !strcmp(argv[1], "--bare") && !strcmp(argv[3], "--block-bytes") &&
		 !strcmp(argv[5], "--bytes"))
		rc = ingest_bare_send(argv[2],
				      (size_t)cli_i64_or_die(PROG, "--block-bytes", argv[4], 1, 1 << 20),
				      cli_i64_or_die(PROG, "--bytes", argv[6], 1, (int64_t)1 << 40));
	else if (argc == 3 && !strcmp(argv[1], "--master"))
		rc = ingest_master(argv[2]);
	else {
		fprintf(stderr, PROG ": --serve, --bare or --master; try '" PROG " --help'\n");
		rc = 2;
	}
	dls_orb_destroy();
	return rc;
}
