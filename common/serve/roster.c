/*
 * roster.c - registration and the barrier (see roster.h).
 */
#include "roster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "run_auth.h"

int roster_init(struct roster *r, int expected, int register_timeout_ms)
{
	*r = (struct roster){0};
	r->v = calloc((size_t)expected, sizeof(*r->v));
	if (!r->v)
		return DLS_ENOMEM;
	r->expected = expected;
	r->register_timeout_ms = register_timeout_ms;
	r->created = dls_now();
	return DLS_OK;
}

void roster_free(struct roster *r)
{
	free(r->v);
	r->v = NULL;
	for (int i = 0; i < r->nwithdrawn; i++)
		free(r->withdrawn[i]);
	free(r->withdrawn);
	r->withdrawn = NULL;
	r->nwithdrawn = 0;
}

static int was_withdrawn(const struct roster *r, const char *name)
{
	for (int i = 0; i < r->nwithdrawn; i++)
		if (!strcmp(r->withdrawn[i], name))
			return 1;
	return 0;
}

int roster_speed_check(double speed, const char *who, char *why, size_t len)
{
	if (isfinite(speed) && speed > 0)
		return DLS_OK;
	snprintf(why, len, "speed %g of %s must be a positive finite number", speed, who);
	return DLS_EINVAL;
}

int roster_add(struct roster *r, const char *const *names, const double *speeds, size_t n,
	       const double *min_leaf, int *ids, uint64_t *keys, char *why, size_t len)
{
	double now = dls_now();

	for (size_t k = 0; k < n; k++) {
		char who[96];

		snprintf(who, sizeof(who), "'%s'", names[k]);
		if (roster_speed_check(speeds[k], who, why, len))
			return DLS_EINVAL;
	}
	for (size_t k = 0; k < n; k++)
		if (was_withdrawn(r, names[k])) {
			snprintf(why, len,
				 "'%s' was withdrawn: the launcher saw it exit before it "
				 "registered",
				 names[k]);
			return DLS_ESTATE;
		}
	if ((size_t)(r->expected - r->n) < n) {
		snprintf(why, len, "the run expects %d slaves and has %d of them registered",
			 r->expected, r->n);
		return DLS_ESTATE;
	}
	if (r->n == 0)
		r->first_time = now;
	for (size_t k = 0; k < n; k++) {
		struct roster_entry *s = &r->v[r->n];

		s->registered = 1;
		s->info.id = r->n;
		snprintf(s->info.name, sizeof(s->info.name), "%s", names[k]);
		s->info.speed = speeds[k];
		s->min_leaf_speed = min_leaf ? *min_leaf : speeds[k];
		s->cluster = min_leaf != NULL;
		s->info.state = DLS_SLAVE_REGISTERED;
		s->key = keys[k] = dls_random_key();
		/* A late slave (registration already closed) counts at least 1. */
		if (r->closed)
			s->info.vpower = roster_vpower(r, speeds[k]);
		ids[k] = r->n++;
		log_info("slave %d '%s' registered, speed %g", ids[k], names[k], speeds[k]);
	}
	return DLS_OK;
}

/* Is `name` entry e's name, as roster_add kept it (cut to its length)? */
static int same_name(const struct roster_entry *e, const char *name)
{
	return !strncmp(e->info.name, name, sizeof(e->info.name) - 1);
}

int roster_names_match(const char *registered, const char *name)
{
	const char *slash = strrchr(registered, '/');

	return !strcmp(registered, name) || (slash && !strcmp(slash + 1, name));
}

int roster_withdraw(struct roster *r, const char *name, char *why, size_t len)
{
	char **grown;

	if (!name || !name[0]) {
		snprintf(why, len, "withdraw: no name");
		return DLS_EINVAL;
	}
	if (r->closed) {
		snprintf(why, len, "withdraw '%s': registration has closed", name);
		return DLS_ESTATE;
	}
	if (was_withdrawn(r, name)) {
		snprintf(why, len, "withdraw '%s': withdrawn already", name);
		return DLS_ESTATE;
	}
	for (int i = 0; i < r->n; i++)
		if (same_name(&r->v[i], name) || roster_names_match(r->v[i].info.name, name)) {
			snprintf(why, len, "withdraw '%s': it registered (id %d)", name, i);
			return DLS_ESTATE;
		}
	if (r->expected - 1 < 1) {
		snprintf(why, len, "withdraw '%s': the run would expect no child", name);
		return DLS_EINVAL;
	}
	grown = realloc(r->withdrawn, (size_t)(r->nwithdrawn + 1) * sizeof(*grown));
	if (!grown) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	r->withdrawn = grown;
	if (!(r->withdrawn[r->nwithdrawn] = strdup(name))) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	r->nwithdrawn++;
	r->expected--;
	log_warn("'%s' withdrawn before it registered: %d of %d expected are in", name, r->n,
		 r->expected);
	return DLS_OK;
}

int roster_find_again(const struct roster *r, const char *const *names, const double *speeds,
		      size_t n, const double *min_leaf, uint64_t caller, int *ids)
{
	int first = -1;

	if (!caller || n == 0)
		return 0;
	for (int i = 0; i < r->n && first < 0; i++)
		if (r->v[i].caller == caller && same_name(&r->v[i], names[0]))
			first = i;
	if (first < 0 || (size_t)(r->n - first) < n)
		return 0;
	for (size_t k = 0; k < n; k++) {
		const struct roster_entry *e = &r->v[first + (int)k];

		if (e->caller != caller || !same_name(e, names[k]) || e->info.speed != speeds[k] ||
		    e->cluster != (min_leaf != NULL) ||
		    (min_leaf && e->min_leaf_speed != *min_leaf))
			return 0;
	}
	for (size_t k = 0; k < n; k++)
		ids[k] = first + (int)k;
	return 1;
}

double roster_deadline(const struct roster *r)
{
	return r->created + r->register_timeout_ms / 1000.0;
}

int roster_abandoned(const struct roster *r, double now)
{
	return r->n == 0 && now >= roster_deadline(r);
}

double roster_vpower(const struct roster *r, double speed)
{
	double v = speed / r->min_speed;

	if (v < 1)
		v = 1;
	return v > ROSTER_MAX_VPOWER ? ROSTER_MAX_VPOWER : v;
}

int roster_close_if_due(struct roster *r, double now)
{
	int slowest = 0, clamped = 0;

	if (r->closed || r->n == 0)
		return 0;
	if (r->n < r->expected && now < roster_deadline(r))
		return 0;
	r->closed = 1;
	r->min_speed = INFINITY;
	for (int i = 0; i < r->n; i++) /* the slowest slave, at any depth */
		if (r->v[i].min_leaf_speed < r->min_speed) {
			r->min_speed = r->v[i].min_leaf_speed;
			slowest = i;
		}
	for (int i = 0; i < r->n; i++) {
		r->v[i].info.vpower = r->v[i].info.speed / r->min_speed;
		if (r->v[i].info.vpower > ROSTER_MAX_VPOWER) {
			r->v[i].info.vpower = ROSTER_MAX_VPOWER;
			clamped++;
		}
	}
	if (clamped)
		log_warn("'%s' reports speed %g, over %g times below %d others: their V_i is "
			 "clamped to %g",
			 r->v[slowest].info.name, r->min_speed, ROSTER_MAX_VPOWER, clamped,
			 ROSTER_MAX_VPOWER);
	if (r->n < r->expected)
		log_warn("registration closed with %d of %d slaves", r->n, r->expected);
	else
		log_info("all %d slaves registered", r->n);
	return 1;
}

int roster_wait_closed(struct roster *r, pthread_mutex_t *lock, pthread_cond_t *cond,
		       const int *giving_up, void (*close_if_due)(void *owner, double now),
		       void *owner)
{
	while (!r->closed) {
		if (*giving_up)
			return -1;
		dls_cond_wait_until(cond, lock, roster_deadline(r));
		if (close_if_due)
			close_if_due(owner, dls_now());
		else if (roster_close_if_due(r, dls_now()))
			pthread_cond_broadcast(cond);
	}
	return 0;
}

int roster_check_caller(const struct roster *r, int id, uint64_t key, char *why, size_t len)
{
	if (id < 0 || id >= r->n || !r->v[id].registered) {
		snprintf(why, len, "unknown slave id %d", id);
		return DLS_ENOENT;
	}
	if (roster_key_check(r->v[id].key, key, id, why, len))
		return DLS_EINVAL;
	if (r->v[id].info.state == DLS_SLAVE_LOST) {
		snprintf(why, len, "slave %d was declared lost; its work went to others", id);
		return DLS_ESTATE;
	}
	return DLS_OK;
}

uint64_t roster_key(const struct roster *r, int id)
{
	return id >= 0 && id < r->n ? r->v[id].key : 0;
}

int roster_key_check(uint64_t issued, uint64_t shown, int id, char *why, size_t len)
{
	if (shown == issued)
		return DLS_OK;
	snprintf(why, len, "slave %d: the call does not carry the capability issued to that slave "
			   "at registration: refused",
		 id);
	return DLS_EINVAL;
}

int roster_all_lost(const struct roster *r)
{
	for (int i = 0; i < r->n; i++)
		if (r->v[i].info.state != DLS_SLAVE_LOST)
			return 0;
	return r->n == r->expected;
}

int roster_alive(const struct roster *r, int id)
{
	return id >= 0 && id < r->n && r->v[id].registered &&
	       r->v[id].info.state != DLS_SLAVE_LOST;
}
