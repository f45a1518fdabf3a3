/*
 * pendulum.c - the "pendulum" workload (see pendulum.h).
 */
#include "pendulum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/workload.h"
#include "dls_simd.h"

void pendulum_params_init(struct pendulum_params *p)
{
	*p = (struct pendulum_params){1000, 32, 4, 200, 8.0, 0};
}

double pendulum_theta0(const struct pendulum_params *p, int64_t x)
{
	x = (x + p->shift) % p->count;
	return M_PI * (1.0 - pow(10.0, -p->closeness * ((double)x + 0.5) / (double)p->count));
}

int64_t pendulum_max_steps(const struct pendulum_params *p)
{
	/* the period at theta0 = pi (1 - 1e-15) is below 24 small periods */
	return (int64_t)p->periods * p->steps * 32;
}

/* One RK4 step of theta' = omega, omega' = -sin theta. */
static void rk4(double *th, double *om, double dt)
{
	double k1t = *om, k1o = -sin(*th);
	double k2t = *om + 0.5 * dt * k1o, k2o = -sin(*th + 0.5 * dt * k1t);
	double k3t = *om + 0.5 * dt * k2o, k3o = -sin(*th + 0.5 * dt * k2t);
	double k4t = *om + dt * k3o, k4o = -sin(*th + dt * k3t);

	*th += dt / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
	*om += dt / 6.0 * (k1o + 2.0 * k2o + 2.0 * k3o + k4o);
}

uint64_t pendulum_run(const struct pendulum_params *p, int64_t x, double *out)
{
	const double dt = 2.0 * M_PI / p->steps;
	const int64_t cap = pendulum_max_steps(p);
	double th = pendulum_theta0(p, x), om = 0.0, t = 0.0;
	double e0 = -cos(th), first = -1.0, last = 0.0;
	double *hist = out + PENDULUM_HEADER;
	int64_t steps = 0;
	int turns = 0;

	memset(out, 0, (size_t)(PENDULUM_HEADER + p->bins) * sizeof(*out));
	out[0] = th;
	/* released at rest: omega changes sign every half period */
	while (turns < 2 * p->periods && steps < cap && fabs(th) <= M_PI) {
		double om0 = om;
		int bin;

		rk4(&th, &om, dt);
		steps++;
		bin = (int)floor((th + M_PI) / (2.0 * M_PI) * p->bins);
		hist[bin < 0 ? 0 : bin >= p->bins ? p->bins - 1 : bin] += 1.0;
		if (steps > 1 && (om0 < 0.0) != (om < 0.0)) {
			/* the turning point, interpolated inside the step */
			double tc = t + dt * om0 / (om0 - om);

			if (first < 0)
				first = tc;
			last = tc;
			turns++;
		}
		t += dt;
	}
	out[1] = turns > 1 ? 2.0 * (last - first) / (turns - 1) : 0.0;
	out[2] = 0.5 * om * om - cos(th) - e0;
	out[3] = (double)steps;
	for (int b = 0; b < p->bins; b++)
		hist[b] /= (double)steps;
	return (uint64_t)steps * PENDULUM_STEP_COST;
}

static const char *const known[] = {"count",	  "bins",  "periods", "steps",
				    "closeness", "drift", NULL};

static int pend_open(void *user, const struct dls_param *prm, size_t n, struct dls_loop *loop,
		     void **state, char *why, size_t len)
{
	struct pendulum_params p, *s;
	int64_t count, bins, periods, steps;
	double drift = 0;

	(void)user;
	pendulum_params_init(&p);
	count = p.count;
	bins = p.bins;
	periods = p.periods;
	steps = p.steps;
	if (dls_params_known(prm, n, known, why, len) ||
	    dls_param_int(prm, n, "count", 1, 100000000, &count, why, len) ||
	    dls_param_int(prm, n, "bins", 1, DLS_MAX_RESULT_BYTES / 8 - PENDULUM_HEADER, &bins,
			  why, len) ||
	    dls_param_int(prm, n, "periods", 1, 1000, &periods, why, len) ||
	    dls_param_int(prm, n, "steps", 8, 1000000, &steps, why, len) ||
	    dls_param_double(prm, n, "closeness", 0, 15, &p.closeness, why, len) ||
	    dls_param_double(prm, n, "drift", 0, 1, &drift, why, len))
		return DLS_EINVAL;
	s = malloc(sizeof(*s));
	if (!s) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	*s = (struct pendulum_params){count, (int32_t)bins, (int32_t)periods, (int32_t)steps,
				      p.closeness, 0};
	/* exact for any loop number: drift k count in long double, floored */
	s->shift = (int64_t)floorl((long double)drift * loop->number * (long double)count) % count;
	*state = s;
	loop->iterations = count;
	loop->result_bytes = (uint32_t)((PENDULUM_HEADER + bins) * sizeof(double));
	snprintf(loop->dtype, sizeof(loop->dtype), "<f8");
	return DLS_OK;
}

static int pend_body(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		     char *why, size_t len)
{
	const struct pendulum_params *p = state;
	double *o = out;

	(void)why;
	(void)len;
	for (int64_t x = first; x < first + count; x++, o += PENDULUM_HEADER + p->bins)
		*cost += pendulum_run(p, x, o);
	return DLS_OK;
}

/* One pass over a histogram without branches, in four lanes the compiler
 * vectorizes (the master checks every octet it takes: this loop is on its
 * ingest path): *sum gets the bins' sum; returns whether the smallest bin
 * is below 0 or the largest above 1. A NaN or an infinity escapes the
 * range test but not the sum. */
static DLS_VECTOR_CLONES int hist_out_of_range(const double *hist, int bins, double *sum)
{
	double part[4] = {0, 0, 0, 0}, lo[4] = {1, 1, 1, 1}, hi[4] = {0, 0, 0, 0};
	int b = 0;

	for (; b + 4 <= bins; b += 4)
		for (int k = 0; k < 4; k++) {
			double h = hist[b + k];

			lo[k] = h < lo[k] ? h : lo[k];
			hi[k] = h > hi[k] ? h : hi[k];
			part[k] += h;
		}
	for (; b < bins; b++) {
		lo[0] = hist[b] < lo[0] ? hist[b] : lo[0];
		hi[0] = hist[b] > hi[0] ? hist[b] : hi[0];
		part[0] += hist[b];
	}
	*sum = (part[0] + part[1]) + (part[2] + part[3]);
	return lo[0] < 0 || lo[1] < 0 || lo[2] < 0 || lo[3] < 0 || hi[0] > 1 || hi[1] > 1 ||
	       hi[2] > 1 || hi[3] > 1;
}

static int pend_check(void *state, int64_t index, const void *data, char *why, size_t len)
{
	const struct pendulum_params *p = state;
	const double *v = data, *hist = v + PENDULUM_HEADER;
	double sum;

	if (v[0] != pendulum_theta0(p, index)) {
		snprintf(why, len, "iteration %lld: theta0 %.17g, expected %.17g", (long long)index,
			 v[0], pendulum_theta0(p, index));
		return DLS_EINVAL;
	}
	if (!(v[3] >= 1 && v[3] <= (double)pendulum_max_steps(p) && v[3] == floor(v[3]))) {
		snprintf(why, len, "iteration %lld: %.17g steps is not a whole number in 1..%lld",
			 (long long)index, v[3], (long long)pendulum_max_steps(p));
		return DLS_EINVAL;
	}
	if (hist_out_of_range(hist, p->bins, &sum)) {
		for (int b = 0; b < p->bins; b++) /* the first culprit */
			if (!(hist[b] >= 0 && hist[b] <= 1)) {
				snprintf(why, len,
					 "iteration %lld: histogram bin %d is %.17g, not in 0..1",
					 (long long)index, b, hist[b]);
				return DLS_EINVAL;
			}
	}
	if (!(fabs(sum - 1.0) <= 1e-9) || !isfinite(v[1]) || !isfinite(v[2])) {
		snprintf(why, len,
			 "iteration %lld: histogram sums to %.17g (not 1) or a period or energy "
			 "is not finite",
			 (long long)index, sum);
		return DLS_EINVAL;
	}
	return DLS_OK;
}

static uint64_t pend_cost(void *state, int64_t index, const void *data)
{
	const double *v = data;

	(void)state;
	(void)index;
	return (uint64_t)v[3] * PENDULUM_STEP_COST;
}

const struct dls_workload pendulum_workload = {
	.name = "pendulum",
	.open = pend_open,
	.close = free,
	.body = pend_body,
	.check = pend_check,
	.cost = pend_cost,
};
