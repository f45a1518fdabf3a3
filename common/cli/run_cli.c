/*
 * run_cli.c - the serving programs' shared options (see run_cli.h).
 */
#include "run_cli.h"

#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "dls_log.h"
#include "dls_proto.h"
#include "dls/err.h"
#include "work.h"

void run_cli_init(struct run_cli *c, int max_slaves)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->run_name, sizeof(c->run_name), "dls");
	c->max_slaves = max_slaves;
	snprintf(c->workload, sizeof(c->workload), "mandelbrot");
	c->order = ITER_ORDER_NATURAL;
	c->register_timeout_ms = 30000;
	c->ping_ms = 500;
	c->ping_timeout_ms = 3000;
}

static int ms_option(const char *prog, const char *name, const char *arg, int min)
{
	return (int)cli_i64_or_die(prog, name, arg, min, 3600000);
}

/* The options whose values a resumed run takes from its journal. */
static const char *journaled_option(int opt)
{
	switch (opt) {
	case RUN_OPT_RUN: return "--run";
	case RUN_OPT_SLAVES: return "--slaves";
	case RUN_OPT_WIDTH: return "--width";
	case RUN_OPT_HEIGHT: return "--height";
	case RUN_OPT_MAXIT: return "--maxit";
	case RUN_OPT_ORDER: return "--order";
	case RUN_OPT_WORKLOAD: return "--workload";
	case RUN_OPT_PARAM: return "--param";
	case RUN_OPT_REGTO: return "--register-timeout-ms";
	default: return NULL;
	}
}

int run_cli_option(const char *prog, struct run_cli *c, int opt, const char *arg)
{
	const char *cause;

	if (!c->config_given)
		c->config_given = journaled_option(opt);
	switch (opt) {
	case RUN_OPT_RUN:
		if (!*arg || strchr(arg, '/') || strlen(arg) >= sizeof(c->run_name))
			cli_usage_error(prog, "--run", arg, "must be 1 to 63 characters without '/'");
		snprintf(c->run_name, sizeof(c->run_name), "%s", arg);
		return 1;
	case RUN_OPT_SLAVES:
		c->nslaves = (int)cli_i64_or_die(prog, "--slaves", arg, 1, c->max_slaves);
		return 1;
	case RUN_OPT_WIDTH:
		cli_param_or_die(prog, "--width", c->params, &c->nparams, "width", arg);
		return 1;
	case RUN_OPT_HEIGHT:
		cli_param_or_die(prog, "--height", c->params, &c->nparams, "height", arg);
		return 1;
	case RUN_OPT_MAXIT:
		cli_param_or_die(prog, "--maxit", c->params, &c->nparams, "maxit", arg);
		return 1;
	case RUN_OPT_WORKLOAD: /* checked with its parameters by run_cli_finish */
		if (!*arg || strlen(arg) >= sizeof(c->workload))
			cli_usage_error(prog, "--workload", arg, "a name of 1..31 characters");
		snprintf(c->workload, sizeof(c->workload), "%s", arg);
		return 1;
	case RUN_OPT_PARAM:
		cli_param_or_die(prog, "--param", c->params, &c->nparams, NULL, arg);
		return 1;
	case RUN_OPT_OUT:
		c->out.npy = arg;
		return 1;
	case RUN_OPT_ORDER:
		if (iter_order_parse(arg, &c->order))
			cli_usage_error(prog, "--order", arg, "must be natural or interleaved");
		return 1;
	case RUN_OPT_PNG:
		c->out.png = arg;
		return 1;
	case RUN_OPT_RAW:
		c->out.raw = arg;
		return 1;
	case RUN_OPT_CSV:
		c->out.csv = arg;
		return 1;
	case RUN_OPT_JSON:
		c->out.json = arg;
		return 1;
	case RUN_OPT_IOR:
		c->ior_file = arg;
		return 1;
	case RUN_OPT_SECRET:
		c->secret_file = arg;
		return 1;
	case RUN_OPT_JOURNAL:
		c->journal_dir = arg;
		return 1;
	case RUN_OPT_RESUME:
		c->resume_dir = arg;
		return 1;
	case RUN_OPT_TIMEOUT:
		c->timeout_s = cli_double_or_die(prog, "--timeout", arg, 0.001, 1e7);
		return 1;
	case RUN_OPT_JSYNC:
		if (strcmp(arg, "disk") && strcmp(arg, "os"))
			cli_usage_error(prog, "--journal-sync", arg, "must be disk or os");
		c->journal_os = !strcmp(arg, "os");
		return 1;
	case RUN_OPT_REGTO:
		c->register_timeout_ms = ms_option(prog, "--register-timeout-ms", arg, 1);
		return 1;
	case RUN_OPT_PING:
		c->ping_ms = ms_option(prog, "--ping-ms", arg, 1);
		return 1;
	case RUN_OPT_PINGTO:
		c->ping_timeout_ms = ms_option(prog, "--ping-timeout-ms", arg, 1);
		return 1;
	case RUN_OPT_CALLTO:
		return 1; /* applied before the ORB started (cli_server_start) */
	case RUN_OPT_TITER:
		c->out.t_iter_ns = cli_double_or_die(prog, "--t-iter", arg, 0, 1e12);
		return 1;
	case RUN_OPT_POWER:
		cause = emul_steps_parse(arg, &c->power);
		if (cause)
			cli_usage_error(prog, "--power", arg, cause);
		c->out.power = &c->power;
		return 1;
	case RUN_OPT_PROGRESS:
		c->progress = 1;
		return 1;
	case RUN_OPT_QUIET:
		c->out.quiet = 1;
		return 1;
	case 'v':
		dls_log_set_level(++c->verbose >= 2 ? DLS_LOG_DEBUG : DLS_LOG_INFO);
		return 1;
	case 'q':
		dls_log_set_level(DLS_LOG_ERR);
		return 1;
	default:
		return 0;
	}
}

void run_cli_take_config(struct run_cli *c, const char *run_name, int nslaves,
			 const char *workload, const struct dls_param *params, int nparams,
			 enum iter_order_mode order, int register_timeout_ms)
{
	snprintf(c->run_name, sizeof(c->run_name), "%s", run_name);
	c->nslaves = nslaves;
	snprintf(c->workload, sizeof(c->workload), "%s", workload);
	memcpy(c->params, params, (size_t)nparams * sizeof(*params));
	c->nparams = nparams;
	c->order = order;
	c->register_timeout_ms = register_timeout_ms;
}

void run_cli_finish(const char *prog, struct run_cli *c)
{
	struct work wk;
	char why[256];

	if (c->resume_dir && c->journal_dir)
		cli_usage_error(prog, "--journal", c->journal_dir,
				"--resume DIR goes on journaling to DIR: give one of them");
	if (c->resume_dir && c->config_given)
		cli_usage_error(prog, c->config_given, c->resume_dir,
				"a resumed run takes its configuration from its journal");
	if (!c->nslaves)
		cli_usage_error(prog, "--slaves", NULL, "is required");
	if (work_open(&wk, c->workload, c->params, (size_t)c->nparams, c->order, why, sizeof(why)))
		cli_usage_error(prog, "--workload", c->workload, why);
	c->iterations = wk.loop.iterations;
	work_close(&wk);
	cli_secret_or_die(prog, "--secret-file", c->secret_file, &c->secret);
	cli_outputs_writable_or_die(prog, &c->out, 1);
	if ((c->out.png || c->out.raw) && strcmp(c->workload, "mandelbrot"))
		cli_usage_error(prog, c->out.png ? "--png" : "--raw", c->workload,
				"images are Mandelbrot's; write this workload's results with "
				"--out FILE.npy");
}

void run_cli_serve_opts(const struct run_cli *c, struct serve_opts *o)
{
	o->out = c->out;
	o->ior_file = c->ior_file;
	o->ping_ms = c->ping_ms;
	o->ping_timeout_ms = c->ping_timeout_ms;
	o->progress = c->progress;
	o->secret = &c->secret;
	o->timeout_s = c->timeout_s;
}
