/*
 * dls orbping - a bare omniORB two-way call rate, for comparison with the
 * master's request rate (used by `dls bench --capacity`).
 */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "dls_cmds.h"
#include "orb_util.h"
#include "orbping.h"

#define PROG "dls orbping"

int dls_cmd_orbping(int argc, char **argv)
{
	int rc;

	if (argc >= 2 && !strcmp(argv[1], "--help")) {
		printf("usage: dls orbping --serve IOR_FILE [-ORB...]\n"
		       "       dls orbping --call IOR --calls N [-ORB...]\n\n"
		       "--serve: a servant whose ping() does nothing, until killed.\n"
		       "--call: N two-way ping() calls; prints 'calls N start S end E'.\n");
		return 0;
	}
	if (dls_orb_init(&argc, argv, 10000))
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--serve"))
		rc = orbping_serve(argv[2]);
	else if (argc == 5 && !strcmp(argv[1], "--call") && !strcmp(argv[3], "--calls"))
		rc = orbping_call(argv[2], (long)cli_i64_or_die(PROG, "--calls", argv[4], 1,
								 1000000000));
	else {
		fprintf(stderr, PROG ": --serve IOR_FILE or --call IOR --calls N\ntry '" PROG
				     " --help'\n");
		rc = 2;
	}
	dls_orb_destroy();
	return rc;
}
