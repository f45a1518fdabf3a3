/*
 * master_log.c - the master's events, appended to its journal (common/
 * journal.h) as its state changes; master_journal.c reads them back.  The
 * events and their JSON bodies are PROTOCOL.md 15's.  Called with the
 * master's lock held, except master_journal_wait.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls_log.h"
#include "journal_json.h"
#include "master_internal.h"

static int logging(const struct master *m)
{
	return m->journal && !m->replaying;
}

static uint64_t append(struct master *m, const char *kind, json_t *body,
		       const struct dls_result *blocks, size_t n)
{
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;

	json_decref(body);
	return journal_append(m->journal, kind, text, blocks, n);
}

uint64_t master_log_register(struct master *m, uint64_t caller, const char *const *names,
			     const double *speeds, size_t n, const double *min_leaf, const int *ids,
			     const uint64_t *keys)
{
	json_t *a_ids, *a_keys, *a_names, *a_speeds;

	if (!logging(m))
		return 0;
	a_ids = json_array();
	a_keys = json_array();
	a_names = json_array();
	a_speeds = json_array();
	for (size_t k = 0; k < n; k++) {
		json_array_append_new(a_ids, json_integer(ids[k]));
		json_array_append_new(a_keys, journal_key_json(keys[k]));
		json_array_append_new(a_names, json_string(names[k]));
		json_array_append_new(a_speeds, json_real(speeds[k]));
	}
	return append(m, "register",
		      json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "ids", a_ids, "keys", a_keys,
				"names", a_names, "speeds", a_speeds, "min_leaf",
				min_leaf ? json_real(*min_leaf) : json_null(), "caller",
				journal_key_json(caller)),
		      NULL, 0);
}

void master_log_closed(struct master *m)
{
	if (logging(m))
		append(m, "closed", NULL, NULL, 0);
}

void master_log_gate(struct master *m, const int64_t *acp)
{
	json_t *a, *body;

	if (!logging(m))
		return;
	a = json_array();
	for (int i = 0; i < m->cfg.nslaves; i++)
		json_array_append_new(a, json_integer(acp[i]));
	body = json_pack("{s:o, s:f}", "acp", a, "t_start", m->results.t_start);
	if (m->loop > 0) { /* what the scheme learnt as the loop began */
		json_t *l = json_array();

		for (int i = 0; i < m->roster.n; i++)
			for (int j = 0; j < m->children[i].napplied; j++) {
				const struct dls_chunk_time *c = &m->children[i].applied[j];

				if (isfinite(c->compute_s) && isfinite(c->elapsed_s))
					json_array_append_new(
					    l, json_pack("[i, I, I, f, f]", i, (json_int_t)c->start,
							 (json_int_t)c->count, c->compute_s,
							 c->elapsed_s));
			}
		json_object_set_new(body, "learnt", l);
	}
	append(m, "gate", body, NULL, 0);
}

uint64_t master_log_message(struct master *m, const struct dls_request *reqs, const int *fresh,
			    size_t n, const struct dls_reply *replies, int reported,
			    size_t served)
{
	struct dls_result *blocks;
	size_t nblocks = 0;
	uint64_t ticket;
	json_t *a;

	if (!logging(m))
		return 0;
	for (size_t k = 0; k < n; k++)
		nblocks += fresh[k] ? reqs[k].nresults : 0;
	blocks = malloc((nblocks ? nblocks : 1) * sizeof(*blocks));
	if (!blocks) {
		log_err("journal: out of memory for a message of %zu blocks", nblocks);
		return 0;
	}
	nblocks = 0;
	a = json_array();
	for (size_t k = 0; k < n; k++) {
		const struct dls_request *r = &reqs[k];
		json_t *e;

		if (!fresh[k])
			continue;
		e = json_pack("{s:i, s:I, s:I, s:o, s:I}", "id", r->slave_id, "seq",
			      (json_int_t)r->seq, "acp", (json_int_t)r->acp, "times",
			      journal_times_json(&r->times), "nresults", (json_int_t)r->nresults);
		if (k < served && m->children[r->slave_id].napplied) {
			const struct master_child *ch = &m->children[r->slave_id];
			json_t *ms = json_array();

			/* what the scheme learnt (slow_to_seen applied); a time
			 * that is not finite teaches nothing (and JSON cannot
			 * hold it): not journaled */
			for (int j = 0; j < ch->napplied; j++) {
				const struct dls_chunk_time *c = &ch->applied[j];

				if (isfinite(c->compute_s) && isfinite(c->elapsed_s))
					json_array_append_new(
						ms, json_pack("[I, I, f, f]", (json_int_t)c->start,
							      (json_int_t)c->count, c->compute_s,
							      c->elapsed_s));
			}
			json_object_set_new(e, "measured", ms);
		}
		if (k < served)
			json_object_set_new(e, "reply",
					    json_pack("[i, I, I, i]", (int)replies[k].kind,
						      (json_int_t)replies[k].start,
						      (json_int_t)replies[k].count,
						      replies[k].wait_ms));
		json_array_append_new(a, e);
		if (r->nresults) /* a first request carries none (and may carry NULL) */
			memcpy(blocks + nblocks, r->results, r->nresults * sizeof(*blocks));
		nblocks += r->nresults;
	}
	ticket = append(m, "message", json_pack("{s:b, s:o}", "reported", reported, "requests", a),
			blocks, nblocks);
	free(blocks);
	return ticket;
}

uint64_t master_log_submit(struct master *m, int id, const struct dls_result *res, size_t n)
{
	if (!logging(m) || !n)
		return 0;
	return append(m, "submit", json_pack("{s:i}", "id", id), res, n);
}

void master_log_lost(struct master *m, int id, const char *cause)
{
	if (logging(m))
		append(m, "lost", json_pack("{s:i, s:s}", "id", id, "cause", cause), NULL, 0);
}

uint64_t master_log_withdrawn(struct master *m, const char *name)
{
	if (!logging(m))
		return 0;
	return append(m, "withdrawn", json_pack("{s:s}", "name", name), NULL, 0);
}

void master_log_readmitted(struct master *m, int id)
{
	if (logging(m))
		append(m, "readmitted", json_pack("{s:i}", "id", id), NULL, 0);
}

void master_log_dismissed(struct master *m, int id)
{
	if (logging(m))
		append(m, "dismissed", json_pack("{s:i}", "id", id), NULL, 0);
}

void master_log_takeback(struct master *m, int holder, int64_t start, int64_t end)
{
	if (logging(m))
		append(m, "takeback",
		       json_pack("{s:i, s:I, s:I}", "id", holder, "start", (json_int_t)start, "end",
				 (json_int_t)end),
		       NULL, 0);
}

void master_log_done(struct master *m)
{
	if (logging(m))
		append(m, "done", json_pack("{s:f}", "t_end", m->results.t_end), NULL, 0);
}

uint64_t master_log_loop(struct master *m)
{
	if (!logging(m))
		return 0;
	return append(m, "loop",
		      json_pack("{s:i, s:o}", "loop", (int)m->loop, "params",
				journal_params_json(m->loop_params, m->nloop_params)),
		      NULL, 0);
}

uint64_t master_log_held(struct master *m, const struct dls_request *r, const struct dls_reply *out)
{
	if (!logging(m))
		return 0;
	return append(m, "held",
		      json_pack("{s:i, s:I, s:I, s:[i, I, I, i]}", "id", r->slave_id, "seq",
				(json_int_t)r->seq, "acp", (json_int_t)r->acp, "reply",
				(int)out->kind, (json_int_t)out->start, (json_int_t)out->count,
				out->wait_ms),
		      NULL, 0);
}

void master_journal_wait(struct master *m, uint64_t ticket)
{
	journal_wait(m->journal, ticket);
}

