/*
 * coordinator_log.c - the coordinator's events, appended to its journal
 * (common/journal/journal.h) as its state changes; coordinator_journal.c reads them
 * back.  The events and their JSON bodies are PROTOCOL.md 15's:
 *
 *   chain      the chain was built: every registered slave's name, speed,
 *              capability, peer key and contact; T_p's start
 *   report     an accepted report: the slave, its times, the result blocks
 *   migrated   an accepted hand-over notice: from, to, start, count, stride
 *   lost       a slave declared lost (its iterations go to a neighbour)
 *   repaired   the repair with this serial was carried out
 *   dismissed  a slave told the run is over
 *   done       the last result of the loop arrived (its T_p's end)
 *   loop       a run of many loops: the next loop began (its number, its
 *              T_p's start), every slave having ended the one before
 *
 * Called with the coordinator's lock held, except coordinator_log_repaired.
 */
#include <jansson.h>
#include <stdlib.h>

#include "coordinator_internal.h"
#include "journal_json.h"

static int logging(const struct coordinator *c)
{
	return c->journal && !c->replaying;
}

static uint64_t append(struct coordinator *c, const char *kind, json_t *body,
		       const struct dls_result *blocks, size_t n)
{
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;

	json_decref(body);
	return journal_append(c->journal, kind, text, blocks, n);
}

uint64_t coordinator_log_chain(struct coordinator *c)
{
	json_t *names, *speeds, *keys, *peers, *contacts;

	if (!logging(c))
		return 0;
	names = json_array();
	speeds = json_array();
	keys = json_array();
	peers = json_array();
	contacts = json_array();
	for (int i = 0; i < c->roster.n; i++) {
		json_array_append_new(names, json_string(c->roster.v[i].info.name));
		json_array_append_new(speeds, json_real(c->roster.v[i].info.speed));
		json_array_append_new(keys, journal_key_json(c->roster.v[i].key));
		json_array_append_new(peers, journal_key_json(c->peer_key[i]));
		json_array_append_new(contacts,
				      c->contact[i] ? json_string(c->contact[i]) : json_null());
	}
	return append(c, "chain",
		      json_pack("{s:o, s:o, s:o, s:o, s:o, s:f}", "names", names, "speeds", speeds,
				"keys", keys, "peer_keys", peers, "contacts", contacts, "t_start",
				c->results.t_start),
		      NULL, 0);
}

uint64_t coordinator_log_report(struct coordinator *c, int id, const struct dls_result *res,
				size_t n, const struct dls_times *times)
{
	if (!logging(c))
		return 0;
	return append(c, "report", json_pack("{s:i, s:o}", "id", id, "times",
					     journal_times_json(times)),
		      res, n);
}

uint64_t coordinator_log_migrated(struct coordinator *c, int from, int to, int64_t start,
				  int64_t count, int64_t stride)
{
	if (!logging(c))
		return 0;
	return append(c, "migrated",
		      json_pack("{s:i, s:i, s:I, s:I, s:I}", "from", from, "to", to, "start",
				(json_int_t)start, "count", (json_int_t)count, "stride",
				(json_int_t)stride),
		      NULL, 0);
}

uint64_t coordinator_log_lost(struct coordinator *c, int id, const char *cause)
{
	if (!logging(c))
		return 0;
	return append(c, "lost", json_pack("{s:i, s:s}", "id", id, "cause", cause), NULL, 0);
}

void coordinator_log_dismissed(struct coordinator *c, int id)
{
	if (logging(c))
		append(c, "dismissed", json_pack("{s:i}", "id", id), NULL, 0);
}

void coordinator_log_done(struct coordinator *c)
{
	if (logging(c))
		append(c, "done", json_pack("{s:f}", "t_end", c->results.t_end), NULL, 0);
}

uint64_t coordinator_log_loop(struct coordinator *c)
{
	if (!logging(c))
		return 0;
	return append(c, "loop",
		      json_pack("{s:i, s:f}", "loop", (int)c->loop, "t_start", c->results.t_start),
		      NULL, 0);
}

void coordinator_log_repaired(struct coordinator *c, int64_t serial)
{
	if (c->journal && serial > 0)
		journal_wait(c->journal,
			     append(c, "repaired", json_pack("{s:I}", "serial", (json_int_t)serial),
				    NULL, 0));
}
