/*
 * journal_testutil.c - a journal's chain of MACs computed again (see
 * journal_testutil.h).
 */
#include "journal_testutil.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* The blocks of event id, their data pointing into a copy (freed by the caller). */
static struct dls_result *event_blocks(sqlite3 *db, int64_t id, size_t *n)
{
	sqlite3_stmt *st = NULL;
	struct dls_result *v = NULL;

	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT start, count, data FROM block WHERE event = ? "
				   "ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t bytes = (size_t)sqlite3_column_bytes(st, 2);
		void *data = malloc(bytes + 1);

		v = realloc(v, (*n + 1) * sizeof(*v));
		memcpy(data, sqlite3_column_blob(st, 2), bytes);
		v[(*n)++] = (struct dls_result){sqlite3_column_int64(st, 0),
						sqlite3_column_int64(st, 1), data, bytes, 0};
	}
	sqlite3_finalize(st);
	return v;
}

int tu_journal_rechain(const char *path, const struct journal_key *key)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL, *up = NULL;
	uint8_t mac[JOURNAL_MAC_LEN];
	int ok = sqlite3_open(path, &db) == SQLITE_OK &&
		 sqlite3_prepare_v2(db, "SELECT format, config FROM run", -1, &st, NULL) ==
			 SQLITE_OK &&
		 sqlite3_step(st) == SQLITE_ROW;

	if (ok) {
		journal_mac_run(key, sqlite3_column_int(st, 0),
				(const char *)sqlite3_column_text(st, 1), mac);
		ok = sqlite3_prepare_v2(db, "UPDATE run SET mac = ?", -1, &up, NULL) == SQLITE_OK &&
		     sqlite3_bind_blob(up, 1, mac, JOURNAL_MAC_LEN, SQLITE_TRANSIENT) ==
			     SQLITE_OK &&
		     sqlite3_step(up) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	st = up = NULL;
	ok = ok &&
	     sqlite3_prepare_v2(db, "SELECT id, kind, body FROM event ORDER BY id", -1, &st,
				NULL) == SQLITE_OK &&
	     sqlite3_prepare_v2(db, "UPDATE event SET mac = ? WHERE id = ?", -1, &up, NULL) ==
		     SQLITE_OK;
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		size_t n;
		struct dls_result *b = event_blocks(db, id, &n);

		journal_mac_event(key, mac, id, (const char *)sqlite3_column_text(st, 1),
				  (const char *)sqlite3_column_text(st, 2), b, n, mac);
		for (size_t i = 0; i < n; i++)
			free((void *)b[i].data);
		free(b);
		sqlite3_reset(up);
		ok = sqlite3_bind_blob(up, 1, mac, JOURNAL_MAC_LEN, SQLITE_TRANSIENT) ==
			     SQLITE_OK &&
		     sqlite3_bind_int64(up, 2, id) == SQLITE_OK && sqlite3_step(up) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(up);
	sqlite3_close(db);
	return ok ? 0 : -1;
}
