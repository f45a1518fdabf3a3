/*
 * coordinator_chain.c - what the coordinator's files ask of the run
 * (coordinator_internal.h): the loop's size, the policy's kind, who is
 * alive, the nearest living slave on the chain, whether a caller may act,
 * and the refusals' lines.
 */
#include "coordinator_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dls/err.h"

void why_f(char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, COORDINATOR_WHY_LEN, fmt, ap);
	va_end(ap);
}

int64_t coordinator_iterations(const struct coordinator *c)
{
	return c->results.work.loop.iterations;
}

int coordinator_piles(const struct coordinator_config *cfg)
{
	return cfg->policy[0] && strcmp(cfg->policy, "trees");
}

int coordinator_alive(const struct coordinator *c, int id)
{
	return roster_alive(&c->roster, id);
}

int coordinator_living_at(const struct coordinator *c, int k, int step)
{
	for (k += step; k >= 0 && k < c->plan->npes; k += step)
		if (coordinator_alive(c, c->plan->chain[k]))
			return c->plan->chain[k];
	return -1;
}

int coordinator_check_slave(struct coordinator *c, int id, uint64_t key, char *why)
{
	if (!c->plan || id < 0 || id >= c->plan->npes) {
		why_f(why, "unknown slave id %d", id);
		return DLS_ENOENT;
	}
	return roster_check_caller(&c->roster, id, key, why, COORDINATOR_WHY_LEN);
}
