/*
 * master.c - the master's lifecycle, registration (Chronopoulos et al. 2002 DTSS master
 * step 1, over the shared roster) and snapshots.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "master_internal.h"
#include "run_auth.h"
#include "work.h"

void master_why(char *why, const char *fmt, ...)
{
	va_list ap;

	if (!why)
		return;
	va_start(ap, fmt);
	vsnprintf(why, MASTER_WHY_LEN, fmt, ap);
	va_end(ap);
}

static int check_config(const struct master_config *c, char *why)
{
	const struct dls_param *given;

	if (c->nslaves < 1 || c->nslaves > MASTER_MAX_SLAVES) {
		master_why(why, "%d slaves: a master serves 1..%d", c->nslaves, MASTER_MAX_SLAVES);
		return DLS_EINVAL;
	}
	if (c->collect != DLS_COLLECT_PIGGYBACK && c->collect != DLS_COLLECT_END) {
		master_why(why, "collect mode %d: piggyback or end", (int)c->collect);
		return DLS_EINVAL;
	}
	if (c->loops < 0 || c->loops > WORK_MAX_LOOPS) {
		master_why(why, "%d loops: a run holds 1..%d", c->loops, WORK_MAX_LOOPS);
		return DLS_EINVAL;
	}
	if (c->register_timeout_ms < 1 || c->start_timeout_ms < 0 || c->wait_ms < 1 ||
	    c->early_wait_ms < 0 || c->nparams < 0 || c->nparams > DLS_MAX_PARAMS) {
		master_why(why, "a timeout, the WAIT time or the parameter count is out of range");
		return DLS_EINVAL;
	}
	if (!(c->verify >= 0 && c->verify <= 1)) {
		master_why(why, "verify fraction %g: 0..1", c->verify);
		return DLS_EINVAL;
	}
	given = work_params_loop(c->params, c->nparams);
	if (c->loops > 1 && given) {
		master_why(why, "parameter dls.loop=%s: a run of %d loops numbers its loops itself "
				"(loop k gets dls.loop=k)",
			   given->value, c->loops);
		return DLS_EINVAL;
	}
	return DLS_OK;
}

/* The scheme over the loop, checked now rather than at the first request. */
static int check_scheme(struct master *m, char *why)
{
	struct sched *probe;
	int rc;

	m->cfg.sched.iterations = m->results.work.loop.iterations;
	m->cfg.sched.npes = m->cfg.nslaves;
	m->cfg.sched.acp = NULL;
	/* auto: the loop's own order may keep expensive iterations together */
	m->cfg.sched.correlated = m->results.work.order.mode == ITER_ORDER_NATURAL;
	m->cfg.sched.service_s = SCHED_SERVICE_S;
	if (m->cfg.sched.kind == SCHED_AWF && m->cfg.loops < 2) {
		master_why(why, "scheme awf cannot run here: %s", SCHED_AWF_ONE_LOOP_WHY);
		return DLS_EINVAL;
	}
	rc = sched_create(&m->cfg.sched, &probe);
	sched_destroy(probe);
	if (rc)
		master_why(why, "scheme %s cannot run %lld iterations on %d slaves with these "
				"options: %s",
			   sched_kind_name(m->cfg.sched.kind),
			   (long long)m->cfg.sched.iterations, m->cfg.nslaves, dls_strerror(rc));
	return rc;
}

struct master *master_create(const struct master_config *cfg, int *err, char *why)
{
	char scratch[MASTER_WHY_LEN];
	struct master *m;
	int rc;

	if (!why)
		why = scratch;
	rc = check_config(cfg, why);

	if (rc) {
		*err = rc;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		*err = DLS_ENOMEM;
		return NULL;
	}
	m->cfg = *cfg;
	m->loop_ready = 1;
	m->nloop_params = cfg->nparams;
	memcpy(m->loop_params, cfg->params, sizeof(m->loop_params));
	rc = result_store_init(&m->results, cfg->workload, cfg->params, (size_t)cfg->nparams,
			       cfg->order, why, MASTER_WHY_LEN);
	if (!rc)
		rc = check_scheme(m, why);
	m->results.sink = cfg->sink;
	m->results.sink_ctx = cfg->sink_ctx;
	m->children = rc ? NULL : calloc((size_t)cfg->nslaves, sizeof(*m->children));
	m->group_live = rc ? NULL : calloc((size_t)cfg->nslaves, 1);
	m->group_asked = rc ? NULL : calloc((size_t)cfg->nslaves, 1);
	for (int i = 0; m->children && i < cfg->nslaves; i++) {
		m->children[i].group = i;
		m->children[i].first_given_loop = -1;
	}
	if (!rc && cfg->verify > 0 && !cfg->verify_key_set) {
		rc = dls_random_bytes(m->cfg.verify_key, sizeof(m->cfg.verify_key));
		m->cfg.verify_key_set = !rc;
		if (rc)
			master_why(why, "no random key for --verify's draw");
	}
	if (!rc && (!m->children || !m->group_live || !m->group_asked ||
		    master_verify_init(&m->verify, cfg->nslaves) ||
		    roster_init(&m->roster, cfg->nslaves, cfg->register_timeout_ms) ||
		    pthread_mutex_init(&m->lock, NULL) || dls_cond_init(&m->cond))) {
		master_why(why, "out of memory");
		rc = DLS_ENOMEM;
	}
	if (rc) {
		master_verify_free(&m->verify);
		free(m->children);
		free(m->group_live);
		free(m->group_asked);
		roster_free(&m->roster);
		result_store_free(&m->results);
		free(m);
		*err = rc;
		return NULL;
	}
	*err = DLS_OK;
	return m;
}

int master_enter(struct master *m, char *why)
{
	if (upcall_gate_enter(&m->gate, &m->lock) == 0)
		return DLS_OK;
	master_why(why, MASTER_CLOSING_WHY);
	return DLS_ESTATE;
}

void master_leave(struct master *m)
{
	upcall_gate_leave(&m->gate, &m->lock, &m->cond);
}

/* After the close, how long the calls that were inside (a registration
 * waiting for the others, refused now) have for their replies to leave:
 * the ORB sends a reply after the call has left the core, and a process
 * that destroys its ORB at once closes the connection first, so that the
 * caller's ORB retries the call on a new connection, to nobody. */
#define MASTER_CLOSE_REPLY_MS 200

void master_close(struct master *m)
{
	int inside;

	pthread_mutex_lock(&m->lock);
	m->gate.closing = 1;
	inside = m->gate.inside;
	/* every wait inside looks at closing before it sleeps and when it wakes */
	pthread_cond_broadcast(&m->cond);
	serve_queue_wake_all(&m->queue);
	upcall_gate_drain(&m->gate, &m->cond, &m->lock, "the master");
	pthread_mutex_unlock(&m->lock);
	if (inside)
		dls_sleep_ms(MASTER_CLOSE_REPLY_MS);
}

void master_destroy(struct master *m)
{
	if (!m)
		return;
	master_close(m);
	if (m->journal) {
		struct journal_stats js;

		journal_stats(m->journal, &js);
		log_info("journal: %llu records in %llu commits, %.3f s committing",
			 (unsigned long long)js.records, (unsigned long long)js.commits,
			 js.commit_s);
	}
	journal_close(m->journal);
	for (int i = 0; i < m->cfg.nslaves; i++)
		ledger_held_free(&m->children[i].serve.held);
	sched_destroy(m->sched);
	master_verify_free(&m->verify);
	free(m->children);
	free(m->group_live);
	free(m->group_asked);
	roster_free(&m->roster);
	result_store_free(&m->results);
	if (m->has_finished)
		result_store_free(&m->finished);
	timeline_free(&m->timeline);
	serve_ranges_free(&m->requeue);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
	free(m);
}

void master_close_registration_if_due(struct master *m, double now)
{
	if (!roster_close_if_due(&m->roster, now))
		return;
	master_log_closed(m);
	m->closed_at = now;
	m->gate_deadline = now + m->cfg.start_timeout_ms / 1000.0;
	pthread_cond_broadcast(&m->cond);
	serve_queue_wake_head(&m->queue); /* the start gate may open now */
}

/* Has none of children ids[0..n) acted since it registered? */
static int none_acted(const struct master *m, const int *ids, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct master_child *ch = &m->children[ids[k]];
		enum dls_slave_state st = m->roster.v[ids[k]].info.state;

		if (ch->serve.has_reply || ch->first_request_pending || ch->readmitted ||
		    ledger_held_undelivered(&ch->serve.held) ||
		    (st != DLS_SLAVE_REGISTERED && st != DLS_SLAVE_WAITING))
			return 0;
	}
	return 1;
}

/* A registration made already by `caller` and never acted on: answered
 * again (roster_find_again); the lock is held.  1 when it was. */
static int register_again(struct master *m, uint64_t caller, const char *const *names,
			  const double *speeds, size_t n, const double *min_leaf, int *ids,
			  uint64_t *keys, uint64_t *ticket)
{
	if (!roster_find_again(&m->roster, names, speeds, n, min_leaf, caller, ids) ||
	    !none_acted(m, ids, n))
		return 0;
	*ticket = m->children[ids[0]].reg_ticket;
	for (size_t k = 0; k < n; k++) {
		keys[k] = m->roster.v[ids[k]].key;
		m->children[ids[k]].rejoined = 1;
		log_warn("slave %d '%s' registered again by the same process (the answer to its "
			 "registration was lost): the same id and capability again",
			 ids[k], names[k]);
	}
	return 1;
}

/* Registers n slaves (or one two-level hmaster); the lock is held.
 * *ticket: the journal's record of it, durable before the ids are told. */
static int add_slaves(struct master *m, uint64_t caller, const char *const *names,
		      const double *speeds, size_t n, const double *min_leaf, int *ids,
		      uint64_t *keys, uint64_t *ticket, char *why)
{
	int rc;

	*ticket = 0;
	if (register_again(m, caller, names, speeds, n, min_leaf, ids, keys, ticket))
		return DLS_OK;
	rc = roster_add(&m->roster, names, speeds, n, min_leaf, ids, keys, why, MASTER_WHY_LEN);
	for (size_t k = 0; !rc && k < n; k++) {
		m->roster.v[ids[k]].caller = caller;
		m->children[ids[k]].group = ids[0];
		m->children[ids[k]].serve.may_prefetch = min_leaf != NULL;
		m->children[ids[k]].rejoined = 1; /* it holds this master's reference */
	}
	if (!rc) {
		*ticket = master_log_register(m, caller, names, speeds, n, min_leaf, ids, keys);
		for (size_t k = 0; k < n; k++)
			m->children[ids[k]].reg_ticket = *ticket;
		master_close_registration_if_due(m, dls_now());
	}
	return rc;
}

int master_withdraw(struct master *m, const char *name, char *why)
{
	uint64_t ticket = 0;
	int rc;

	pthread_mutex_lock(&m->lock);
	master_close_registration_if_due(m, dls_now()); /* a window already past closes first */
	rc = roster_withdraw(&m->roster, name, why, MASTER_WHY_LEN);
	if (!rc) {
		ticket = master_log_withdrawn(m, name);
		master_close_registration_if_due(m, dls_now());
	}
	pthread_mutex_unlock(&m->lock);
	master_journal_wait(m, ticket);
	return rc;
}

static void close_registration_if_due(void *m, double now)
{
	master_close_registration_if_due(m, now);
}

/* Waits until registration closed (DLS_OK), or refuses the caller when
 * the master closes first; the lock is held.  A window that ends by its
 * deadline is closed through master_close_registration_if_due: the close
 * is journaled and the start gate's wait for the first requests begins
 * (the roster closing alone would leave the gate to open at the first
 * request, weighing no one else's A_i). */
static int wait_registration(struct master *m, char *why)
{
	if (roster_wait_closed(&m->roster, &m->lock, &m->cond, &m->gate.closing,
			       close_registration_if_due, m) == 0)
		return DLS_OK;
	master_why(why, MASTER_CLOSING_WHY);
	return DLS_ESTATE;
}

int master_register_group(struct master *m, uint64_t caller, const char *const *names,
			  const double *speeds, size_t n, int *ids, uint64_t *keys, double *vpowers,
			  char *why)
{
	uint64_t ticket;
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = add_slaves(m, caller, names, speeds, n, NULL, ids, keys, &ticket, why);
	if (!rc)
		rc = wait_registration(m, why);
	for (size_t k = 0; !rc && k < n; k++)
		vpowers[k] = m->roster.v[ids[k]].info.vpower;
	pthread_mutex_unlock(&m->lock);
	master_journal_wait(m, ticket);
	return rc;
}

int master_register_cluster(struct master *m, uint64_t caller, const char *name,
			    const double *speeds, size_t n, int *id, uint64_t *key, double *vpowers,
			    char *why)
{
	double sum = 0, min = INFINITY;
	uint64_t ticket;
	int rc;

	if (n < 1) {
		master_why(why, "hmaster '%s' registers no slaves", name);
		return DLS_EINVAL;
	}
	for (size_t k = 0; k < n; k++) {
		char who[96];

		snprintf(who, sizeof(who), "slave %zu below '%s'", k, name);
		if (roster_speed_check(speeds[k], who, why, MASTER_WHY_LEN))
			return DLS_EINVAL;
		sum += speeds[k];
		if (speeds[k] < min)
			min = speeds[k];
	}
	pthread_mutex_lock(&m->lock);
	rc = add_slaves(m, caller, &name, &sum, 1, &min, id, key, &ticket, why);
	if (!rc)
		rc = wait_registration(m, why);
	if (!rc) {
		for (size_t k = 0; k < n; k++) /* as if each had registered here */
			vpowers[k] = roster_vpower(&m->roster, speeds[k]);
	}
	pthread_mutex_unlock(&m->lock);
	master_journal_wait(m, ticket);
	return rc;
}

int master_register(struct master *m, uint64_t caller, const char *name, double speed, int *id,
		    uint64_t *key, double *vpower, char *why)
{
	return master_register_group(m, caller, &name, &speed, 1, id, key, vpower, why);
}

int master_wait_done(struct master *m, int timeout_ms)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = result_store_wait_done(&m->results, &m->lock, &m->cond,
				    dls_now() + timeout_ms / 1000.0);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

static int all_dismissed(const struct master *m)
{
	for (int i = 0; i < m->roster.n; i++) {
		enum dls_slave_state st = m->roster.v[i].info.state;

		if (st != DLS_SLAVE_DONE && st != DLS_SLAVE_LOST)
			return 0;
	}
	return 1;
}

int master_wait_until(struct master *m, int (*done)(const struct master *), double deadline)
{
	int rc = DLS_OK;

	pthread_mutex_lock(&m->lock);
	while (!done(m)) {
		if (dls_cond_wait_until(&m->cond, &m->lock, deadline) && dls_now() >= deadline) {
			rc = done(m) ? DLS_OK : DLS_ETIMEDOUT;
			break;
		}
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_wait_dismissed(struct master *m, int timeout_ms)
{
	return master_wait_until(m, all_dismissed, dls_now() + timeout_ms / 1000.0);
}

int master_all_lost(struct master *m)
{
	int all;

	pthread_mutex_lock(&m->lock);
	all = roster_all_lost(&m->roster) || roster_abandoned(&m->roster, dls_now());
	pthread_mutex_unlock(&m->lock);
	return all;
}

int master_timeline(struct master *m, struct timeline *out)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = timeline_copy(out, &m->timeline);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_snapshot(struct master *m, struct dls_status *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&m->lock);
	out->slaves = calloc((size_t)m->cfg.nslaves, sizeof(*out->slaves));
	if (!out->slaves) {
		pthread_mutex_unlock(&m->lock);
		return DLS_ENOMEM;
	}
	out->scheme = sched_kind_name(m->cfg.sched.kind);
	out->iterations = m->results.work.loop.iterations;
	out->assigned = m->assigned;
	out->delivered = m->results.ledger.ndelivered;
	out->requeued = m->requeued_total;
	out->takebacks = m->takebacks;
	out->taken_back = m->taken_back;
	out->verify = m->verify.st;
	out->verify.fraction = m->cfg.verify;
	out->recomputations = m->sched ? sched_recomputations(m->sched) : 0;
	if (m->sched)
		master_auto_describe(m->sched, out->scheme_choices, sizeof(out->scheme_choices));
	out->started = m->gate_open;
	out->loop = m->loop;
	out->loops = m->cfg.loops > 1 ? (uint32_t)m->cfg.loops : 0;
	out->done = m->results.done;
	out->elapsed = result_store_elapsed(&m->results);
	for (int i = 0; i < m->roster.n; i++) {
		out->slaves[out->nslaves] = m->roster.v[i].info;
		out->slaves[out->nslaves].held =
			ledger_held_undelivered(&m->children[i].serve.held);
		out->nslaves++;
	}
	pthread_mutex_unlock(&m->lock);
	return DLS_OK;
}

const struct result_store *master_results(const struct master *m)
{
	return &m->results;
}

double master_clock_lead(const struct master *m)
{
	double lead = m->results.t_start - m->closed_at;

	return m->closed_at > 0 && m->results.started && lead > 0 ? lead : 0;
}

const struct master_config *master_config_of(const struct master *m)
{
	return &m->cfg;
}

void master_job(const struct master *m, struct dls_job *out)
{
	const struct master_config *c = &m->cfg;

	memset(out, 0, sizeof(*out));
	snprintf(out->run_name, sizeof(out->run_name), "%s", c->run_name);
	work_describe(&m->results.work, c->workload, m->loop_params, (size_t)m->nloop_params, out);
	out->collect = c->collect;
	sched_params_to_scheme(&c->sched, &out->scheme);
}

int master_more_loops(const struct master *m)
{
	return m->loop + 1 < (uint32_t)m->cfg.loops;
}

uint32_t master_loop(struct master *m)
{
	uint32_t k;

	pthread_mutex_lock(&m->lock);
	k = m->loop;
	pthread_mutex_unlock(&m->lock);
	return k;
}

/* What a child keeps of one loop, forgotten for the next: its holdings,
 * a cut, the stall watch's marks. */
static void forget_loop(struct master_child *ch)
{
	serve_forget_loop(&ch->serve);
	ch->cut = 0;
	ch->seen_start = ch->seen_done = 0;
	ch->seen_since = ch->stall_asked = 0;
	ch->last_delivery_at = 0;
}

int master_begin_loop(struct master *m, const struct dls_param *given, int ngiven, char *why)
{
	struct dls_param params[DLS_MAX_PARAMS];
	struct result_store fresh;
	int n, rc;

	if (!m->results.done || !master_more_loops(m) || m->gate.closing) {
		master_why(why, "loop %u: %s", m->loop,
			   !m->results.done ? "results are still missing" : "no loop is left");
		return DLS_ESTATE;
	}
	if (ngiven < 0 || ngiven > DLS_MAX_PARAMS || (ngiven && !given)) {
		master_why(why, "%d parameters: 0..%d", ngiven, DLS_MAX_PARAMS);
		return DLS_EINVAL;
	}
	memcpy(params, given ? given : m->cfg.params,
	       (size_t)(given ? ngiven : m->cfg.nparams) * sizeof(*params));
	n = given ? ngiven : m->cfg.nparams;
	rc = work_params_set_loop(params, &n, m->loop + 1);
	if (rc)
		master_why(why,
			   "loop %u: no room for the parameter dls.loop (%d parameters at most)",
			   m->loop + 1, DLS_MAX_PARAMS);
	else
		rc = result_store_init(&fresh, m->cfg.workload, params, (size_t)n, m->cfg.order,
				       why, MASTER_WHY_LEN);
	if (rc)
		return rc;
	fresh.sink = m->results.sink;
	fresh.sink_ctx = m->results.sink_ctx;
	fresh.loop = m->loop + 1;
	if (m->cfg.auto_loops && !m->replaying) { /* the driver takes them */
		m->finished = m->results;
		m->has_finished = 1;
	} else {
		result_store_free(&m->results);
	}
	m->results = fresh;
	memcpy(m->loop_params, params, sizeof(params));
	m->nloop_params = n;
	for (int i = 0; i < m->cfg.nslaves; i++)
		forget_loop(&m->children[i]);
	master_verify_new_loop(m);
	serve_ranges_free(&m->requeue);
	timeline_free(&m->timeline);
	memset(&m->timeline, 0, sizeof(m->timeline));
	m->assigned = 0;
	m->loop++;
	m->loop_ready = 1;
	m->gate_deadline = dls_now() + m->cfg.start_timeout_ms / 1000.0;
	return DLS_OK;
}

void master_complete_if_due(struct master *m)
{
	if (master_verify_settled(m) && result_store_complete(&m->results)) {
		master_log_done(m);
		if (master_more_loops(m)) { /* requests wait for the next loop */
			m->gate_open = 0;
			m->loop_ready = 0;
			master_queue_held(m);
			master_auto_next_loop(m);
		}
		pthread_cond_broadcast(&m->cond);
	}
}

int master_next_loop(struct master *m, const struct dls_param *given, int ngiven, char *why)
{
	uint64_t ticket = 0;
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = master_begin_loop(m, given, ngiven, why);
	if (!rc) {
		ticket = master_log_loop(m);
		serve_queue_wake_head(&m->queue); /* the gate may open at once */
		pthread_cond_broadcast(&m->cond);
	}
	pthread_mutex_unlock(&m->lock);
	master_journal_wait(m, ticket);
	return rc;
}

void master_end_loops(struct master *m)
{
	pthread_mutex_lock(&m->lock);
	if (m->cfg.loops > (int)m->loop + 1) {
		m->cfg.loops = (int)m->loop + 1;
		if (m->results.done && !m->loop_ready) {
			m->loop_ready = 1;
			m->gate_open = 1; /* the waiting requests are told DONE */
		}
		serve_queue_wake_all(&m->queue);
		pthread_cond_broadcast(&m->cond);
	}
	pthread_mutex_unlock(&m->lock);
}

void master_auto_next_loop(struct master *m)
{
	char why[MASTER_WHY_LEN];

	if (!m->cfg.auto_loops || m->replaying || m->has_finished || !m->results.done ||
	    !master_more_loops(m))
		return;
	if (master_begin_loop(m, NULL, 0, why)) {
		log_err("cannot start loop %u: %s", m->loop + 1, why);
		return;
	}
	m->loop_unlogged = 1; /* journaled after the results that ended the loop before */
	serve_queue_wake_head(&m->queue);
	pthread_cond_broadcast(&m->cond);
}

uint64_t master_log_pending_loop(struct master *m)
{
	if (!m->loop_unlogged)
		return 0;
	m->loop_unlogged = 0;
	return master_log_loop(m);
}

/* A loop's results wait for the driver: kept aside, or the current ones
 * with every result in.  The lock is held. */
static int loop_results_ready(const struct master *m)
{
	return m->has_finished || m->results.done;
}

int master_wait_loop_done(struct master *m, int timeout_ms)
{
	double deadline = dls_now() + timeout_ms / 1000.0;
	int rc = DLS_OK;

	pthread_mutex_lock(&m->lock);
	while (!loop_results_ready(m))
		if (m->gate.closing ||
		    (dls_cond_wait_until(&m->cond, &m->lock, deadline) && dls_now() >= deadline)) {
			rc = loop_results_ready(m) ? DLS_OK : DLS_ETIMEDOUT;
			break;
		}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

const struct result_store *master_loop_results(struct master *m)
{
	const struct result_store *rs;

	pthread_mutex_lock(&m->lock);
	rs = m->has_finished ? &m->finished : &m->results;
	pthread_mutex_unlock(&m->lock);
	return rs;
}

int master_loop_consumed(struct master *m)
{
	uint64_t ticket = 0;
	int more;

	pthread_mutex_lock(&m->lock);
	if (m->has_finished) {
		result_store_free(&m->finished);
		m->has_finished = 0;
		/* the loop after it ended meanwhile and waits for its start */
		master_auto_next_loop(m);
		ticket = master_log_pending_loop(m);
		more = 1;
	} else {
		more = master_more_loops(m);
	}
	pthread_mutex_unlock(&m->lock);
	master_journal_wait(m, ticket);
	return more;
}

double master_clock_lead_of(const struct master *m, const struct result_store *rs)
{
	double lead = rs->t_start - m->closed_at;

	return m->closed_at > 0 && rs->started && lead > 0 ? lead : 0;
}
