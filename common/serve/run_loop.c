/*
 * run_loop.c - a serving role's life after start-up (see run_loop.h).
 */
#include "run_loop.h"

#include <stdio.h>

#include "dls/err.h"
#include "dls_time.h"
#include "log_limit.h"

/* The progress line, on stderr. */
static void progress_line(const struct run_loop_ops *ops)
{
	struct dls_status s;

	double f;
	char eta[48] = "";

	if (ops->snapshot(ops->ctx, &s))
		return;
	f = s.iterations > 0 ? (double)s.delivered / (double)s.iterations : 0;
	/* at the pace so far (the delivered count moves in steps: results
	 * ride on requests), once there is a pace to go by */
	if (f >= 0.02 && f < 1 && s.elapsed > 0)
		snprintf(eta, sizeof(eta), ", about %.1f s to go", s.elapsed * (1 - f) / f);
	char loop[48] = "";

	if (s.loops > 1)
		snprintf(loop, sizeof(loop), "loop %u of %u, ", (unsigned)s.loop + 1,
			 (unsigned)s.loops);
	fprintf(stderr, "\r%s: %s%lld/%lld iterations delivered (%5.1f%%), %.1f s%s   ", s.scheme,
		loop, (long long)s.delivered, (long long)s.iterations, 100.0 * f, s.elapsed, eta);
	dls_status_free(&s);
}

/* --timeout passed: says what the role was still waiting for. */
static void timed_out(const struct run_loop_ops *ops)
{
	struct dls_status s;

	if (ops->snapshot(ops->ctx, &s)) {
		fprintf(stderr, "%s: --timeout %g s passed: giving up\n", ops->prog, ops->timeout_s);
		return;
	}
	if (!s.started)
		fprintf(stderr,
			"%s: --timeout %g s passed while waiting for slaves to register (%d in): "
			"giving up\n",
			ops->prog, ops->timeout_s, s.nslaves);
	else
		fprintf(stderr,
			"%s: --timeout %g s passed with %lld of %lld iterations delivered: giving "
			"up\n",
			ops->prog, ops->timeout_s, (long long)s.delivered, (long long)s.iterations);
	dls_status_free(&s);
}

int run_loop(const struct run_loop_ops *ops, int ping_ms, int progress)
{
	struct liveness *l;
	double t0 = dls_now();
	int status = 0, err;

	l = liveness_start(&ops->watch, ping_ms, &err);
	if (!l) {
		fprintf(stderr, "%s: cannot watch the slaves: %s\n", ops->prog, dls_strerror(err));
		return 1;
	}
	/* twice a second with a progress line, else once */
	for (;;) {
		struct dls_status s;

		if (ops->wait_done(ops->ctx, progress ? 500 : 1000) != DLS_ETIMEDOUT) {
			int next = ops->loop_done ? ops->loop_done(ops->ctx) : 0;

			if (next > 0)
				continue;
			status = next < 0;
			break;
		}

		if (progress)
			progress_line(ops);
		log_limit_flush(0); /* the refusals of strangers, summed up */
		if (ops->timeout_s > 0 && dls_now() - t0 >= ops->timeout_s) {
			if (progress)
				fprintf(stderr, "\n");
			timed_out(ops);
			status = 1;
			break;
		}
		if (!ops->all_lost(ops->ctx))
			continue;
		if (!ops->snapshot(ops->ctx, &s)) {
			if (s.nslaves == 0)
				fprintf(stderr,
					"%s: no slave registered within the registration window "
					"(--register-timeout-ms): nothing reached this master\n",
					ops->prog);
			else
				fprintf(stderr,
					"%s: every slave was lost; %lld of %lld iterations delivered\n",
					ops->prog, (long long)s.delivered, (long long)s.iterations);
			dls_status_free(&s);
		}
		status = 1;
		break;
	}
	/* every result is in (or none can come): nothing more to watch, and a
	 * slave that exits once told to stop must not look lost to a ping */
	liveness_stop(l);
	log_limit_flush(1);
	if (!status)
		ops->dismiss(ops->ctx);
	if (progress)
		fprintf(stderr, "\n");
	if (!status)
		status = ops->write_outputs(ops->ctx);
	if (ops->quiesce)
		ops->quiesce(ops->ctx);
	return status;
}
