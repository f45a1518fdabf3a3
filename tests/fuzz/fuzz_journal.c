/*
 * fuzz_journal.c - a resumed master replaying a journal it did not write as
 * it is (a damaged disk, a hand that edited journal.db): the fuzzer's bytes
 * choose a run and script hostile and honest calls on a master that
 * journals them (fuzz_run.h), the master "crashes" (destroyed), then the
 * rest of the bytes tamper with the SQLite file (event bodies replaced,
 * their numbers made hostile, events deleted, repeated or renamed, result
 * blocks moved, cut or overwritten), its chain of MACs is computed again
 * (a forger who knows the key), and a new master resumes it.
 *
 * Invariants (a broken one aborts): no crash or sanitizer report; the
 * resume either refuses with a reason or yields a master whose status adds
 * up; and an untouched journal always resumes, with every iteration that
 * was delivered before the crash delivered again.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "fuzz_run.h"
#include "journal_testutil.h"
#include "master.h"
#include "master_testutil.h"

static char dir[64];

/* A fresh folder for this input's journal (in memory where it can be). */
static void fresh_dir(void)
{
	static const char *const files[] = {"journal.db", "journal.db-wal", "journal.db-shm",
					    "journal.lock"};
	char path[128];

	if (!dir[0])
		snprintf(dir, sizeof(dir), "%s/dls-fuzz-journal-%d",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm", (int)getpid());
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
}

/* Runs one SQL statement with up to two bound values (NULL: none). */
static void sql(sqlite3 *db, const char *text, const void *blob, int nblob, int64_t a, int64_t b)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, text, -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_bind_parameter_count(st) >= 1)
		sqlite3_bind_int64(st, 1, a);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, b);
	if (sqlite3_bind_parameter_count(st) >= 3)
		sqlite3_bind_blob(st, 3, blob, nblob, SQLITE_TRANSIENT);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

/* A body: raw input bytes, or the old one with one number made hostile. */
static void new_body(sqlite3 *db, struct fz *f, int64_t ev)
{
	char text[256];
	uint8_t raw[64];
	size_t n = fz_pick(f, sizeof(raw));

	if (fz_u8(f) & 1) {
		fz_bytes(f, raw, n);
		sql(db, "UPDATE event SET body = CAST(?3 AS TEXT) WHERE id = ?1", raw, (int)n, ev, 0);
		return;
	}
	snprintf(text, sizeof(text), "%lld", (long long)fz_i64(f));
	/* replace the first run of digits after the k-th ':' with it */
	sql(db,
	    "UPDATE event SET body = substr(body, 1, instr(body, ':')) || CAST(?3 AS TEXT) || "
	    "substr(body, instr(body, ':') + 1 + ?2) WHERE id = ?1",
	    text, (int)strlen(text), ev, (int64_t)fz_pick(f, 4));
}

/* The rest of the input tampers with the journal; returns how many changes. */
static int tamper(struct fz *f)
{
	char path[128];
	sqlite3 *db;
	int changes = 0;

	snprintf(path, sizeof(path), "%s/journal.db", dir);
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		sqlite3_close(db);
		return 0;
	}
	for (int k = 0; fz_left(f) && k < 8; k++) {
		int64_t ev = 1 + fz_pick(f, 64);
		uint8_t raw[32];

		changes++;
		switch (fz_pick(f, 7)) {
		case 0:
			new_body(db, f, ev);
			break;
		case 1:
			sql(db, "DELETE FROM event WHERE id = ?1", NULL, 0, ev, 0);
			break;
		case 2: /* the same event again, at the end */
			sql(db,
			    "INSERT INTO event(kind, body) SELECT kind, body FROM event WHERE id = ?1",
			    NULL, 0, ev, 0);
			break;
		case 3: {
			static const char *const kinds[] = {"register", "closed", "gate",   "message",
							    "submit",	"lost",	  "dismissed", "done",
							    "chain",	"nonsense"};
			const char *kind = kinds[fz_pick(f, 10)];

			sql(db, "UPDATE event SET kind = CAST(?3 AS TEXT) WHERE id = ?1", kind,
			    (int)strlen(kind), ev, 0);
			break;
		}
		case 4:
			sql(db, "UPDATE block SET start = ?2 WHERE rowid = ?1", NULL, 0,
			    1 + fz_pick(f, 64), fz_i64(f));
			break;
		case 5:
			sql(db, "UPDATE block SET count = ?2 WHERE rowid = ?1", NULL, 0,
			    1 + fz_pick(f, 64), fz_i64(f));
			break;
		default: {
			size_t n = fz_pick(f, sizeof(raw));

			fz_bytes(f, raw, n);
			sql(db, "UPDATE block SET data = ?3 WHERE rowid = ?1", raw, (int)n,
			    1 + fz_pick(f, 64), 0);
			break;
		}
		}
	}
	sqlite3_close(db);
	return changes;
}

static int64_t delivered(struct master *m)
{
	struct dls_status st;
	int64_t n;

	FZ_ASSERT(master_snapshot(m, &st) == DLS_OK);
	n = st.delivered;
	fz_check_status(&st);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = {data, size}, script, rest;
	struct master_config c, back;
	struct master *m;
	struct fz_run run;
	const char *names[FZ_MAX_SLAVES] = {"a", "b", "c", "d"};
	double speeds[FZ_MAX_SLAVES], v[FZ_MAX_SLAVES];
	uint64_t keys[FZ_MAX_SLAVES];
	int ids[FZ_MAX_SLAVES], err, changes;
	int64_t before;
	size_t cut;
	char why[MASTER_WHY_LEN];

	fz_setup();
	fresh_dir();
	tu_master_config(&c, (enum sched_kind)fz_pick(&f, SCHED_KIND_COUNT),
			 1 + (int)fz_pick(&f, FZ_MAX_SLAVES), 1 + (int32_t)fz_pick(&f, 48),
			 1 + (int32_t)fz_pick(&f, 3), 1000);
	c.start_timeout_ms = 0;
	tu_set_maxit(&c, 1 + (int32_t)fz_pick(&f, 32));
	c.order = (enum iter_order_mode)fz_pick(&f, 2);
	c.collect = (enum dls_collect)fz_pick(&f, 2);
	c.wait_ms = 1;
	c.journal_os = 1;
	c.rejoin_ms = 60000;
	snprintf(c.journal_dir, sizeof(c.journal_dir), "%s", dir);
	m = master_open(&c, &err, why);
	if (!m) { /* some schemes cannot split a loop shorter than their slaves */
		FZ_ASSERT(err == DLS_EINVAL && strstr(why, "cannot run"));
		return 0;
	}
	for (int i = 0; i < c.nslaves; i++)
		speeds[i] = 1 + i % 3;
	FZ_ASSERT(master_register_group(m, 0, names, speeds, (size_t)c.nslaves, ids, keys, v,
					why) == DLS_OK);
	/* the script's share of the input, then the tampering's */
	cut = fz_pick(&f, 1024);
	if (cut > f.n)
		cut = f.n;
	script = (struct fz){f.p, cut};
	rest = (struct fz){f.p + cut, f.n - cut};
	fz_run_init(&run, &fz_master_target, m, c.workload, c.params, (size_t)c.nparams, c.order,
		    c.nslaves);
	fz_run_script(&run, &script);
	before = delivered(m);
	fz_run_free(&run);
	master_destroy(m); /* the crash: what it acknowledged is journaled */

	changes = tamper(&rest);
	/* an edit is caught by the MACs at once (test_journal_mac); the fuzzer
	 * plays a forger who knows the key (an open run's is empty) and
	 * computes the chain again, to reach the replay's own checks */
	if (changes) {
		char path[128];

		snprintf(path, sizeof(path), "%s/journal.db", dir);
		FZ_ASSERT(tu_journal_rechain(path, NULL) == 0);
	}
	/* the configuration row is never touched: it must read */
	FZ_ASSERT(master_journal_config(dir, &back, why) == DLS_OK);
	back.journal_os = 1;
	back.rejoin_ms = 60000;
	m = master_open(&back, &err, why);
	if (!m) {
		if (!changes || !why[0])
			fprintf(stderr, "resume refused after %d changes: %s\n", changes, why);
		FZ_ASSERT(changes > 0 && why[0]); /* refused, with a reason */
		return 0;
	}
	if (!changes)
		FZ_ASSERT(delivered(m) == before);
	else
		delivered(m); /* adds up */
	master_destroy(m);
	return 0;
}
