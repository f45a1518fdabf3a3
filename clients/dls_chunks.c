/*
 * dls chunks - print the realized schedule of a scheme (docs/schemes.md 9), its
 * untruncated chunk function (--function), or the Tree Scheduling plan
 * (--tree).  Deterministic: request streams never depend on the clock.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opt.h"
#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_cmds.h"
#include "dls/err.h"
#include "sched_drive.h"
#include "sched_cli.h"
#include "tree_plan.h"

#define PROG "dls chunks"
#define DEFAULT_MAX_CHUNKS 10000000

static void help(void)
{
	puts("usage: dls chunks --scheme NAME --iterations I --pes P [--function]\n"
	     "                  [--profile table|text] [--chunk K] [--alpha A]\n"
	     "                  [--fac --mu M --sd S] [--sigma S] [--fiss-x X]\n"
	     "                  [--tss-first F] [--tss-last L] [--fsc-overhead H --sd S]\n"
	     "       dls chunks --scheme dtss|dfss|dfiss|dtfss|wf|awf --iterations I --acp 1,2\n"
	     "                  [--order sorted|rr|3,2,1,0] [--requests PE:A,PE:A,...]\n"
	     "       dls chunks --tree --tau 1,2,3,4 [--iterations I\n"
	     "                  --alloc equal|proportional|round-robin]\n\n"
	     "Prints one line of chunk sizes (simple schemes) or of (pe,chunk) pairs in\n"
	     "service order, PEs numbered from 0 (distributed schemes, WF and AWF).\n"
	     "Schemes: ss css gss tss fss fiss tfss wf dtss dfss dfiss dtfss static fsc mfsc\n"
	     "awf-b awf-c awf-d awf-e af awf auto (any case).\n\n"
	     "  --function        the untruncated chunk function (as Chronopoulos et al.'s\n"
	     "                    Table 1 shows it)\n" SCHED_CLI_HELP
	     "  --acp LIST        A_i of each PE (distributed) or the weights (WF, AWF)\n"
	     "  --order O         sorted (default; decreasing A, ties by id), rr, or a PE list\n"
	     "  --requests LIST   explicit first requests PE:A, then the order continues\n"
	     "  --max-chunks N    refuse schedules longer than N chunks (default 10000000)\n"
	     "  --tree            print the cluster tree, the chain and the link levels\n"
	     "  --tau LIST        the PEs' throughputs for --tree\n"
	     "  --alloc MODE      also print the initial allocation of --iterations\n");
}

struct emit_state {
	int pairs;
	int first;
	FILE *out;
};

static int emit(void *arg, int pe, const struct dls_range *c)
{
	struct emit_state *e = arg;

	if (!e->first)
		fputc(' ', e->out);
	e->first = 0;
	if (e->pairs)
		fprintf(e->out, "(%d,%lld)", pe, (long long)c->count);
	else
		fprintf(e->out, "%lld", (long long)c->count);
	return 0;
}

static struct sched_request *parse_requests(const char *s, size_t *n)
{
	size_t cap = 1, k = 0;
	struct sched_request *r;
	char *copy, *tok, *save = NULL;

	for (const char *c = s; *c; c++)
		cap += *c == ',';
	r = calloc(cap, sizeof(*r));
	copy = strdup(s);
	if (!r || !copy) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(1);
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		int64_t pe, a;

		if (!colon)
			cli_usage_error(PROG, "--requests", s, "each request must be PE:A");
		*colon = '\0';
		if (cli_parse_i64(tok, 0, SCHED_MAX_PES - 1, &pe) ||
		    cli_parse_i64(colon + 1, 0, SCHED_MAX_ACP, &a))
			cli_usage_error(PROG, "--requests", s,
					"each request must be PE:A with PE >= 0 and A >= 0");
		r[k].pe = (int)pe;
		r[k].acp = a;
		k++;
	}
	free(copy);
	if (k == 0)
		cli_usage_error(PROG, "--requests", s, "no request given");
	*n = k;
	return r;
}

static int run_tree(const char *tau_s, int64_t iterations, const char *alloc_s)
{
	double *tau;
	size_t n;
	struct tree_plan *t;
	enum tree_alloc mode = TREE_ALLOC_EQUAL;
	const char *cause;
	char *buf;
	size_t buflen;
	int rc;

	if (!tau_s)
		cli_usage_error(PROG, "--tree", NULL, "needs --tau with the PEs' throughputs");
	cause = cli_parse_double_list(tau_s, 1e-9, 1e15, &tau, &n);
	if (cause)
		cli_usage_error(PROG, "--tau", tau_s, cause);
	if (alloc_s) {
		if (tree_plan_alloc_parse(alloc_s, &mode))
			cli_usage_error(PROG, "--alloc", alloc_s,
					"must be equal, proportional or round-robin");
		if (!iterations)
			cli_usage_error(PROG, "--alloc", alloc_s, "needs --iterations");
	}
	rc = tree_plan_build(tau, (int)n, &t);
	if (rc) {
		fprintf(stderr, PROG ": cannot build the cluster tree: %s\n", dls_strerror(rc));
		free(tau);
		return 1;
	}
	buflen = 24 * n + 16;
	buf = malloc(buflen);
	if (!buf || tree_plan_format(t, buf, buflen)) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	printf("tree %s\nchain", buf);
	for (int k = 0; k < t->npes; k++)
		printf(" %d", t->chain[k]);
	printf("\nlinks");
	for (int k = 0; k + 1 < t->npes; k++)
		printf(" %d-%d:%d", t->chain[k], t->chain[k + 1], t->link_level[k]);
	printf("\n");
	if (iterations) {
		int64_t *start = calloc(n, sizeof(int64_t)), *count = calloc(n, sizeof(int64_t));

		if (!start || !count || tree_plan_allocate(t, tau, iterations, mode, start, count)) {
			fprintf(stderr, PROG ": cannot allocate %lld iterations\n",
				(long long)iterations);
			return 1;
		}
		printf("alloc");
		for (int k = 0; k < t->npes; k++) {
			int pe = t->chain[k];

			printf(" (%d,%lld,%lld)", pe, (long long)start[pe], (long long)count[pe]);
		}
		printf("\n");
		free(start);
		free(count);
	}
	free(buf);
	free(tau);
	tree_plan_destroy(t);
	return 0;
}

enum { OPT_FUNCTION = 256, OPT_ACP, OPT_ORDER, OPT_REQUESTS, OPT_TREE, OPT_TAU, OPT_ALLOC,
       OPT_MAXCH };

/* What the options say. */
struct chunks_args {
	struct sched_cli sc;
	struct sched_drive_spec d; /* the request stream */
	const char *acp_s, *tau_s, *alloc_s;
	int function, tree;
	int64_t iterations, pes, max_chunks;
	int64_t *acp; /* --acp's values, nacp of them */
	size_t nacp;
	int *list;		     /* --order's PEs (d.list) */
	struct sched_request *reqs; /* --requests (d.prefix) */
};

static void args_free(struct chunks_args *a)
{
	free(a->acp);
	free(a->list);
	free(a->reqs);
}

/* --order sorted, rr, or a list of PE numbers (exit 2 on another value). */
static void parse_order(struct chunks_args *a, const char *arg)
{
	int64_t *l;
	size_t nl;

	if (!strcmp(arg, "sorted")) {
		a->d.order = SCHED_ORDER_SORTED;
		return;
	}
	if (!strcmp(arg, "rr")) {
		a->d.order = SCHED_ORDER_RR;
		return;
	}
	if (cli_parse_i64_list(arg, 0, SCHED_MAX_PES - 1, &l, &nl))
		cli_usage_error(PROG, "--order", arg, "must be sorted, rr or a list of PE numbers");
	free(a->list);
	a->list = calloc(nl, sizeof(int));
	for (size_t i = 0; a->list && i < nl; i++)
		a->list[i] = (int)l[i];
	free(l);
	a->d.order = SCHED_ORDER_LIST;
	a->d.list = a->list;
	a->d.nlist = nl;
}

/* Reads the command line into a: -1 to go on, else the exit status
 * (--help: 0; an unknown option: 2, said). */
static int parse_args(int argc, char **argv, struct chunks_args *a)
{
	static const struct option opts[] = {
		SCHED_CLI_LONG_OPTIONS,
		{"iterations", required_argument, 0, 'i'},
		{"pes", required_argument, 0, 'p'},
		{"function", no_argument, 0, OPT_FUNCTION},
		{"acp", required_argument, 0, OPT_ACP},
		{"order", required_argument, 0, OPT_ORDER},
		{"requests", required_argument, 0, OPT_REQUESTS},
		{"tree", no_argument, 0, OPT_TREE},
		{"tau", required_argument, 0, OPT_TAU},
		{"alloc", required_argument, 0, OPT_ALLOC},
		{"max-chunks", required_argument, 0, OPT_MAXCH},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0}};
	const char *cause;
	int c;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "i:p:h", opts)) != -1) {
		if (sched_cli_option(PROG, &a->sc, c, optarg))
			continue;
		switch (c) {
		case 'i':
			a->iterations =
			    cli_i64_or_die(PROG, "--iterations", optarg, 1, SCHED_MAX_ITERATIONS);
			break;
		case 'p':
			a->pes = cli_i64_or_die(PROG, "--pes", optarg, 1, SCHED_MAX_PES);
			break;
		case OPT_FUNCTION:
			a->function = 1;
			break;
		case OPT_ACP:
			a->acp_s = optarg;
			free(a->acp);
			cause = cli_parse_i64_list(optarg, 0, SCHED_MAX_ACP, &a->acp, &a->nacp);
			if (cause)
				cli_usage_error(PROG, "--acp", optarg, cause);
			break;
		case OPT_ORDER:
			parse_order(a, optarg);
			break;
		case OPT_REQUESTS:
			free(a->reqs);
			a->reqs = parse_requests(optarg, &a->d.nprefix);
			a->d.prefix = a->reqs;
			break;
		case OPT_TREE:
			a->tree = 1;
			break;
		case OPT_TAU:
			a->tau_s = optarg;
			break;
		case OPT_ALLOC:
			a->alloc_s = optarg;
			break;
		case OPT_MAXCH:
			a->max_chunks = cli_i64_or_die(PROG, "--max-chunks", optarg, 1, INT64_MAX);
			break;
		case 'h':
			help();
			return 0;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	return -1;
}

/* The scheme's parameters from the options; what is missing or does not
 * fit is refused (exit 2, with the line). */
static void scheme_params(struct chunks_args *a, struct sched_params *p)
{
	if (!a->sc.scheme)
		cli_usage_error(PROG, "--scheme", NULL, "is required (or --tree)");
	if (!a->iterations)
		cli_usage_error(PROG, "--iterations", NULL, "is required");
	sched_cli_finish(PROG, &a->sc, NULL, a->iterations, 1);
	*p = a->sc.p;
	p->iterations = a->iterations;
	if (a->acp) {
		if (a->pes && (size_t)a->pes != a->nacp)
			cli_usage_error(PROG, "--acp", a->acp_s,
					"the list must have one value per PE (--pes)");
		if (a->nacp > SCHED_MAX_PES)
			cli_usage_error(PROG, "--acp", a->acp_s, "too many PEs");
		a->pes = (int64_t)a->nacp;
	} else if (sched_kind_is_distributed(p->kind)) {
		cli_usage_error(PROG, "--acp", NULL, "is required by the distributed schemes");
	}
	if (!a->pes)
		cli_usage_error(PROG, "--pes", NULL, "is required");
	p->npes = (int)a->pes;
	p->acp = a->acp;
	if (p->kind == SCHED_CSS && !a->sc.k)
		p->css_k = (a->iterations + a->pes - 1) / a->pes; /* the reference fallback: ceil(I/p) */
	for (size_t i = 0; i < a->d.nlist; i++)
		if (a->d.list[i] >= p->npes)
			cli_usage_error(PROG, "--order", NULL, "names a PE beyond --pes/--acp");
	for (size_t i = 0; i < a->d.nprefix; i++)
		if (a->d.prefix[i].pe >= p->npes)
			cli_usage_error(PROG, "--requests", NULL, "names a PE beyond --pes/--acp");
}

/* --function: the untruncated chunk function on one line; the exit status. */
static int print_function(const struct sched_params *p, int64_t max_chunks)
{
	size_t cap = (size_t)max_chunks > (1u << 27) ? (1u << 27) : (size_t)max_chunks, n;
	int64_t *vals;
	int rc;

	if (sched_kind_is_distributed(p->kind) || p->kind == SCHED_WF ||
	    sched_kind_is_adaptive(p->kind) || p->kind == SCHED_AUTO)
		cli_usage_error(PROG, "--function", NULL,
				"applies to the simple, non-adaptive schemes only");
	vals = malloc(cap * sizeof(*vals));
	if (!vals) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	rc = sched_function(p, vals, cap, &n);
	if (rc) {
		fprintf(stderr, PROG ": cannot list the chunk function: %s\n", dls_strerror(rc));
		free(vals);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		printf(i ? " %lld" : "%lld", (long long)vals[i]);
	printf("\n");
	free(vals);
	return 0;
}

/* The realized schedule under the request stream d, on one line (with a
 * word on stderr for the schemes that learn); the exit status. */
static int print_schedule(const struct sched_params *p, struct sched_drive_spec *d,
			  int64_t max_chunks)
{
	struct emit_state e = {
	    sched_kind_is_distributed(p->kind) || sched_kind_is_weighted(p->kind), 1, stdout};
	int rc;

	if (p->kind == SCHED_AWF)
		fprintf(stderr, PROG ": awf's first time step, on the given weights as wf; "
				     "it learns its weights between steps (dls simulate "
				     "--steps)\n");
	else if (sched_kind_is_adaptive(p->kind))
		fprintf(stderr, PROG ": %s learns from measured chunk times; with none, as "
				     "here, every PE weighs 1 (factoring)\n",
			sched_kind_name(p->kind));
	if (p->kind == SCHED_AUTO)
		fprintf(stderr, PROG ": auto decides from measured chunk times; with none, "
				     "as here, it keeps its probe (SS)\n");
	if (!e.pairs && (d->nprefix || d->nlist || d->order != SCHED_ORDER_SORTED))
		d->order = SCHED_ORDER_RR; /* request order does not matter for these */
	rc = sched_drive(p, d, emit, &e, max_chunks);
	printf("\n");
	if (rc == DLS_EOVERFLOW)
		fprintf(stderr, PROG ": schedule longer than %lld chunks: raise --max-chunks\n",
			(long long)max_chunks);
	else if (rc == DLS_EINVAL)
		fprintf(stderr, PROG ": a request came from a PE with A_i = 0 (never served) or out "
				     "of range\n");
	else if (rc)
		fprintf(stderr, PROG ": %s\n", dls_strerror(rc));
	return rc ? 1 : 0;
}

int dls_cmd_chunks(int argc, char **argv)
{
	struct chunks_args a = {.d = {SCHED_ORDER_SORTED, NULL, 0, NULL, 0},
				.max_chunks = DEFAULT_MAX_CHUNKS};
	struct sched_params p;
	int rc;

	sched_cli_init(&a.sc);
	rc = parse_args(argc, argv, &a);
	if (rc < 0 && a.tree)
		rc = run_tree(a.tau_s, a.iterations, a.alloc_s);
	if (rc < 0) {
		scheme_params(&a, &p);
		rc = a.function ? print_function(&p, a.max_chunks)
				: print_schedule(&p, &a.d, a.max_chunks);
	}
	args_free(&a);
	return rc;
}
