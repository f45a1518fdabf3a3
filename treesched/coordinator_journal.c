/*
 * coordinator_journal.c - how a coordinator journals its run and how a
 * resumed one replays it (PROTOCOL.md 15); the events are
 * coordinator_log.c's.
 *
 * Replaying them through the entry points the live coordinator uses
 * (coordinator_report, coordinator_migrated, coordinator_lost, ...)
 * rebuilds the chain, who holds which iteration, the results and the
 * figures of Table 2 exactly: the coordinator's state depends only on the
 * calls it accepted, in the order it accepted them.  The slaves' references
 * come from the journal too, so the resumed coordinator watches and calls
 * them at once; a repair the dead one decided (a loss) but had not
 * recorded as carried out is carried out again (a duplicate transfer only
 * costs a recomputation: the second copy of a result is skipped).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coordinator_internal.h"
#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "journal_json.h"
#include "run_auth.h"
#include "tree_migrate.h"
#include "tree_plan.h"

/* What identifies a coordinator's journal (a master's has no "role"). */
#define ROLE "treesched"

/* --- the run's configuration as JSON ------------------------------------ */

static json_t *pile_json(const struct pile_params *p)
{
	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:i, s:i, s:f, s:f, s:s, s:f, s:f}",
			 "threshold", (json_int_t)p->threshold, "backoff", p->backoff_s,
			 "backoff_max", p->backoff_max_s, "ht", (json_int_t)p->ht, "lt",
			 (json_int_t)p->lt, "ct", (json_int_t)p->ct, "table_size", p->table_size,
			 "nf_max", p->nf_max, "interval", p->interval_s, "nd", p->nd_s, "topology",
			 ripple_topology_name(p->topology), "step", p->step_s, "pass_min",
			 p->pass_min);
}

static int pile_from_json(json_t *o, struct pile_params *p)
{
	json_int_t th, ht, lt, ct;
	const char *topology = "line";

	pile_params_init(p);
	if (!o) /* a journal without a policy: Tree Scheduling */
		return DLS_OK;
	if (json_unpack(o, "{s:I, s:F, s:F, s:I, s:I, s:I, s:i, s:i, s:F, s:F}", "threshold", &th,
			"backoff", &p->backoff_s, "backoff_max", &p->backoff_max_s, "ht", &ht, "lt",
			&lt, "ct", &ct, "table_size", &p->table_size, "nf_max", &p->nf_max,
			"interval", &p->interval_s, "nd", &p->nd_s))
		return DLS_EINVAL;
	json_unpack(o, "{s?s, s?F, s?F}", "topology", &topology, "step", &p->step_s, "pass_min",
		    &p->pass_min);
	if (ripple_topology_parse(topology, &p->topology))
		return DLS_EINVAL;
	p->threshold = th;
	p->ht = ht;
	p->lt = lt;
	p->ct = ct;
	return DLS_OK;
}

static char *config_json(const struct coordinator_config *c)
{
	json_t *o = json_pack(
		"{s:s, s:s, s:s, s:o, s:i, s:i, s:i, s:s, s:s, s:b, s:f, s:s, s:o}", "role", ROLE,
		"run", c->run_name, "workload", c->workload, "params",
		journal_params_json(c->params, c->nparams), "slaves", c->nslaves, "order",
		(int)c->order, "register_timeout_ms", c->register_timeout_ms, "alloc",
		tree_plan_alloc_name(c->alloc), "gamma", tree_migrate_gamma_name(c->gamma),
		"bidirectional", c->bidirectional, "report_interval", c->report_interval, "policy",
		c->policy[0] ? c->policy : "trees", "pile", pile_json(&c->pile));

	if (o && c->loops > 1) /* a run of one loop journals what it always did */
		json_object_set_new(o, "loops", json_integer(c->loops));
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	json_decref(o);
	return text;
}

static int config_from_json(const char *text, struct coordinator_config *c, char *why)
{
	const char *role = NULL, *run, *workload, *alloc, *gamma, *policy = "trees";
	json_t *o = json_loads(text, 0, NULL), *params, *pile = NULL;
	int order, rc = DLS_EINVAL;
	json_error_t e;

	memset(c, 0, sizeof(*c));
	if (o)
		json_unpack(o, "{s?s}", "role", &role);
	if (!o || !role || strcmp(role, ROLE)) {
		why_f(why, "not a Tree Scheduling coordinator's journal (a master's? resume it "
			   "with dls-master --resume)");
		goto out;
	}
	if (json_unpack_ex(o, &e, 0, "{s:s, s:s, s:o, s:i, s:i, s:i, s:s, s:s, s:b, s:F}", "run",
			   &run, "workload", &workload, "params", &params, "slaves", &c->nslaves,
			   "order", &order, "register_timeout_ms", &c->register_timeout_ms,
			   "alloc", &alloc, "gamma", &gamma, "bidirectional", &c->bidirectional,
			   "report_interval", &c->report_interval)) {
		why_f(why, "the journal's configuration: %s", e.text);
		goto out;
	}
	if (journal_copy_str(c->run_name, sizeof(c->run_name), run, "run name", why,
			     COORDINATOR_WHY_LEN) ||
	    journal_copy_str(c->workload, sizeof(c->workload), workload, "workload", why,
			     COORDINATOR_WHY_LEN) ||
	    journal_params_from_json(params, c->params, &c->nparams, why, COORDINATOR_WHY_LEN))
		goto out;
	if (tree_plan_alloc_parse(alloc, &c->alloc) || tree_migrate_gamma_parse(gamma, &c->gamma)) {
		why_f(why, "the journal's allocation '%s' or gamma '%s' is unknown", alloc, gamma);
		goto out;
	}
	json_unpack(o, "{s?s, s?o, s?i}", "policy", &policy, "pile", &pile, "loops", &c->loops);
	if (c->loops < 0 || c->loops > WORK_MAX_LOOPS) {
		why_f(why, "the journal's configuration: %d loops", c->loops);
		goto out;
	}
	if (journal_copy_str(c->policy, sizeof(c->policy), policy, "policy", why,
			     COORDINATOR_WHY_LEN))
		goto out;
	if (pile_from_json(pile, &c->pile)) {
		why_f(why, "the journal's policy parameters are unreadable");
		goto out;
	}
	c->order = order == ITER_ORDER_INTERLEAVED ? ITER_ORDER_INTERLEAVED : ITER_ORDER_NATURAL;
	rc = DLS_OK;
out:
	json_decref(o);
	return rc;
}

int coordinator_journal_config(const char *dir, struct coordinator_config *cfg, char *why)
{
	char *text, scratch[COORDINATOR_WHY_LEN];
	int rc;

	if (!why)
		why = scratch;
	why[0] = '\0';
	rc = journal_read_config(dir, &text, why, COORDINATOR_WHY_LEN);
	if (rc)
		return rc;
	rc = config_from_json(text, cfg, why);
	free(text);
	if (!rc) {
		snprintf(cfg->journal_dir, sizeof(cfg->journal_dir), "%s", dir);
		cfg->resume = 1;
	}
	return rc;
}

/* --- replaying ---------------------------------------------------------- */

struct replay {
	struct coordinator *c;
	double t_end; /* from "done" */
	size_t events;
};

static int bad_event(char *why, size_t len, const char *kind, const char *what)
{
	snprintf(why, len, "journal event '%s': %s", kind, what);
	return DLS_EINVAL;
}

/* The chain event: the roster, then the chain with its journaled keys. */
static int replay_chain(struct coordinator *c, json_t *o, char *why, size_t len)
{
	json_t *names, *speeds, *keys, *peers, *contacts;
	uint64_t *peer_key = NULL;
	double t_start;
	size_t n;
	int rc = DLS_OK;

	if (json_unpack(o, "{s:o, s:o, s:o, s:o, s:o, s:F}", "names", &names, "speeds", &speeds,
			"keys", &keys, "peer_keys", &peers, "contacts", &contacts, "t_start",
			&t_start) ||
	    (n = json_array_size(names)) == 0 || n > (size_t)c->cfg.nslaves ||
	    json_array_size(speeds) != n || json_array_size(keys) != n ||
	    json_array_size(peers) != n || json_array_size(contacts) != n || c->plan)
		return bad_event(why, len, "chain", "malformed, or a second chain");
	peer_key = calloc(n, sizeof(*peer_key));
	if (!peer_key)
		return DLS_ENOMEM;
	for (size_t k = 0; !rc && k < n; k++) {
		const char *name = json_string_value(json_array_get(names, k));
		const char *contact = json_string_value(json_array_get(contacts, k));
		double speed = json_number_value(json_array_get(speeds, k));
		uint64_t key;
		int id;

		if (!name || journal_key_from_json(json_array_get(peers, k), &peer_key[k]) ||
		    journal_key_from_json(json_array_get(keys, k), &key)) {
			rc = bad_event(why, len, "chain", "a name or a key is malformed");
			break;
		}
		rc = roster_add(&c->roster, &name, &speed, 1, NULL, &id, &key, why, len);
		if (!rc && id != (int)k)
			rc = bad_event(why, len, "chain", "ids out of order");
		if (rc)
			break;
		if (journal_key_from_json(json_array_get(keys, k), &c->roster.v[id].key) ||
		    (contact && !(c->contact[id] = strdup(contact))))
			rc = DLS_ENOMEM;
		c->roster.v[id].caller = dls_fingerprint(contact); /* roster_find_again's */
	}
	if (!rc) {
		roster_close_if_due(&c->roster, DLS_NEVER);
		rc = coordinator_build_chain(c, peer_key);
		if (rc)
			snprintf(why, len, "journal event 'chain': cannot build the chain: %s",
				 dls_strerror(rc));
		else
			c->results.t_start = t_start; /* T_p counts from the first start */
	}
	free(peer_key);
	return rc;
}

/* Keeps a replayed repair until its "repaired" comes (or for after the resume). */
static int keep_pending(struct coordinator *c, struct coordinator_repair *rep)
{
	struct coordinator_repair *v;

	if (rep->serial <= 0) {
		coordinator_repair_free(rep);
		return DLS_OK;
	}
	v = realloc(c->pending, (c->npending + 1) * sizeof(*v));
	if (!v) {
		coordinator_repair_free(rep);
		return DLS_ENOMEM;
	}
	c->pending = v;
	c->pending[c->npending++] = *rep;
	return DLS_OK;
}

static void drop_pending(struct coordinator *c, int64_t serial)
{
	for (size_t k = 0; k < c->npending; k++)
		if (c->pending[k].serial == serial) {
			coordinator_repair_free(&c->pending[k]);
			c->pending[k] = c->pending[--c->npending];
			return;
		}
}

/* A slave id of a replayed event, placed in the chain. */
static int event_slave(const struct coordinator *c, json_t *o, const char *field, int *id)
{
	return json_unpack(o, "{s:i}", field, id) || !c->plan || *id < 0 ||
			       *id >= c->plan->npes
		       ? DLS_EINVAL
		       : DLS_OK;
}

static int replay_report(struct coordinator *c, json_t *o, const struct dls_result *blocks,
			 size_t n, char *why, size_t len)
{
	char reason[COORDINATOR_WHY_LEN];
	struct dls_result *mine;
	struct dls_times t;
	json_t *times;
	int id, rc;

	if (event_slave(c, o, "id", &id) || json_unpack(o, "{s:o}", "times", &times) ||
	    journal_times_from_json(times, &t))
		return bad_event(why, len, "report", "malformed");
	/* a report's blocks are of the loop the events before it began */
	mine = malloc((n ? n : 1) * sizeof(*mine));
	if (!mine)
		return DLS_ENOMEM;
	for (size_t b = 0; b < n; b++) {
		mine[b] = blocks[b];
		mine[b].loop = c->loop;
	}
	rc = coordinator_report(c, id, roster_key(&c->roster, id), mine, n, &t, reason);
	free(mine);
	return rc ? bad_event(why, len, "report", reason) : DLS_OK;
}

/* The next loop of a run of many loops began. */
static int replay_loop(struct coordinator *c, json_t *o, char *why, size_t len)
{
	char reason[COORDINATOR_WHY_LEN];
	double t_start;
	int loop;

	if (json_unpack(o, "{s:i, s:F}", "loop", &loop, "t_start", &t_start))
		return bad_event(why, len, "loop", "malformed");
	if (loop != (int)c->loop + 1 || coordinator_next_loop(c, reason))
		return bad_event(why, len, "loop", "not the loop after the one replayed");
	c->results.t_start = t_start;
	return DLS_OK;
}

static int replay_migrated(struct coordinator *c, json_t *o, char *why, size_t len)
{
	char reason[COORDINATOR_WHY_LEN];
	struct coordinator_repair rep;
	json_int_t start, count, stride;
	int from, to;

	if (event_slave(c, o, "from", &from) ||
	    json_unpack(o, "{s:i, s:I, s:I, s:I}", "to", &to, "start", &start, "count", &count,
			"stride", &stride))
		return bad_event(why, len, "migrated", "malformed");
	if (coordinator_migrated(c, from, roster_key(&c->roster, from), to, start, count, stride,
				 &rep, reason)) {
		coordinator_repair_free(&rep);
		return bad_event(why, len, "migrated", reason);
	}
	return keep_pending(c, &rep);
}

static int replay_lost(struct coordinator *c, json_t *o, char *why, size_t len)
{
	struct coordinator_repair rep;
	const char *cause;
	int id;

	if (event_slave(c, o, "id", &id) || json_unpack(o, "{s:s}", "cause", &cause))
		return bad_event(why, len, "lost", "malformed");
	if (coordinator_lost(c, id, cause, &rep))
		return bad_event(why, len, "lost", "the slave was lost twice");
	return keep_pending(c, &rep);
}

static int replay_event(void *ctx, const char *kind, const char *body,
			const struct dls_result *blocks, size_t n, char *why, size_t len)
{
	struct replay *rp = ctx;
	struct coordinator *c = rp->c;
	json_t *o = json_loads(body, 0, NULL);
	json_int_t serial;
	int rc = DLS_OK, id;

	if (!o)
		return bad_event(why, len, kind, "its body is not JSON");
	if (strcmp(kind, "chain") && !c->plan)
		rc = bad_event(why, len, kind, "before the chain");
	else if (!strcmp(kind, "chain"))
		rc = replay_chain(c, o, why, len);
	else if (!strcmp(kind, "report"))
		rc = replay_report(c, o, blocks, n, why, len);
	else if (!strcmp(kind, "migrated"))
		rc = replay_migrated(c, o, why, len);
	else if (!strcmp(kind, "lost"))
		rc = replay_lost(c, o, why, len);
	else if (!strcmp(kind, "loop"))
		rc = replay_loop(c, o, why, len);
	else if (!strcmp(kind, "repaired"))
		if (json_unpack(o, "{s:I}", "serial", &serial))
			rc = bad_event(why, len, kind, "malformed");
		else
			drop_pending(c, serial);
	else if (!strcmp(kind, "dismissed"))
		if (event_slave(c, o, "id", &id))
			rc = bad_event(why, len, kind, "no such slave");
		else
			coordinator_dismissed(c, id);
	else if (!strcmp(kind, "done"))
		rc = json_unpack(o, "{s:F}", "t_end", &rp->t_end) ? bad_event(why, len, kind,
									  "malformed")
								   : DLS_OK;
	else
		rc = bad_event(why, len, kind, "unknown to this program");
	json_decref(o);
	return rc;
}

/* " in loop K of N" for a run of many loops, else "" (one static buffer:
 * the main thread's). */
static const char *loop_of(const struct coordinator *c)
{
	static char text[48];

	if (c->cfg.loops < 2)
		return "";
	snprintf(text, sizeof(text), " in loop %u of %d", (unsigned)c->loop, c->cfg.loops);
	return text;
}

/* Makes a fresh journal (cfg.journal_dir) or, resuming, replays it. */
static int journal_begin(struct coordinator *c, char *why)
{
	struct replay rp = {c, 0, 0};
	char *mine = config_json(&c->cfg);
	double t0 = dls_now();
	int rc;

	if (!mine) {
		why_f(why, "out of memory");
		return DLS_ENOMEM;
	}
	c->replaying = c->cfg.resume;
	rc = journal_start(c->cfg.journal_dir, mine, !c->cfg.journal_os, &c->cfg.journal_key,
			   c->cfg.resume,
			   replay_event, &rp, &rp.events, &c->journal, why, COORDINATOR_WHY_LEN);
	c->replaying = 0;
	free(mine);
	if (rc || !c->cfg.resume)
		return rc;
	if (c->results.done && rp.t_end > 0)
		c->results.t_end = rp.t_end;
	c->resumed_at = dls_now();
	log_warn("resumed run '%s' from '%s'%s: %zu events replayed in %.3f s, %lld of %lld "
		 "iterations delivered, %zu repairs to carry out again%s",
		 c->cfg.run_name, c->cfg.journal_dir, loop_of(c), rp.events, dls_now() - t0,
		 (long long)c->results.ledger.ndelivered,
		 (long long)c->results.work.loop.iterations, c->npending,
		 c->plan ? "" : "; the chain was not built: the slaves register again");
	return DLS_OK;
}

struct coordinator *coordinator_open(const struct coordinator_config *cfg, int *err, char *why)
{
	char scratch[COORDINATOR_WHY_LEN];
	struct coordinator *c;
	int rc;

	if (!why)
		why = scratch;
	c = coordinator_create(cfg, err, why);
	if (!c || !cfg->journal_dir[0])
		return c;
	rc = journal_begin(c, why);
	if (rc) {
		coordinator_destroy(c);
		*err = rc;
		return NULL;
	}
	return c;
}

/* --- after a resume ------------------------------------------------------ */

int coordinator_resumed(const struct coordinator *c)
{
	return c->resumed_at > 0;
}

int coordinator_contact(struct coordinator *c, int id, char *buf, size_t len)
{
	int rc = DLS_ENOENT;

	pthread_mutex_lock(&c->lock);
	if (id >= 0 && id < c->roster.n && c->contact[id] && strlen(c->contact[id]) < len) {
		memcpy(buf, c->contact[id], strlen(c->contact[id]) + 1);
		rc = DLS_OK;
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

int coordinator_take_pending(struct coordinator *c, struct coordinator_repair **reps, size_t *n)
{
	pthread_mutex_lock(&c->lock);
	*reps = c->pending;
	*n = c->npending;
	c->pending = NULL;
	c->npending = 0;
	pthread_mutex_unlock(&c->lock);
	return DLS_OK;
}

void coordinator_repaired(struct coordinator *c, int64_t serial)
{
	coordinator_log_repaired(c, serial);
}

int coordinator_rejoin(struct coordinator *c, int id, uint64_t key, double *vpower, char *why)
{
	int rc;

	pthread_mutex_lock(&c->lock);
	if (!c->plan || id < 0 || id >= c->plan->npes) {
		why_f(why, "unknown slave id %d", id);
		rc = DLS_ENOENT;
	} else {
		rc = roster_check_caller(&c->roster, id, key, why, COORDINATOR_WHY_LEN);
	}
	if (!rc) {
		*vpower = c->roster.v[id].info.vpower;
		log_info("slave %d '%s' rejoined", id, c->roster.v[id].info.name);
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}
