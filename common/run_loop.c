/*
 * run_loop.c - a serving role's life after start-up (see run_loop.h).
 */
#include "run_loop.h"

#include <stdio.h>

#include "dls/err.h"
#include "dls_time.h"

struct progress {
	const struct run_loop_ops *ops;
	double next;
};

static void progress_line(void *arg)
{
	struct progress *p = arg;
	struct dls_status s;

	if (dls_now() < p->next || p->ops->snapshot(p->ops->ctx, &s))
		return;
	fprintf(stderr, "\r%s: %lld/%lld iterations delivered (%5.1f%%), %.1f s   ", s.scheme,
		(long long)s.delivered, (long long)s.iterations,
		100.0 * (double)s.delivered / (double)s.iterations, s.elapsed);
	dls_status_free(&s);
	p->next = dls_now() + 0.5;
}

/* The watch's tick: the progress line, on the watch's context. */
struct tick_ctx {
	struct liveness_ops inner;
	struct progress *progress;
};

static size_t t_targets(void *c, int *ids, size_t max)
{
	struct tick_ctx *t = c;

	return t->inner.targets(t->inner.ctx, ids, max);
}

static int t_ping(void *c, int id, char *why, size_t len)
{
	struct tick_ctx *t = c;

	return t->inner.ping(t->inner.ctx, id, why, len);
}

static void t_lost(void *c, int id, const char *why)
{
	struct tick_ctx *t = c;

	t->inner.lost(t->inner.ctx, id, why);
}

static void t_tick(void *c)
{
	struct tick_ctx *t = c;

	if (t->progress)
		progress_line(t->progress);
}

int run_loop(const struct run_loop_ops *ops, int ping_ms, int progress)
{
	struct progress p = {ops, 0};
	struct tick_ctx tc = {ops->watch, progress ? &p : NULL};
	struct liveness_ops watch = {&tc, t_targets, t_ping, t_lost, t_tick};
	struct liveness *l;
	int status = 0, err;

	l = liveness_start(&watch, ping_ms, &err);
	if (!l) {
		fprintf(stderr, "%s: cannot watch the slaves: %s\n", ops->prog, dls_strerror(err));
		return 1;
	}
	while (ops->wait_done(ops->ctx, 1000) == DLS_ETIMEDOUT) {
		struct dls_status s;

		if (!ops->all_lost(ops->ctx))
			continue;
		if (!ops->snapshot(ops->ctx, &s)) {
			fprintf(stderr, "%s: every slave was lost; %lld of %lld iterations delivered\n",
				ops->prog, (long long)s.delivered, (long long)s.iterations);
			dls_status_free(&s);
		}
		status = 1;
		break;
	}
	/* every result is in (or none can come): nothing more to watch, and a
	 * slave that exits once told to stop must not look lost to a ping */
	liveness_stop(l);
	if (!status)
		ops->dismiss(ops->ctx);
	if (progress)
		fprintf(stderr, "\n");
	if (!status)
		status = ops->write_outputs(ops->ctx);
	return status;
}
