#include "emul.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"

void emul_steps_const(struct emul_steps *s, double value)
{
	s->n = 1;
	s->at[0] = 0;
	s->value[0] = value;
}

const char *emul_steps_parse(const char *str, struct emul_steps *out)
{
	const char *p = str;

	out->n = 0;
	if (!*p)
		return "empty schedule";
	if (!strchr(p, ':')) {
		char *end;
		double v = strtod(p, &end);

		if (end == p || *end || !isfinite(v) || v <= 0)
			return "must be a positive number, or steps such as 0:1,2.5:2";
		emul_steps_const(out, v);
		return NULL;
	}
	while (*p) {
		char *end;
		double t = strtod(p, &end), v;

		if (end == p || *end != ':' || !isfinite(t) || t < 0)
			return "each step must be TIME:VALUE with TIME >= 0 seconds";
		p = end + 1;
		v = strtod(p, &end);
		if (end == p || (*end && *end != ',') || !isfinite(v) || v <= 0)
			return "each step must be TIME:VALUE with VALUE > 0";
		if (out->n == EMUL_MAX_STEPS)
			return "too many steps (at most 64)";
		if (out->n == 0 && t != 0)
			return "the first step must be at time 0";
		if (out->n > 0 && t <= out->at[out->n - 1])
			return "step times must increase";
		out->at[out->n] = t;
		out->value[out->n++] = v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return "trailing comma";
	}
	return NULL;
}

double emul_steps_at(const struct emul_steps *s, double t)
{
	size_t k = 0;

	while (k + 1 < s->n && s->at[k + 1] <= t)
		k++;
	return s->value[k];
}

double emul_finish(const struct emul_steps *power, double t0, double work)
{
	double t = t0;
	size_t k = 0;

	if (work <= 0)
		return t0;
	while (k + 1 < power->n && power->at[k + 1] <= t)
		k++;
	for (;;) {
		double rate = power->value[k];

		if (k + 1 < power->n) {
			double span = power->at[k + 1] - t, can = span * rate;

			if (can < work) {
				work -= can;
				t = power->at[++k];
				continue;
			}
		}
		return t + work / rate;
	}
}

int emul_power_add(struct emul_steps *sum, double v, const struct emul_steps *q)
{
	struct emul_steps out = {0};
	size_t i = 0, j = 0;

	if (sum->n == 0)
		emul_steps_const(sum, 0);
	/* merge the step times of both schedules */
	while (i < sum->n || j < q->n) {
		double t;

		if (j >= q->n || (i < sum->n && sum->at[i] < q->at[j]))
			t = sum->at[i++];
		else if (i >= sum->n || q->at[j] < sum->at[i])
			t = q->at[j++];
		else {
			t = sum->at[i++];
			j++;
		}
		if (out.n == EMUL_MAX_STEPS)
			return DLS_EOVERFLOW;
		out.at[out.n] = t;
		out.value[out.n++] = emul_steps_at(sum, t) + v / emul_steps_at(q, t);
	}
	*sum = out;
	return DLS_OK;
}

char *emul_steps_format(const struct emul_steps *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < s->n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%.17g:%.17g", k ? "," : "",
					 s->at[k], s->value[k]);
	return buf;
}
