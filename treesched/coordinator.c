/*
 * coordinator.c - Tree Scheduling's coordinator (see coordinator.h).
 */
#include "coordinator_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "run_auth.h"
#include "times_bound.h"

static void free_chain(struct coordinator *c)
{
	tree_plan_destroy(c->plan);
	free(c->pos);
	free(c->owner);
	free(c->giver);
	free(c->kept);
	free(c->owned);
	free(c->computed);
	free(c->mig_in);
	free(c->link);
	free(c->start);
	free(c->count);
	free(c->stride);
	free(c->peer_key);
	pair_counts_free(&c->pairs);
	free(c->units);
	c->plan = NULL;
	c->pos = NULL;
	c->owner = c->giver = c->kept = NULL;
	c->owned = c->computed = c->mig_in = c->link = c->start = c->count = c->stride = NULL;
	c->peer_key = NULL;
	c->units = NULL;
	c->nunits = 0;
}

static int check_config(const struct coordinator_config *c, char *why)
{
	const char *cause;

	if (c->nslaves < 1 || c->nslaves > COORDINATOR_MAX_SLAVES) {
		why_f(why, "%d slaves: a coordinator places 1..%d", c->nslaves,
		      COORDINATOR_MAX_SLAVES);
		return DLS_EINVAL;
	}
	if (c->register_timeout_ms < 1 || !(c->report_interval >= 0) || c->nparams < 0 ||
	    c->nparams > DLS_MAX_PARAMS) {
		why_f(why, "the registration timeout, report interval or parameter count is out "
			   "of range");
		return DLS_EINVAL;
	}
	if (c->loops < 0 || c->loops > WORK_MAX_LOOPS) {
		why_f(why, "%d loops: a run holds 1..%d", c->loops, WORK_MAX_LOOPS);
		return DLS_EINVAL;
	}
	if (c->loops > 1 && work_params_loop(c->params, c->nparams)) {
		why_f(why, "parameter dls.loop: a run of %d loops numbers its loops itself "
			   "(loop k gets dls.loop=k)",
		      c->loops);
		return DLS_EINVAL;
	}
	if ((cause = coordinator_policy_check(c))) {
		why_f(why, "policy '%s': %s", c->policy, cause);
		return DLS_EINVAL;
	}
	return DLS_OK;
}

int coordinator_placed(struct coordinator *c)
{
	int n;

	pthread_mutex_lock(&c->lock);
	n = c->plan ? c->plan->npes : 0;
	pthread_mutex_unlock(&c->lock);
	return n;
}

uint64_t coordinator_peer_key(struct coordinator *c, int id)
{
	uint64_t k = 0;

	pthread_mutex_lock(&c->lock);
	if (c->plan && id >= 0 && id < c->plan->npes)
		k = c->peer_key[id];
	pthread_mutex_unlock(&c->lock);
	return k;
}

const char *coordinator_policy_check(const struct coordinator_config *cfg)
{
	enum pile_policy p;

	if (!coordinator_piles(cfg))
		return NULL;
	if (pile_policy_parse(cfg->policy, &p))
		return "unknown: trees, workpile, roc, ripple or none";
	return pile_params_check(p, &cfg->pile, cfg->nslaves);
}

struct coordinator *coordinator_create(const struct coordinator_config *cfg, int *err, char *why)
{
	char scratch[COORDINATOR_WHY_LEN];
	struct coordinator *c;

	if (!why)
		why = scratch;
	*err = check_config(cfg, why);
	if (*err)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		*err = DLS_ENOMEM;
		return NULL;
	}
	c->cfg = *cfg;
	memcpy(c->loop_params, cfg->params, sizeof(c->loop_params));
	c->nloop_params = cfg->nparams;
	c->contact = calloc((size_t)cfg->nslaves, sizeof(*c->contact));
	*err = result_store_init(&c->results, cfg->workload, cfg->params, (size_t)cfg->nparams,
				 cfg->order, why, COORDINATOR_WHY_LEN);
	if (!*err && (!c->contact || roster_init(&c->roster, cfg->nslaves, cfg->register_timeout_ms) ||
		      pthread_mutex_init(&c->lock, NULL) || dls_cond_init(&c->cond))) {
		why_f(why, "out of memory");
		*err = DLS_ENOMEM;
	}
	if (*err) {
		roster_free(&c->roster);
		result_store_free(&c->results);
		free(c->contact);
		free(c);
		return NULL;
	}
	return c;
}

int coordinator_enter(struct coordinator *c, char *why)
{
	if (upcall_gate_enter(&c->gate, &c->lock) == 0)
		return DLS_OK;
	snprintf(why, COORDINATOR_WHY_LEN, COORDINATOR_CLOSING_WHY);
	return DLS_ESTATE;
}

void coordinator_leave(struct coordinator *c)
{
	upcall_gate_leave(&c->gate, &c->lock, &c->cond);
}

void coordinator_close(struct coordinator *c)
{
	pthread_mutex_lock(&c->lock);
	c->gate.closing = 1;
	pthread_cond_broadcast(&c->cond); /* a registration waiting for the others */
	upcall_gate_drain(&c->gate, &c->cond, &c->lock, "the coordinator");
	pthread_mutex_unlock(&c->lock);
}

void coordinator_destroy(struct coordinator *c)
{
	if (!c)
		return;
	coordinator_close(c);
	if (c->journal) {
		struct journal_stats js;

		journal_stats(c->journal, &js);
		log_info("journal: %llu records in %llu commits, %.3f s committing",
			 (unsigned long long)js.records, (unsigned long long)js.commits,
			 js.commit_s);
	}
	journal_close(c->journal);
	for (size_t k = 0; k < c->npending; k++)
		coordinator_repair_free(&c->pending[k]);
	free(c->pending);
	for (int i = 0; i < c->cfg.nslaves; i++)
		free(c->contact[i]);
	free(c->contact);
	free_chain(c);
	roster_free(&c->roster);
	result_store_free(&c->results);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->cond);
	free(c);
}

int coordinator_build_chain(struct coordinator *c, const uint64_t *peer_keys)
{
	int n = c->roster.n, rc;
	double *tau = calloc((size_t)n, sizeof(*tau));

	c->pos = calloc((size_t)n, sizeof(*c->pos));
	c->owner = calloc((size_t)coordinator_iterations(c), sizeof(*c->owner));
	c->giver = malloc((size_t)coordinator_iterations(c) * sizeof(*c->giver));
	c->kept = malloc((size_t)coordinator_iterations(c) * sizeof(*c->kept));
	c->owned = calloc((size_t)n, sizeof(*c->owned));
	c->computed = calloc((size_t)n, sizeof(*c->computed));
	c->mig_in = calloc((size_t)n, sizeof(*c->mig_in));
	c->link = calloc((size_t)n, sizeof(*c->link));
	c->start = calloc((size_t)n, sizeof(*c->start));
	c->count = calloc((size_t)n, sizeof(*c->count));
	c->stride = calloc((size_t)n, sizeof(*c->stride));
	c->peer_key = calloc((size_t)n, sizeof(*c->peer_key));
	rc = !tau || !c->pos || !c->owner || !c->giver || !c->kept || !c->owned || !c->computed || !c->mig_in || !c->link ||
			     !c->start || !c->count || !c->stride || !c->peer_key
		     ? DLS_ENOMEM
		     : DLS_OK;
	if (!rc && !strcmp(c->cfg.policy, "ripple") && c->cfg.pile.topology == RIPPLE_CUBE &&
	    (n & (n - 1)) && n <= PILE_RIPPLE_LINE_MAX) {
		/* a slave that never came (withdrawn, or the window closed): the
		 * slaves would refuse a cube of n; the same on a resume (the chain) */
		log_warn("Ripple's cube needs a power-of-two number of slaves and %d registered: "
			 "it runs on a line",
			 n);
		c->cfg.pile.topology = RIPPLE_LINE;
	}
	for (int i = 0; !rc && i < n; i++)
		c->peer_key[i] = peer_keys ? peer_keys[i] : dls_random_key();
	for (int i = 0; !rc && i < n; i++)
		tau[i] = c->roster.v[i].info.speed;
	if (!rc)
		rc = tree_plan_build(tau, n, &c->plan);
	if (!rc)
		rc = tree_plan_allocate(c->plan, tau, coordinator_iterations(c), c->cfg.alloc, c->start,
					c->count);
	for (int k = 0; !rc && k < n; k++)
		c->pos[c->plan->chain[k]] = k;
	for (int64_t i = 0; !rc && i < coordinator_iterations(c); i++)
		c->giver[i] = c->kept[i] = -1;
	for (int i = 0; !rc && i < n; i++) {
		c->stride[i] = c->cfg.alloc == TREE_ALLOC_ROUND_ROBIN ? n : 1;
		for (int64_t j = 0; j < c->count[i]; j++)
			c->owner[c->start[i] + j * c->stride[i]] = i;
		c->owned[i] = c->count[i];
		c->roster.v[i].info.state = DLS_SLAVE_ACTIVE;
	}
	free(tau);
	if (rc) {
		free_chain(c);
		return rc;
	}
	result_store_start(&c->results);
	log_info("chain of %d slaves built; Tree Scheduling starts", n);
	return DLS_OK;
}

/* The living slave nearest to chain position `at` on one side; the lock is held. */
static struct coordinator_side side_of(const struct coordinator *c, int at, int step)
{
	struct coordinator_side s = {coordinator_living_at(c, at, step), 0, 0};

	if (s.id >= 0) {
		s.tau = c->roster.v[s.id].info.speed;
		s.peer_key = c->peer_key[s.id];
	}
	return s;
}

/* The lock is held. */
static void neighbours(struct coordinator *c, int id, struct coordinator_side *left,
		       struct coordinator_side *right)
{
	*left = *right = (struct coordinator_side){-1, 0, 0};
	if (c->plan && id >= 0 && id < c->plan->npes) {
		*left = side_of(c, c->pos[id], -1);
		*right = side_of(c, c->pos[id], +1);
	}
}

void coordinator_neighbours(struct coordinator *c, int id, struct coordinator_side *left,
			    struct coordinator_side *right)
{
	pthread_mutex_lock(&c->lock);
	neighbours(c, id, left, right);
	pthread_mutex_unlock(&c->lock);
}

uint64_t coordinator_child_key(struct coordinator *c, int id)
{
	uint64_t key = 0;

	pthread_mutex_lock(&c->lock);
	key = roster_key(&c->roster, id);
	pthread_mutex_unlock(&c->lock);
	return key;
}

/* Slave id's place in the current loop; the lock is held, id is placed. */
static void fill_place(struct coordinator *c, int id, struct coordinator_place *place)
{
	struct coordinator_side left, right;

	memset(place, 0, sizeof(*place));
	place->vpower = c->roster.v[id].info.vpower;
	place->start = c->start[id];
	place->count = c->count[id];
	place->stride = c->stride[id];
	place->tau = c->roster.v[id].info.speed;
	place->key = c->roster.v[id].key;
	place->peer_key = c->peer_key[id];
	neighbours(c, id, &left, &right);
	place->left_id = left.id;
	place->left_tau = left.tau;
	place->left_key = left.peer_key;
	place->right_id = right.id;
	place->right_tau = right.tau;
	place->right_key = right.peer_key;
}

int coordinator_place(struct coordinator *c, int id, struct coordinator_place *place)
{
	int rc = DLS_ENOENT;

	pthread_mutex_lock(&c->lock);
	if (c->plan && id >= 0 && id < c->plan->npes) {
		fill_place(c, id, place);
		rc = DLS_OK;
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

/*
 * The id of a registration made already by the same process, not lost
 * (roster_find_again, the caller being the fingerprint of its reference,
 * contact).  Its answer was lost (a call that timed out on the slave's
 * side, or a coordinator that died after its journal recorded the chain and
 * was resumed), and a process that never had its answer cannot have acted
 * with its capability.  -1: none (a new registration).
 */
static int registered_before(const struct coordinator *c, const char *name, double speed,
			     const char *contact)
{
	int id;

	if (!roster_find_again(&c->roster, &name, &speed, 1, NULL, dls_fingerprint(contact), &id) ||
	    c->roster.v[id].info.state == DLS_SLAVE_LOST)
		return -1;
	return id;
}

int coordinator_register(struct coordinator *c, const char *name, double speed,
			 const char *contact, int *id, struct coordinator_place *place, char *why)
{
	uint64_t key, ticket = 0;
	int rc = DLS_OK;

	pthread_mutex_lock(&c->lock);
	*id = registered_before(c, name, speed, contact);
	if (*id >= 0) {
		key = c->roster.v[*id].key;
		log_warn("slave %d '%s' registered again by the same process (the answer to its "
			 "registration was lost): the same place again",
			 *id, name);
	} else if (c->resumed_at > 0 && c->plan) { /* the dead coordinator's chain is the run's */
		why_f(why, "slave '%s': the run resumed after its chain was built; a slave of "
			   "it rejoins instead",
		      name);
		rc = DLS_ESTATE;
		goto out;
	} else {
		rc = roster_add(&c->roster, &name, &speed, 1, NULL, id, &key, why,
				COORDINATOR_WHY_LEN);
		if (rc)
			goto out;
		if (contact && !(c->contact[*id] = strdup(contact))) {
			why_f(why, "out of memory");
			rc = DLS_ENOMEM; /* its place stays empty: the run goes on without it */
			goto out;
		}
		c->roster.v[*id].caller = dls_fingerprint(contact);
	}
	if (roster_close_if_due(&c->roster, dls_now()))
		pthread_cond_broadcast(&c->cond);
	if (roster_wait_closed(&c->roster, &c->lock, &c->cond, &c->gate.closing, NULL, NULL)) {
		why_f(why, COORDINATOR_CLOSING_WHY);
		rc = DLS_ESTATE;
		goto out;
	}
	if (!c->plan) {
		rc = coordinator_build_chain(c, NULL);
		if (rc)
			why_f(why, "cannot build the chain: %s", dls_strerror(rc));
		else
			c->chain_ticket = coordinator_log_chain(c);
	}
	if (!rc && *id >= c->plan->npes) {
		why_f(why, "slave '%s' registered after the chain was built", name);
		rc = DLS_ESTATE;
	}
	if (rc)
		goto out;
	fill_place(c, *id, place);
	ticket = c->chain_ticket;
out:
	pthread_mutex_unlock(&c->lock);
	journal_wait(c->journal, ticket); /* the chain is durable before anyone is placed */
	return rc;
}

int coordinator_withdraw(struct coordinator *c, const char *name, char *why)
{
	int rc;

	pthread_mutex_lock(&c->lock);
	if (roster_close_if_due(&c->roster, dls_now())) /* a window already past */
		pthread_cond_broadcast(&c->cond);
	rc = roster_withdraw(&c->roster, name, why, COORDINATOR_WHY_LEN);
	if (!rc && roster_close_if_due(&c->roster, dls_now()))
		pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

int coordinator_peer(struct coordinator *c, int id, uint64_t key, int peer, uint64_t *peer_key,
		     int *lost, char *why)
{
	int rc;

	*peer_key = 0;
	*lost = 0;
	pthread_mutex_lock(&c->lock);
	rc = coordinator_check_slave(c, id, key, why);
	if (!rc && !coordinator_piles(&c->cfg)) {
		why_f(why, "peer: the run balances by Tree Scheduling, not a decentralized "
			   "policy (workpile, roc, ripple)");
		rc = DLS_EINVAL;
	} else if (!rc && (peer < 0 || peer >= c->plan->npes)) {
		why_f(why, "peer: no slave %d in this run of %d", peer, c->plan->npes);
		rc = DLS_EINVAL;
	} else if (!rc && peer < c->roster.n && c->roster.v[peer].info.state == DLS_SLAVE_LOST) {
		*lost = 1;
	} else if (!rc) {
		*peer_key = c->peer_key[peer];
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

int coordinator_report(struct coordinator *c, int id, uint64_t key, const struct dls_result *res,
		       size_t n, const struct dls_times *times, char *why)
{
	struct ledger *l = &c->results.ledger;
	size_t rb = c->results.work.loop.result_bytes;
	uint64_t ticket = 0;
	int rc;

	pthread_mutex_lock(&c->lock);
	rc = coordinator_check_slave(c, id, key, why);
	for (size_t b = 0; !rc && b < n; b++)
		if (res[b].loop != c->loop) { /* a slave computes a loop until it is ended */
			why_f(why, "results of loop %u: the run is in loop %u", res[b].loop,
			      c->loop);
			rc = DLS_EINVAL;
		}
	for (size_t b = 0; !rc && b < n; b++)
		rc = ledger_fits(l, &res[b], why, COORDINATOR_WHY_LEN);
	for (size_t b = 0; !rc && b < n; b++)
		rc = coordinator_check_holds(c, id, res[b].start, res[b].count, 1, why);
	if (!rc)
		rc = work_check_results(&c->results.work, res, n, why, COORDINATOR_WHY_LEN);
	for (size_t b = 0; !rc && b < n; b++)
		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++) {
			if (l->state[i] == 1) { /* computed twice after a failure */
				c->duplicates++;
				continue;
			}
			result_store_put(&c->results, i,
					 (const uint8_t *)res[b].data + (size_t)(i - res[b].start) * rb);
			l->state[i] = 1;
			l->ndelivered++;
			c->computed[id]++;
			c->owned[c->owner[i]]--;
		}
	if (!rc) {
		c->roster.v[id].info.times = *times;
		times_bound(&c->roster.v[id].info.times);
		ticket = coordinator_log_report(c, id, res, n, times);
		if (result_store_complete(&c->results)) {
			coordinator_log_done(c);
			pthread_cond_broadcast(&c->cond);
		}
	}
	pthread_mutex_unlock(&c->lock);
	journal_wait(c->journal, ticket); /* durable before it is acknowledged */
	return rc;
}

size_t coordinator_living(struct coordinator *c, int *ids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&c->lock);
	for (int i = 0; c->plan && i < c->plan->npes && n < max; i++)
		if (coordinator_alive(c, i) && c->roster.v[i].info.state != DLS_SLAVE_DONE)
			ids[n++] = i;
	pthread_mutex_unlock(&c->lock);
	return n;
}

void coordinator_dismissed(struct coordinator *c, int id)
{
	pthread_mutex_lock(&c->lock);
	if (coordinator_alive(c, id)) {
		coordinator_log_dismissed(c, id);
		c->roster.v[id].info.state = DLS_SLAVE_DONE;
		pthread_cond_broadcast(&c->cond);
	}
	pthread_mutex_unlock(&c->lock);
}

int coordinator_wait_done(struct coordinator *c, int timeout_ms)
{
	int rc;

	pthread_mutex_lock(&c->lock);
	rc = result_store_wait_done(&c->results, &c->lock, &c->cond,
				    dls_now() + timeout_ms / 1000.0);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

int coordinator_all_lost(struct coordinator *c)
{
	int all;

	pthread_mutex_lock(&c->lock);
	all = roster_all_lost(&c->roster) || roster_abandoned(&c->roster, dls_now());
	pthread_mutex_unlock(&c->lock);
	return all;
}

int coordinator_snapshot(struct coordinator *c, struct dls_status *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&c->lock);
	out->slaves = calloc((size_t)c->cfg.nslaves, sizeof(*out->slaves));
	if (!out->slaves) {
		pthread_mutex_unlock(&c->lock);
		return DLS_ENOMEM;
	}
	out->scheme = coordinator_piles(&c->cfg) ? c->cfg.policy : "trees";
	out->iterations = coordinator_iterations(c);
	out->delivered = c->results.ledger.ndelivered;
	out->requeued = c->reassigned;
	out->started = c->results.started;
	out->done = c->results.done;
	out->elapsed = result_store_elapsed(&c->results);
	out->loop = c->loop;
	out->loops = c->cfg.loops > 1 ? (uint32_t)c->cfg.loops : 0;
	/* the slaves in chain order once it is built */
	for (int k = 0; k < (c->plan ? c->plan->npes : c->roster.n); k++) {
		int i = c->plan ? c->plan->chain[k] : k;
		struct dls_slave_status *o = &out->slaves[out->nslaves++];

		*o = c->roster.v[i].info;
		if (c->plan) {
			o->held = c->owned[i];
			o->iterations = c->computed[i];
			o->chunks = c->mig_in[i];
		}
	}
	pthread_mutex_unlock(&c->lock);
	return DLS_OK;
}

int coordinator_tree_stats(struct coordinator *c, struct run_report_tree *out)
{
	int n;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&c->lock);
	if (!c->plan) {
		pthread_mutex_unlock(&c->lock);
		return DLS_ENOENT;
	}
	n = c->plan->npes;
	out->migrations = c->migrations;
	out->moved = c->moved;
	out->duplicates = c->duplicates;
	out->reassigned = c->reassigned;
	out->nunits = c->nunits;
	out->npes = n;
	out->unit_size = calloc(c->nunits + 1, sizeof(int64_t));
	out->unit_count = calloc(c->nunits + 1, sizeof(int64_t));
	out->chain = calloc((size_t)n, sizeof(int));
	out->link_level = calloc((size_t)n, sizeof(int));
	out->link_migrations = calloc((size_t)n, sizeof(int64_t));
	if (!out->unit_size || !out->unit_count || !out->chain || !out->link_level ||
	    !out->link_migrations) {
		pthread_mutex_unlock(&c->lock);
		run_report_tree_free(out);
		return DLS_ENOMEM;
	}
	for (size_t k = 0; k < c->nunits; k++) {
		out->unit_size[k] = c->units[k].size;
		out->unit_count[k] = c->units[k].count;
	}
	for (int k = 0; k < n; k++) {
		out->chain[k] = c->plan->chain[k];
		if (k + 1 < n) {
			out->link_level[k] = c->plan->link_level[k];
			out->link_migrations[k] = c->link[k];
		}
	}
	out->piles = coordinator_piles(&c->cfg);
	pair_counts_sort(&c->pairs);
	out->npairs = c->pairs.n;
	out->pair_from = calloc(out->npairs + 1, sizeof(int));
	out->pair_to = calloc(out->npairs + 1, sizeof(int));
	out->pair_count = calloc(out->npairs + 1, sizeof(int64_t));
	if (!out->pair_from || !out->pair_to || !out->pair_count) {
		pthread_mutex_unlock(&c->lock);
		run_report_tree_free(out);
		return DLS_ENOMEM;
	}
	for (size_t k = 0; k < c->pairs.n; k++) {
		out->pair_from[k] = c->pairs.v[k]->from;
		out->pair_to[k] = c->pairs.v[k]->to;
		out->pair_count[k] = c->pairs.v[k]->n;
	}
	pthread_mutex_unlock(&c->lock);
	return DLS_OK;
}

void coordinator_job(const struct coordinator *c, struct dls_job *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->run_name, sizeof(out->run_name), "%s", c->cfg.run_name);
	work_describe(&c->results.work, c->cfg.workload, c->loop_params, (size_t)c->nloop_params,
		      out);
	out->collect = DLS_COLLECT_PIGGYBACK; /* slaves report at intervals (TreeAssignment) */
	out->scheme.kind = DLS_SCHEME_DECENTRALIZED;
}

const struct result_store *coordinator_results(const struct coordinator *c)
{
	return &c->results;
}

const struct coordinator_config *coordinator_config_of(const struct coordinator *c)
{
	return &c->cfg;
}
