/*
 * master_journal.c - what the master journals (common/journal/journal.h) and how a
 * resumed master replays it (PROTOCOL.md 15).
 *
 * Events, in the order the master's state changed:
 *   register   ids, capabilities, names, speeds (a two-level hmaster: min_leaf)
 *   withdrawn  a child that will not come (dls run saw it exit unregistered)
 *   closed     the roster closed (V_i fixed)
 *   gate       the start gate opened: the scheme's first A_i, T_p's start
 *   message    a request or a merged message: each fresh request's results
 *              (blocks), A_i, times, and the reply it was served
 *   submit     results sent outside a request
 *   lost       a slave declared lost (its undelivered work requeued)
 *   readmitted a slave declared lost called again and was taken back
 *   dismissed  a slave told the run is over
 *   done       the last result arrived (T_p's end)
 *
 * (master_log.c appends them.)  Replaying them through the serving steps
 * the live master uses rebuilds
 * the scheme, the ledger, the requeue, the results and every slave's retry
 * state exactly: a scheme's chunks depend only on the calls it gets, which
 * are replayed in the order they were made.  A replayed chunk that differs
 * from the journaled reply stops the resume (the journal is not this
 * program's, or is damaged).
 */
#include <jansson.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "journal_json.h"
#include "master_internal.h"
#include "work.h"

/* --- the run's configuration as JSON ------------------------------------ */

static json_t *scheme_json(const struct sched_params *p)
{
	return json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:f, s:f, s:i, s:I, s:f, s:f, "
			 "s:i}",
			 "kind", sched_kind_name(p->kind), "profile", (int)p->profile, "css_k",
			 (json_int_t)p->css_k, "gss_k", (json_int_t)p->gss_k, "tss_first",
			 (json_int_t)p->tss_first, "tss_last", (json_int_t)p->tss_last,
			 "alpha_num", (json_int_t)p->alpha_num, "alpha_den",
			 (json_int_t)p->alpha_den, "fac", p->fac, "fac_mu", p->fac_mu,
			 "fac_sigma", p->fac_sigma, "fiss_sigma", p->fiss_sigma, "fiss_x",
			 (json_int_t)p->fiss_x, "fsc_h", p->fsc_h, "fsc_sigma", p->fsc_sigma,
			 "measured_rates", p->measured_rates);
}

/* The journaled part of a configuration, as canonical JSON text (malloc'd). */
static char *config_json(const struct master_config *c)
{
	json_t *o;
	char *text;

	o = json_pack("{s:s, s:s, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:i}", "run", c->run_name,
		      "workload", c->workload, "params",
		      journal_params_json(c->params, c->nparams), "slaves", c->nslaves, "order",
		      (int)c->order, "collect", (int)c->collect, "register_timeout_ms",
		      c->register_timeout_ms, "start_timeout_ms", c->start_timeout_ms, "wait_ms",
		      c->wait_ms, "scheme", scheme_json(&c->sched), "take_back", c->take_back);
	if (o && c->loops > 1) { /* a run of one loop journals what it always did */
		json_object_set_new(o, "loops", json_integer(c->loops));
		json_object_set_new(o, "fresh_loops", json_integer(c->fresh_loops));
	}
	if (o && c->verify > 0) { /* the draw's key: a resume draws the same chunks */
		char key[2 * sizeof(c->verify_key) + 1];

		OPENSSL_buf2hexstr_ex(key, sizeof(key), NULL, c->verify_key, sizeof(c->verify_key),
				      '\0');
		json_object_set_new(o, "verify", json_real(c->verify));
		json_object_set_new(o, "verify_key", json_string(key));
	}
	text = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(o);
	return text;
}

static int copy_str(char *dst, size_t size, const char *src, const char *what, char *why)
{
	return journal_copy_str(dst, size, src, what, why, MASTER_WHY_LEN);
}

static int scheme_from_json(json_t *o, struct sched_params *p, char *why)
{
	const char *kind;
	int profile;
	json_int_t css_k, gss_k, tss_first, tss_last, alpha_num, alpha_den, fiss_x;
	json_error_t e;

	if (json_unpack_ex(o, &e, 0,
			   "{s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:F, s:F, s:i, s:I, s?F, s?F, "
			   "s?i}",
			   "kind", &kind, "profile", &profile, "css_k", &css_k, "gss_k", &gss_k,
			   "tss_first", &tss_first, "tss_last", &tss_last, "alpha_num",
			   &alpha_num, "alpha_den", &alpha_den, "fac", &p->fac, "fac_mu",
			   &p->fac_mu, "fac_sigma", &p->fac_sigma, "fiss_sigma", &p->fiss_sigma,
			   "fiss_x", &fiss_x, "fsc_h", &p->fsc_h, "fsc_sigma", &p->fsc_sigma,
			   "measured_rates", &p->measured_rates)) {
		master_why(why, "the journal's scheme: %s", e.text);
		return DLS_EINVAL;
	}
	if (sched_kind_parse(kind, &p->kind)) {
		master_why(why, "the journal's scheme '%s' is unknown to this program", kind);
		return DLS_EINVAL;
	}
	p->profile = profile == SCHED_PROFILE_TEXT ? SCHED_PROFILE_TEXT : SCHED_PROFILE_TABLE;
	p->css_k = css_k;
	p->gss_k = gss_k;
	p->tss_first = tss_first;
	p->tss_last = tss_last;
	p->alpha_num = alpha_num;
	p->alpha_den = alpha_den;
	p->fiss_x = fiss_x;
	return DLS_OK;
}

/* --verify's fraction and draw key, when the configuration has them. */
static int verify_from_json(json_t *o, struct master_config *c, char *why)
{
	const char *key = json_string_value(json_object_get(o, "verify_key"));
	json_t *f = json_object_get(o, "verify");
	size_t got = 0;

	if (!f && !key)
		return DLS_OK;
	c->verify = json_is_number(f) ? json_number_value(f) : -1;
	if (!key || !(c->verify > 0) || c->verify > 1 ||
	    !OPENSSL_hexstr2buf_ex(c->verify_key, sizeof(c->verify_key), &got, key, '\0') ||
	    got != sizeof(c->verify_key)) {
		master_why(why, "the journal's configuration: a bad verify fraction or key");
		return DLS_EINVAL;
	}
	c->verify_key_set = 1;
	return DLS_OK;
}

static int config_from_json(const char *text, struct master_config *c, char *why)
{
	const char *run, *workload;
	json_t *o = json_loads(text, 0, NULL), *params, *scheme;
	int order, collect, rc = DLS_EINVAL;
	json_error_t e;

	memset(c, 0, sizeof(*c));
	sched_params_init(&c->sched);
	if (json_object_get(o, "role")) { /* coordinator_journal.c's */
		master_why(why, "a Tree Scheduling coordinator's journal: resume it with "
				"dls-treesched --resume");
		goto out;
	}
	if (!o ||
	    json_unpack_ex(o, &e, 0, "{s:s, s:s, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s?i}",
			   "run", &run, "workload", &workload, "params", &params, "slaves",
			   &c->nslaves, "order", &order, "collect", &collect,
			   "register_timeout_ms", &c->register_timeout_ms, "start_timeout_ms",
			   &c->start_timeout_ms, "wait_ms", &c->wait_ms, "scheme", &scheme,
			   "take_back", &c->take_back)) {
		master_why(why, "the journal's configuration: %s", o ? e.text : "not JSON");
		goto out;
	}
	if (copy_str(c->run_name, sizeof(c->run_name), run, "run name", why) ||
	    copy_str(c->workload, sizeof(c->workload), workload, "workload", why) ||
	    scheme_from_json(scheme, &c->sched, why))
		goto out;
	if (journal_params_from_json(params, c->params, &c->nparams, why, MASTER_WHY_LEN))
		goto out;
	c->order = order == ITER_ORDER_INTERLEAVED ? ITER_ORDER_INTERLEAVED : ITER_ORDER_NATURAL;
	c->collect = collect == DLS_COLLECT_END ? DLS_COLLECT_END : DLS_COLLECT_PIGGYBACK;
	c->loops = (int)json_integer_value(json_object_get(o, "loops"));
	c->fresh_loops = (int)json_integer_value(json_object_get(o, "fresh_loops"));
	if (c->loops < 0 || c->loops > WORK_MAX_LOOPS) {
		master_why(why, "the journal's configuration: %d loops", c->loops);
		goto out;
	}
	if (verify_from_json(o, c, why))
		goto out;
	rc = DLS_OK;
out:
	json_decref(o);
	return rc;
}

int master_journal_config(const char *dir, struct master_config *cfg, char *why)
{
	char *text, scratch[MASTER_WHY_LEN];
	int rc;

	if (!why)
		why = scratch;
	why[0] = '\0';
	rc = journal_read_config(dir, &text, why, MASTER_WHY_LEN);
	if (rc)
		return rc;
	rc = config_from_json(text, cfg, why);
	free(text);
	if (!rc) {
		snprintf(cfg->journal_dir, sizeof(cfg->journal_dir), "%s", dir);
		cfg->resume = 1;
		/* not journaled: the default (zero refused every second request
		 * that overtook its predecessor, all through a resumed run) */
		cfg->early_wait_ms = MASTER_EARLY_WAIT_MS;
	}
	return rc;
}

/* --- replaying ---------------------------------------------------------- */

struct replay {
	struct master *m;
	double t_end; /* from "done": T_p's end */
	size_t events;
};

static int bad_event(char *why, size_t len, const char *kind, const char *what)
{
	snprintf(why, len, "journal event '%s': %s", kind, what);
	return DLS_EINVAL;
}

/* A child id of a journaled event: registered, else the journal is not ours. */
static int event_child(struct master *m, json_t *o, int *id)
{
	if (json_unpack(o, "{s:i}", "id", id) || *id < 0 || *id >= m->roster.n)
		return DLS_EINVAL;
	return DLS_OK;
}

static int replay_register(struct master *m, json_t *o, char *why, size_t len)
{
	json_t *ids, *keys, *names, *speeds, *min_leaf, *caller_json;
	const char *nm[MASTER_MAX_SLAVES];
	double sp[MASTER_MAX_SLAVES], min;
	int got[MASTER_MAX_SLAVES];
	uint64_t issued[MASTER_MAX_SLAVES], caller = 0;
	size_t n;

	if (json_unpack(o, "{s:o, s:o, s:o, s:o, s:o}", "ids", &ids, "keys", &keys, "names",
			&names, "speeds", &speeds, "min_leaf", &min_leaf) ||
	    (n = json_array_size(ids)) == 0 || n > MASTER_MAX_SLAVES ||
	    json_array_size(keys) != n || json_array_size(names) != n ||
	    json_array_size(speeds) != n)
		return bad_event(why, len, "register", "malformed");
	/* who registered them (absent in the journals of versions before it) */
	caller_json = json_object_get(o, "caller");
	if (caller_json && journal_key_from_json(caller_json, &caller))
		return bad_event(why, len, "register", "a bad caller");
	for (size_t k = 0; k < n; k++) {
		nm[k] = json_string_value(json_array_get(names, k));
		sp[k] = json_number_value(json_array_get(speeds, k));
		if (!nm[k])
			return bad_event(why, len, "register", "a name is not a string");
	}
	min = json_number_value(min_leaf);
	if (roster_add(&m->roster, nm, sp, n, json_is_null(min_leaf) ? NULL : &min, got, issued,
		       why, len))
		return DLS_EINVAL;
	for (size_t k = 0; k < n; k++) {
		if (got[k] != json_integer_value(json_array_get(ids, k)) ||
		    journal_key_from_json(json_array_get(keys, k), &m->roster.v[got[k]].key))
			return bad_event(why, len, "register", "ids out of order, or a bad key");
		m->children[got[k]].serve.may_prefetch = !json_is_null(min_leaf);
		m->roster.v[got[k]].caller = caller;
	}
	return DLS_OK;
}

/* A later loop's gate: the chunk times the scheme learnt as it began
 * (absent: none), handed to the children as if their requests brought
 * them, for the gate's learning to apply. */
static int learnt_of(struct master *m, json_t *l)
{
	size_t k;
	json_t *e;

	json_array_foreach(l, k, e) {
		json_int_t start, count;
		double compute, elapsed;
		struct master_child *ch;
		int id;

		if (json_unpack(e, "[i, I, I, F, F]", &id, &start, &count, &compute, &elapsed) ||
		    id < 0 || id >= m->roster.n ||
		    m->children[id].nmeasured >= DLS_MAX_MEASURED)
			return DLS_EINVAL;
		ch = &m->children[id];
		ch->measured[ch->nmeasured++] = (struct dls_chunk_time){start, count, compute,
									 elapsed};
	}
	return DLS_OK;
}

static int replay_gate(struct master *m, json_t *o, char *why, size_t len)
{
	json_t *a;
	double t_start;
	int64_t *acp;
	int rc;

	if (json_unpack(o, "{s:o, s:F}", "acp", &a, "t_start", &t_start) ||
	    json_array_size(a) != (size_t)m->cfg.nslaves || m->gate_open)
		return bad_event(why, len, "gate", "malformed, or a second gate");
	if (learnt_of(m, json_object_get(o, "learnt")))
		return bad_event(why, len, "gate", "malformed learnt chunk times");
	acp = calloc((size_t)m->cfg.nslaves, sizeof(*acp));
	if (!acp)
		return DLS_ENOMEM;
	for (int i = 0; i < m->cfg.nslaves; i++)
		acp[i] = json_integer_value(json_array_get(a, (size_t)i));
	roster_close_if_due(&m->roster, DLS_NEVER);
	rc = master_open_gate_with(m, acp);
	free(acp);
	if (rc)
		return bad_event(why, len, "gate", "the scheme refused its first A_i");
	m->results.t_start = t_start; /* T_p counts from the first start */
	return DLS_OK;
}

/* The chunk times a journaled request reported, into measured (at most
 * DLS_MAX_MEASURED; none when the event has no "measured"). */
static int measured_of(json_t *e, struct dls_chunk_time *measured, struct dls_request *r)
{
	json_t *a = json_object_get(e, "measured"), *t;
	size_t k;

	if (!a)
		return DLS_OK;
	if (!json_is_array(a) || json_array_size(a) > DLS_MAX_MEASURED)
		return DLS_EINVAL;
	json_array_foreach(a, k, t) {
		json_int_t start, count;

		if (json_unpack(t, "[I, I, F, F]", &start, &count, &measured[k].compute_s,
				&measured[k].elapsed_s))
			return DLS_EINVAL;
		measured[k].start = start;
		measured[k].count = count;
	}
	r->measured = measured;
	r->nmeasured = json_array_size(a);
	return DLS_OK;
}

/* One journaled request, as the master received it (its chunk times into
 * measured, which must outlive the request's use). */
static int request_of(struct master *m, json_t *e, const struct dls_result *blocks, size_t nb,
		      size_t *used, struct dls_request *r, json_t **reply,
		      struct dls_chunk_time *measured)
{
	json_int_t seq, acp, nres;
	json_t *t;

	memset(r, 0, sizeof(*r));
	*reply = json_object_get(e, "reply");
	if (json_unpack(e, "{s:i, s:I, s:I, s:o, s:I}", "id", &r->slave_id, "seq", &seq, "acp",
			&acp, "times", &t, "nresults", &nres) ||
	    r->slave_id < 0 || r->slave_id >= m->roster.n || nres < 0 ||
	    (size_t)nres > nb - *used ||
	    journal_times_from_json(t, &r->times) || measured_of(e, measured, r))
		return DLS_EINVAL;
	r->key = m->roster.v[r->slave_id].key;
	r->seq = (uint32_t)seq;
	r->acp = acp;
	r->results = nres ? blocks + *used : NULL;
	r->nresults = (size_t)nres;
	*used += (size_t)nres;
	return DLS_OK;
}

/* Serves a replayed request again and checks the reply is the journal's. */
static int reserve(struct master *m, const struct dls_request *r, int reported, json_t *reply,
		   char *why, size_t len)
{
	struct dls_reply out;
	int kind, wait_ms;
	json_int_t start, count;

	if (json_unpack(reply, "[i, I, I, i]", &kind, &start, &count, &wait_ms))
		return bad_event(why, len, "message", "a reply is malformed");
	if (master_serve_one(m, r->slave_id, r->acp, reported, &out, why))
		return DLS_EINVAL;
	if ((kind == DLS_REPLY_WORK) != (out.kind == DLS_REPLY_WORK) ||
	    (kind == DLS_REPLY_WORK && (out.start != start || out.count != count))) {
		snprintf(why, len,
			 "journal event 'message': slave %d was given [%lld, +%lld) kind %d, the "
			 "replay gives [%lld, +%lld) kind %d: not this program's journal",
			 r->slave_id, (long long)start, (long long)count, kind,
			 (long long)out.start, (long long)out.count, (int)out.kind);
		return DLS_EINVAL;
	}
	if (kind != DLS_REPLY_WORK) { /* WAIT or DONE as it was (results came in
					 live before they were journaled) */
		out.kind = kind == DLS_REPLY_DONE ? DLS_REPLY_DONE : DLS_REPLY_WAIT;
		out.wait_ms = wait_ms;
		m->roster.v[r->slave_id].info.state =
			kind == DLS_REPLY_DONE ? DLS_SLAVE_DONE : DLS_SLAVE_WAITING;
	}
	master_remember(m, r, &out);
	return DLS_OK;
}

/* The requests of one message, replayed as they were served. */
static int replay_requests(struct master *m, json_t *reqs, int reported, struct dls_request *r,
			   json_t **replies, const struct dls_result *blocks, size_t nb, char *why,
			   size_t len)
{
	size_t n = json_array_size(reqs), used = 0;
	struct dls_chunk_time measured[DLS_MAX_MEASURED];

	for (size_t k = 0; k < n; k++) {
		if (request_of(m, json_array_get(reqs, k), blocks, nb, &used, &r[k], &replies[k],
			       measured))
			return bad_event(why, len, "message", "a request is malformed");
		if (master_check_results(m, r[k].slave_id, r[k].results, r[k].nresults, why))
			return DLS_EINVAL;
		master_record_request(m, &r[k]); /* copies the measured chunks */
		r[k].measured = NULL;
		r[k].nmeasured = 0;
	}
	if (used != nb)
		return bad_event(why, len, "message", "blocks that no request carries");
	if (reported && m->sched)
		for (size_t k = 0; k < n; k++)
			sched_report(m->sched, r[k].slave_id, r[k].acp);
	for (size_t k = 0; k < n; k++)
		if (replies[k] && reserve(m, &r[k], reported, replies[k], why, len))
			return DLS_EINVAL;
	return DLS_OK;
}

static int replay_message(struct master *m, json_t *o, const struct dls_result *blocks, size_t nb,
			  char *why, size_t len)
{
	struct dls_request *r;
	json_t *reqs, **replies;
	int reported, rc;
	size_t n;

	if (json_unpack(o, "{s:b, s:o}", "reported", &reported, "requests", &reqs) ||
	    (n = json_array_size(reqs)) == 0 || n > MASTER_MAX_SLAVES)
		return bad_event(why, len, "message", "malformed");
	r = calloc(n, sizeof(*r));
	replies = calloc(n, sizeof(*replies));
	rc = r && replies ? replay_requests(m, reqs, reported, r, replies, blocks, nb, why, len)
			  : DLS_ENOMEM;
	free(r);
	free(replies);
	return rc;
}

/* A request held at the end of a loop was served again: the same reply. */
static int replay_held(struct master *m, json_t *o, char *why, size_t len)
{
	struct dls_request r;
	struct dls_reply out;
	char scratch[MASTER_WHY_LEN];
	json_int_t seq, acp, start, count;
	int id, kind, wait_ms;

	memset(&r, 0, sizeof(r));
	if (event_child(m, o, &id) ||
	    json_unpack(o, "{s:I, s:I, s:[i, I, I, i]}", "seq", &seq, "acp", &acp, "reply", &kind,
			&start, &count, &wait_ms))
		return bad_event(why, len, "held", "malformed");
	r.slave_id = id;
	r.seq = (uint32_t)seq;
	r.acp = acp;
	if (master_serve_one(m, id, acp, 0, &out, scratch) || (int)out.kind != kind ||
	    (kind == DLS_REPLY_WORK && (out.start != start || out.count != count)))
		return bad_event(why, len, "held",
				 "the replay serves it otherwise: not this program's journal");
	master_remember_again(m, &r, &out);
	return DLS_OK;
}

/* The run's next loop began, with these parameters. */
static int replay_loop(struct master *m, json_t *o, char *why, size_t len)
{
	struct dls_param params[DLS_MAX_PARAMS];
	char scratch[MASTER_WHY_LEN];
	json_t *a;
	int loop, n;

	if (json_unpack(o, "{s:i, s:o}", "loop", &loop, "params", &a) ||
	    journal_params_from_json(a, params, &n, scratch, sizeof(scratch)))
		return bad_event(why, len, "loop", "malformed");
	if (loop != (int)m->loop + 1 || master_begin_loop(m, params, n, scratch))
		return bad_event(why, len, "loop", "not the loop after the one replayed");
	return DLS_OK;
}

static int replay_event(void *ctx, const char *kind, const char *body,
			const struct dls_result *blocks, size_t n, char *why, size_t len)
{
	struct replay *rp = ctx;
	struct master *m = rp->m;
	json_t *o = json_loads(body, 0, NULL);
	const char *cause;
	int rc = DLS_OK, id;

	if (!o)
		return bad_event(why, len, kind, "its body is not JSON");
	if (!strcmp(kind, "register")) {
		rc = replay_register(m, o, why, len);
	} else if (!strcmp(kind, "withdrawn")) {
		const char *name;
		char scratch[MASTER_WHY_LEN];

		if (json_unpack(o, "{s:s}", "name", &name))
			rc = bad_event(why, len, kind, "malformed");
		else if (roster_withdraw(&m->roster, name, scratch, sizeof(scratch)))
			rc = bad_event(why, len, kind, scratch);
	} else if (!strcmp(kind, "closed")) {
		roster_close_if_due(&m->roster, DLS_NEVER);
	} else if (!strcmp(kind, "gate")) {
		rc = replay_gate(m, o, why, len);
	} else if (!strcmp(kind, "message")) {
		rc = replay_message(m, o, blocks, n, why, len);
	} else if (!strcmp(kind, "submit")) {
		if (event_child(m, o, &id))
			rc = bad_event(why, len, kind, "no such slave");
		else if (!(rc = master_check_results(m, id, blocks, n, why)))
			master_apply_results(m, id, blocks, n);
	} else if (!strcmp(kind, "lost")) {
		if (event_child(m, o, &id) || json_unpack(o, "{s:s}", "cause", &cause))
			rc = bad_event(why, len, kind, "malformed");
		else if (roster_alive(&m->roster, id))
			master_release_lost(m, id, cause);
	} else if (!strcmp(kind, "readmitted")) {
		if (event_child(m, o, &id))
			rc = bad_event(why, len, kind, "no such slave");
		else if (m->roster.v[id].info.state == DLS_SLAVE_LOST)
			master_readmit(m, id);
	} else if (!strcmp(kind, "dismissed")) {
		if (event_child(m, o, &id))
			rc = bad_event(why, len, kind, "no such slave");
		else if (roster_alive(&m->roster, id))
			m->roster.v[id].info.state = DLS_SLAVE_DONE;
	} else if (!strcmp(kind, "takeback")) {
		json_int_t start, end;

		if (event_child(m, o, &id) ||
		    json_unpack(o, "{s:I, s:I}", "start", &start, "end", &end))
			rc = bad_event(why, len, kind, "malformed");
		else if (master_cut_tail(m, id, start, end))
			rc = bad_event(why, len, kind, "a tail its holder does not hold undelivered");
	} else if (!strcmp(kind, "held")) {
		rc = replay_held(m, o, why, len);
	} else if (!strcmp(kind, "loop")) {
		rc = replay_loop(m, o, why, len);
	} else if (!strcmp(kind, "done")) {
		if (json_unpack(o, "{s:F}", "t_end", &rp->t_end))
			rc = bad_event(why, len, kind, "malformed");
	} else {
		rc = bad_event(why, len, kind, "unknown to this program");
	}
	json_decref(o);
	return rc;
}

/* "K of N" for the log (one static buffer: the main thread's). */
static const char *loop_of(const struct master *m)
{
	static char text[32];

	snprintf(text, sizeof(text), "%u of %d", (unsigned)m->loop, m->cfg.loops);
	return text;
}

/* Hands every iteration delivered so far to the store's sink again. */
static void hand_again(const struct result_store *rs)
{
	size_t rb = rs->work.loop.result_bytes;

	for (int64_t i = 0; i < rs->work.loop.iterations; i++)
		if (rs->ledger.state[i] == 1) {
			int64_t x = iter_order_column(&rs->work.order, i);

			rs->sink(rs->sink_ctx, rs->loop, x, rs->data + (size_t)x * rb, rb);
		}
}

/* Makes a fresh journal (cfg.journal_dir) or, resuming, replays it. */
static int journal_begin(struct master *m, char *why)
{
	result_sink_fn sink;
	struct replay rp = {m, 0, 0};
	char *mine = config_json(&m->cfg);
	double t0 = dls_now();
	int rc;

	if (!mine) {
		master_why(why, "out of memory");
		return DLS_ENOMEM;
	}
	m->replaying = m->cfg.resume;
	/* a run of many loops: the loops before the current one are done, the
	 * program had their results; it gets the current loop's after the
	 * replay */
	sink = m->results.sink;
	if (m->cfg.resume && m->cfg.loops > 1)
		m->results.sink = NULL;
	rc = journal_start(m->cfg.journal_dir, mine, !m->cfg.journal_os, &m->cfg.journal_key,
			   m->cfg.resume,
			   replay_event, &rp, &rp.events, &m->journal, why, MASTER_WHY_LEN);
	m->replaying = 0;
	free(mine);
	if (rc || !m->cfg.resume)
		return rc;
	if (sink && !m->results.sink) {
		m->results.sink = sink;
		hand_again(&m->results);
	}
	if (m->results.done && rp.t_end > 0)
		m->results.t_end = rp.t_end;
	m->resumed_at = dls_now();
	if (m->roster.closed && !m->gate_open) /* the first requests come again */
		m->gate_deadline = m->resumed_at + m->cfg.start_timeout_ms / 1000.0;
	for (int i = 0; i < m->roster.n; i++) {
		m->children[i].rejoined = 0; /* their references died with the old master */
		m->children[i].owed_done = m->roster.v[i].info.state == DLS_SLAVE_DONE;
	}
	log_warn("resumed run '%s' from '%s': %zu events replayed in %.3f s, %lld of %lld "
		 "iterations delivered%s%s, %d slaves to rejoin",
		 m->cfg.run_name, m->cfg.journal_dir, rp.events, dls_now() - t0,
		 (long long)m->results.ledger.ndelivered,
		 (long long)m->results.work.loop.iterations, m->cfg.loops > 1 ? " in loop " : "",
		 m->cfg.loops > 1 ? loop_of(m) : "", m->roster.n);
	return DLS_OK;
}

struct master *master_open(const struct master_config *cfg, int *err, char *why)
{
	char scratch[MASTER_WHY_LEN];
	struct master *m;
	int rc;

	if (!why)
		why = scratch;
	m = master_create(cfg, err, why);
	if (!m || !cfg->journal_dir[0])
		return m;
	rc = journal_begin(m, why);
	if (rc) {
		master_destroy(m);
		*err = rc;
		return NULL;
	}
	return m;
}

/* --- rejoining ---------------------------------------------------------- */

int master_rejoin(struct master *m, int slave_id, uint64_t key, double *vpower, char *why)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = master_admit_caller(m, slave_id, key, why); /* lost: taken back */
	if (!rc) {
		m->children[slave_id].rejoined = 1;
		*vpower = m->roster.v[slave_id].info.vpower;
		log_info("slave %d '%s' rejoined", slave_id, m->roster.v[slave_id].info.name);
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_awaiting_rejoin(struct master *m, int slave_id)
{
	int waiting;

	pthread_mutex_lock(&m->lock);
	waiting = m->resumed_at > 0 && slave_id >= 0 && slave_id < m->roster.n &&
		  !m->children[slave_id].rejoined &&
		  dls_now() < m->resumed_at + m->cfg.rejoin_ms / 1000.0;
	pthread_mutex_unlock(&m->lock);
	return waiting;
}

int master_resumed(const struct master *m)
{
	return m->resumed_at > 0;
}
