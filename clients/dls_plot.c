/*
 * dls plot - pictures of a run from its JSON: the Gantt chart of its
 * chunks (clients/gantt.h) and the whole report as HTML (report_html.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls/err.h"
#include "dls_cmds.h"
#include "gantt.h"
#include "pictures.h"
#include "report_html.h"

#define PROG "dls plot"

static void help(void)
{
	printf("usage: dls plot RUN.json [--gantt OUT.png|OUT.svg] [--report OUT.html]\n\n"
	       "Draws a run from its JSON (dls run --json, dls-master --json).\n\n"
	       "  --gantt OUT   the Gantt chart: one row per PE, each chunk a bar from\n"
	       "                when the PE began it to when it ended (the compute time\n"
	       "                its slave measured, on the master's clock), coloured by\n"
	       "                its size; gaps are waits, the dashed line is T_p.\n"
	       "                Master-slave runs (Tree Scheduling and the balancing\n"
	       "                policies keep no timeline)\n"
	       "  --report OUT  the run's report as one HTML file that opens in any\n"
	       "                browser: T_p, T_ideal and E, the per-PE table, each\n"
	       "                loop's figures, the Gantt chart, the scheme's decisions\n");
}

int dls_cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {{"gantt", required_argument, 0, 'g'},
					     {"report", required_argument, 0, 'r'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	const char *gantt = NULL, *report = NULL;
	struct {
		const char *opt, *out;
		picture_fn draw;
	} pics[2];
	char why[512];
	int c, rc;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "hg:r:", opts)) != -1) {
		switch (c) {
		case 'g':
			gantt = optarg;
			break;
		case 'r':
			report = optarg;
			break;
		case 'h':
			help();
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc - 1)
		cli_usage_error(PROG, "RUN.json", NULL, "one run's JSON is required");
	if (!gantt && !report)
		cli_usage_error(PROG, "--gantt", NULL, "or --report is required: what to draw");
	pics[0].opt = "--gantt", pics[0].out = gantt, pics[0].draw = gantt_draw;
	pics[1].opt = "--report", pics[1].out = report, pics[1].draw = report_html_write;
	for (size_t i = 0; i < sizeof(pics) / sizeof(*pics); i++) {
		if (!pics[i].out)
			continue;
		rc = pics[i].draw(argv[optind], pics[i].out, why, sizeof(why));
		/* a bad file name is the option's fault, anything else the JSON's */
		if (rc == DLS_EINVAL)
			cli_usage_error(PROG, strstr(why, "'s name must") ? pics[i].opt : "RUN.json",
					strstr(why, "'s name must") ? pics[i].out : argv[optind], why);
		if (rc) {
			fprintf(stderr, PROG ": %s\n", why);
			return 1;
		}
		printf("wrote %s\n", pics[i].out);
	}
	return 0;
}
