/*
 * dls tls - the certificates of a run across machines: `dls tls init` makes
 * a CA and, for every host of a hostfile, the folder its programs take as
 * --tls-dir.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_cmds.h"
#include "hostfile.h"
#include "net_addr.h"
#include "tls_setup.h"

#define PROG "dls tls"

static void help(void)
{
	printf("usage: dls tls init --dir D [--hostfile FILE] [--days N]\n\n"
	       "Makes D/ca.pem (a new certificate authority; an existing one in D is kept, so\n"
	       "hosts can be added) and, for each host of FILE (default: one host, 'localhost'\n"
	       "at 127.0.0.1), the folder D/NAME: ca.pem, node.pem (a certificate for the\n"
	       "host's name and address, in subjectAltName, and its encrypted key) and\n"
	       "node.password (mode 0600).  Copy D/NAME to host NAME (or share D) and give\n"
	       "its programs --tls-dir D/NAME; keep D/ca.key to yourself.\n\n"
	       "  --dir D          the folder (made mode 0700)\n"
	       "  --hostfile FILE  the hosts, as for dls run --hostfile\n"
	       "  --days N         validity of the certificates (default 365)\n");
}

int dls_cmd_tls(int argc, char **argv)
{
	static const struct option opts[] = {{"dir", required_argument, 0, 'd'},
					     {"hostfile", required_argument, 0, 'f'},
					     {"days", required_argument, 0, 'n'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	static struct hostfile hf;
	const char *dir = NULL, *hostfile = NULL;
	char why[4600], ca[4200];
	int c, days = 365;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'f':
			hostfile = optarg;
			break;
		case 'n':
			days = (int)cli_i64_or_die(PROG, "--days", optarg, 1, 36500);
			break;
		case 'h':
			help();
			return 0;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind >= argc || strcmp(argv[optind], "init"))
		cli_usage_error(PROG, "command", optind < argc ? argv[optind] : NULL,
				"must be init");
	if (!dir)
		cli_usage_error(PROG, "--dir", NULL, "is required");
	if (hostfile) {
		if (hostfile_read(hostfile, &hf, why, sizeof(why)))
			cli_usage_error(PROG, "--hostfile", hostfile, why);
	} else {
		hf.n = 1;
		snprintf(hf.host[0].name, sizeof(hf.host[0].name), "localhost");
		snprintf(hf.host[0].addr, sizeof(hf.host[0].addr), "127.0.0.1");
	}
	snprintf(ca, sizeof(ca), "%s/" TLS_CA_FILE, dir);
	if (access(ca, R_OK) && tls_make_ca(dir, days, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	for (int i = 0; i < hf.n; i++) {
		if (tls_make_host(dir, hf.host[i].name, hf.host[i].addr, days, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s\n", why);
			return 1;
		}
		printf("%s/%s\n", dir, hf.host[i].name);
	}
	return 0;
}
