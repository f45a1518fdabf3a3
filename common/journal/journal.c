/*
 * journal.c - a durable event log on SQLite with group commit (see journal.h).
 */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"


struct jrec {
	uint64_t ticket;
	char kind[16];
	char *body;
	struct dls_result *blocks; /* descriptors copied; data the appender's */
	size_t n;
};

struct journal {
	sqlite3 *db;
	sqlite3_stmt *ins_event, *ins_block;
	char path[4096];
	int lock_fd; /* DIR/journal.lock, flock'ed while this journal is open */
	pthread_mutex_t mu;
	pthread_cond_t cond; /* a flush ended */
	struct jrec *pending;
	size_t npending, cap;
	uint64_t appended, durable;
	int flushing, failed;
	struct journal_stats stats;
	struct journal_key key;
	uint8_t run_mac[JOURNAL_MAC_LEN]; /* the chain's start */
	uint8_t head[JOURNAL_MAC_LEN];	  /* the last record's MAC: the next one chains to it */
};

static const char schema[] =
	"CREATE TABLE run(format INTEGER NOT NULL, config TEXT NOT NULL, mac BLOB NOT NULL);"
	"CREATE TABLE event(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL,"
	" mac BLOB NOT NULL);"
	"CREATE TABLE block(event INTEGER NOT NULL, start INTEGER NOT NULL,"
	" count INTEGER NOT NULL, data BLOB NOT NULL);";

static int db_error(struct journal *j, const char *what, char *why, size_t len)
{
	snprintf(why, len, "journal '%s': %s: %s", j->path, what,
		 j->db ? sqlite3_errmsg(j->db) : "cannot open");
	return DLS_EIO;
}

static void jrec_free(struct jrec *r)
{
	free(r->body);
	free(r->blocks);
}

/* Opens j->path (which exists) in WAL mode; sync_disk: fsync every commit. */
static int db_open(struct journal *j, int sync_disk, char *why, size_t len)
{
	sqlite3_stmt *st = NULL;
	int wal;

	if (sqlite3_open_v2(j->path, &j->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) !=
	    SQLITE_OK)
		return db_error(j, "cannot open", why, len);
	sqlite3_busy_timeout(j->db, 5000);
	if (sqlite3_prepare_v2(j->db, "PRAGMA journal_mode=WAL", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_error(j, "cannot set WAL mode", why, len);
	}
	wal = !strcmp((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	if (!wal) {
		snprintf(why, len, "journal '%s': the file system does not allow SQLite's WAL mode",
			 j->path);
		return DLS_EIO;
	}
	/* a run's results land in the WAL, copied into the database every
	 * 16384 pages (64 MiB) rather than every 1000: rarely on the fast path */
	if (sqlite3_exec(j->db,
			 sync_disk ? "PRAGMA synchronous=FULL; PRAGMA wal_autocheckpoint=16384;"
			       : "PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=16384;",
			 NULL, NULL, NULL) != SQLITE_OK)
		return db_error(j, "cannot set its synchronous mode", why, len);
	return DLS_OK;
}

static int prepare_inserts(struct journal *j, char *why, size_t len)
{
	if (sqlite3_prepare_v2(j->db, "INSERT INTO event(id, kind, body, mac) VALUES(?, ?, ?, ?)",
			       -1, &j->ins_event, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(j->db,
			       "INSERT INTO block(event, start, count, data) VALUES(?, ?, ?, ?)",
			       -1, &j->ins_block, NULL) != SQLITE_OK)
		return db_error(j, "cannot prepare its statements", why, len);
	return DLS_OK;
}

static struct journal *journal_new(const char *dir, const struct journal_key *key, char *why,
				   size_t len)
{
	struct journal *j = calloc(1, sizeof(*j));

	if (!j) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	if (key)
		j->key = *key;
	if ((size_t)snprintf(j->path, sizeof(j->path), "%s/%s", dir, JOURNAL_FILE) >=
	    sizeof(j->path)) {
		snprintf(why, len, "journal folder '%s': path too long", dir);
		free(j);
		return NULL;
	}
	j->lock_fd = -1;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cond, NULL);
	return j;
}

/*
 * One process at a time per journal: two masters appending to one journal
 * would ruin it (a resume while the old master still runs, say).  The lock
 * goes with the process, however it dies.  DLS_OK, or DLS_ESTATE naming the
 * holder, or DLS_EIO.
 */
static int lock_journal(struct journal *j, const char *dir, char *why, size_t len)
{
	char path[4200], pid[32] = "";
	ssize_t n;

	snprintf(path, sizeof(path), "%s/journal.lock", dir);
	j->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (j->lock_fd < 0) {
		snprintf(why, len, "journal lock '%s': %s", path, strerror(errno));
		return DLS_EIO;
	}
	if (flock(j->lock_fd, LOCK_EX | LOCK_NB)) {
		int busy = errno == EWOULDBLOCK;

		n = busy ? pread(j->lock_fd, pid, sizeof(pid) - 1, 0) : 0;
		pid[n > 0 ? n : 0] = '\0';
		snprintf(why, len, "journal '%s': %s%s%s", j->path,
			 busy ? "in use by another master (pid " : strerror(errno),
			 busy ? (pid[0] ? pid : "?") : "", busy ? "): one master per run" : "");
		return busy ? DLS_ESTATE : DLS_EIO;
	}
	n = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (ftruncate(j->lock_fd, 0) || pwrite(j->lock_fd, pid, (size_t)n, 0) != n)
		log_warn("journal lock '%s': cannot record our pid: %s", path, strerror(errno));
	return DLS_OK;
}

static void journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->npending; i++)
		jrec_free(&j->pending[i]);
	free(j->pending);
	sqlite3_finalize(j->ins_event);
	sqlite3_finalize(j->ins_block);
	sqlite3_close(j->db);
	if (j->lock_fd >= 0)
		close(j->lock_fd); /* and the lock with it */
	OPENSSL_cleanse(&j->key, sizeof(j->key));
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cond);
	free(j);
}

int journal_create(const char *dir, const char *config, int sync_disk,
		   const struct journal_key *key, struct journal **out, char *why, size_t len)
{
	struct journal *j;
	sqlite3_stmt *st = NULL;
	int fd, rc;

	*out = NULL;
	if (mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(why, len, "journal folder '%s': %s", dir, strerror(errno));
		return DLS_EIO;
	}
	j = journal_new(dir, key, why, len);
	if (!j)
		return DLS_ENOMEM;
	journal_mac_run(&j->key, JOURNAL_FORMAT, config, j->run_mac);
	memcpy(j->head, j->run_mac, JOURNAL_MAC_LEN);
	rc = lock_journal(j, dir, why, len);
	if (rc) {
		journal_free(j);
		return rc;
	}
	/* the results are the run's: only its owner reads them (SQLite gives
	 * its -wal and -shm files the database file's mode) */
	fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = errno == EEXIST ? DLS_ESTATE : DLS_EIO;
		snprintf(why, len, "journal '%s': %s", j->path,
			 errno == EEXIST ? "exists already: resume it (--resume) or remove it"
					 : strerror(errno));
		journal_free(j);
		return rc;
	}
	close(fd);
	rc = db_open(j, sync_disk, why, len);
	/* the tables and the run's record in one transaction: a journal either
	 * records its run or holds nothing (its creator died first, having
	 * acknowledged nothing; read_run says so) */
	if (!rc && sqlite3_exec(j->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		rc = db_error(j, "cannot begin", why, len);
	if (!rc && sqlite3_exec(j->db, schema, NULL, NULL, NULL) != SQLITE_OK)
		rc = db_error(j, "cannot create its tables", why, len);
	if (!rc && (sqlite3_prepare_v2(j->db, "INSERT INTO run(format, config, mac) VALUES(?, ?, ?)",
				       -1, &st, NULL) != SQLITE_OK ||
		    sqlite3_bind_int(st, 1, JOURNAL_FORMAT) != SQLITE_OK ||
		    sqlite3_bind_text(st, 2, config, -1, SQLITE_STATIC) != SQLITE_OK ||
		    sqlite3_bind_blob(st, 3, j->run_mac, JOURNAL_MAC_LEN, SQLITE_STATIC) !=
			    SQLITE_OK ||
		    sqlite3_step(st) != SQLITE_DONE))
		rc = db_error(j, "cannot record the run", why, len);
	sqlite3_finalize(st);
	if (!rc && sqlite3_exec(j->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = db_error(j, "cannot commit its creation", why, len);
	if (!rc)
		rc = prepare_inserts(j, why, len);
	if (rc) {
		journal_free(j);
		return rc;
	}
	*out = j;
	return DLS_OK;
}

/* Copies a MAC column into out: 0, or -1 when it is not one. */
static int mac_column(sqlite3_stmt *st, int col, uint8_t out[JOURNAL_MAC_LEN])
{
	if (sqlite3_column_type(st, col) != SQLITE_BLOB ||
	    sqlite3_column_bytes(st, col) != JOURNAL_MAC_LEN)
		return -1;
	memcpy(out, sqlite3_column_blob(st, col), JOURNAL_MAC_LEN);
	return 0;
}

/*
 * Reads run.config, the last event's id and the chain's start and head of
 * an opened journal; check: the run's record must match its MAC.
 */
static int read_run(struct journal *j, char **config, int check, char *why, size_t len)
{
	sqlite3_stmt *st = NULL;
	uint8_t mine[JOURNAL_MAC_LEN];
	int rc = DLS_OK;

	if (sqlite3_prepare_v2(j->db,
			       "SELECT format, config, (SELECT ifnull(max(id), 0) FROM event), mac, "
			       "(SELECT mac FROM event ORDER BY id DESC LIMIT 1) FROM run",
			       -1, &st, NULL) != SQLITE_OK) {
		if (sqlite3_prepare_v2(j->db, "SELECT 1 FROM sqlite_master", -1, &st, NULL) ==
			    SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_DONE) { /* no table at all */
			sqlite3_finalize(st);
			snprintf(why, len,
				 "journal '%s' holds no run: the process that created it died "
				 "before recording it, having acknowledged nothing; start the run "
				 "again",
				 j->path);
			return DLS_ENOENT;
		}
		sqlite3_finalize(st);
		/* a journal of format 1 has no MACs */
		if (sqlite3_prepare_v2(j->db, "SELECT format FROM run", -1, &st, NULL) ==
			    SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW) {
			snprintf(why, len, "journal '%s': format %d, this program reads format %d",
				 j->path, sqlite3_column_int(st, 0), JOURNAL_FORMAT);
			sqlite3_finalize(st);
			return DLS_EINVAL;
		}
		sqlite3_finalize(st);
		return db_error(j, "not a DLS journal", why, len);
	}
	if (sqlite3_step(st) != SQLITE_ROW) {
		snprintf(why, len, "journal '%s': no run recorded", j->path);
		rc = DLS_EINVAL;
	} else if (sqlite3_column_int(st, 0) != JOURNAL_FORMAT) {
		snprintf(why, len, "journal '%s': format %d, this program reads format %d",
			 j->path, sqlite3_column_int(st, 0), JOURNAL_FORMAT);
		rc = DLS_EINVAL;
	} else if (mac_column(st, 3, j->run_mac) ||
		   (check && (journal_mac_run(&j->key, JOURNAL_FORMAT,
					      (const char *)sqlite3_column_text(st, 1), mine),
			      CRYPTO_memcmp(mine, j->run_mac, JOURNAL_MAC_LEN)))) {
		snprintf(why, len,
			 "journal '%s': the run's record does not match its MAC: the journal "
			 "was changed after it was written, or this is not the run's secret",
			 j->path);
		rc = DLS_EINVAL;
	} else {
		*config = strdup((const char *)sqlite3_column_text(st, 1));
		j->appended = j->durable = (uint64_t)sqlite3_column_int64(st, 2);
		if (j->appended == 0)
			memcpy(j->head, j->run_mac, JOURNAL_MAC_LEN);
		else if (mac_column(st, 4, j->head))
			memset(j->head, 0, JOURNAL_MAC_LEN); /* the replay finds it */
		if (!*config) {
			snprintf(why, len, "out of memory");
			rc = DLS_ENOMEM;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* journal_open; check 0: the MACs are not looked at (reading the
 * configuration only). */
static int open_journal(const char *dir, int sync_disk, const struct journal_key *key, int check,
			char **config, struct journal **out, char *why, size_t len)
{
	struct journal *j;
	int rc;

	*out = NULL;
	*config = NULL;
	j = journal_new(dir, key, why, len);
	if (!j)
		return DLS_ENOMEM;
	if (!access(j->path, F_OK) && (rc = lock_journal(j, dir, why, len))) {
		journal_free(j);
		return rc;
	}
	if (access(j->path, R_OK | W_OK)) {
		rc = errno == ENOENT ? DLS_ENOENT : DLS_EIO;
		snprintf(why, len, "journal '%s': %s", j->path,
			 errno == ENOENT ? "no such file: nothing to resume" : strerror(errno));
		journal_free(j);
		return rc;
	}
	rc = db_open(j, sync_disk, why, len);
	if (!rc)
		rc = read_run(j, config, check, why, len);
	if (!rc)
		rc = prepare_inserts(j, why, len);
	if (rc) {
		free(*config);
		*config = NULL;
		journal_free(j);
		return rc;
	}
	*out = j;
	return DLS_OK;
}

int journal_open(const char *dir, int sync_disk, const struct journal_key *key, char **config,
		 struct journal **out, char *why, size_t len)
{
	return open_journal(dir, sync_disk, key, 1, config, out, why, len);
}

int journal_read_config(const char *dir, char **config, char *why, size_t len)
{
	struct journal *j;
	int rc = open_journal(dir, 0, NULL, 0, config, &j, why, len);

	if (!rc)
		journal_close(j);
	return rc;
}

int journal_discard_unborn(const char *dir, char *why, size_t len)
{
	static const char *const suffixes[] = {"", "-wal", "-shm"};
	char *config = NULL, path[4200];
	int rc = journal_read_config(dir, &config, why, len);

	free(config);
	if (rc == DLS_OK)
		return DLS_ESTATE;
	if (rc != DLS_ENOENT)
		return rc;
	for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, JOURNAL_FILE, suffixes[k]);
		if (unlink(path) && errno != ENOENT) {
			snprintf(why, len, "journal '%s': cannot remove it: %s", path,
				 strerror(errno));
			return DLS_EIO;
		}
	}
	return DLS_OK;
}

int journal_has_event(const char *dir, const char *kind)
{
	char path[4200];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int found = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, JOURNAL_FILE);
	if (access(path, R_OK) == 0 &&
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db, 100);
		if (sqlite3_prepare_v2(db, "SELECT 1 FROM event WHERE kind = ? LIMIT 1", -1, &st,
				       NULL) == SQLITE_OK &&
		    sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC) == SQLITE_OK)
			found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return found;
}

/* journal_replay's callback, counting the events. */
struct counted {
	journal_event_fn fn;
	void *ctx;
	size_t n;
};

static int count_event(void *ctx, const char *kind, const char *body,
		       const struct dls_result *blocks, size_t n, char *why, size_t len)
{
	struct counted *c = ctx;

	c->n++;
	return c->fn(c->ctx, kind, body, blocks, n, why, len);
}

int journal_start(const char *dir, const char *config, int sync_disk,
		  const struct journal_key *key, int resume, journal_event_fn fn, void *ctx,
		  size_t *events, struct journal **out, char *why, size_t len)
{
	struct counted counted = {fn, ctx, 0};
	struct journal *j;
	char *theirs = NULL;
	int rc;

	if (events)
		*events = 0;
	if (!resume)
		return journal_create(dir, config, sync_disk, key, out, why, len);
	*out = NULL;
	rc = journal_open(dir, sync_disk, key, &theirs, &j, why, len);
	if (rc)
		return rc;
	if (strcmp(config, theirs)) {
		snprintf(why, len, "the journal in '%s' is of another run (or other options): %s",
			 dir, theirs);
		rc = DLS_EINVAL;
	}
	free(theirs);
	if (!rc)
		rc = journal_replay(j, count_event, &counted, why, len);
	if (rc) {
		journal_close(j);
		return rc;
	}
	if (events)
		*events = counted.n;
	*out = j;
	return DLS_OK;
}

/* The blocks of one event, copied out of the cursor's rows. */
struct event_blocks {
	struct dls_result *v;
	size_t n, cap;
};

static int blocks_add(struct event_blocks *b, sqlite3_stmt *st)
{
	size_t bytes = (size_t)sqlite3_column_bytes(st, 3);
	void *data = malloc(bytes ? bytes : 1);

	if (!data)
		return DLS_ENOMEM;
	if (bytes)
		memcpy(data, sqlite3_column_blob(st, 3), bytes);
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4;
		struct dls_result *v = realloc(b->v, cap * sizeof(*v));

		if (!v) {
			free(data);
			return DLS_ENOMEM;
		}
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = (struct dls_result){sqlite3_column_int64(st, 1),
					   sqlite3_column_int64(st, 2), data, bytes, 0};
	return DLS_OK;
}

static void blocks_clear(struct event_blocks *b)
{
	for (size_t i = 0; i < b->n; i++)
		free((void *)b->v[i].data);
	b->n = 0;
}

int journal_replay(struct journal *j, journal_event_fn fn, void *ctx, char *why, size_t len)
{
	sqlite3_stmt *ev = NULL, *bl = NULL;
	struct event_blocks b = {0};
	uint8_t prev[JOURNAL_MAC_LEN], mine[JOURNAL_MAC_LEN], theirs[JOURNAL_MAC_LEN];
	int rc = DLS_OK, brow;

	memcpy(prev, j->run_mac, JOURNAL_MAC_LEN);
	if (sqlite3_prepare_v2(j->db, "SELECT id, kind, body, mac FROM event ORDER BY id", -1, &ev,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(j->db, "SELECT event, start, count, data FROM block ORDER BY rowid",
			       -1, &bl, NULL) != SQLITE_OK) {
		rc = db_error(j, "cannot read its events", why, len);
		goto out;
	}
	/* blocks were inserted after their event, so both come in event order */
	brow = sqlite3_step(bl);
	while (!rc && sqlite3_step(ev) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(ev, 0);

		for (; !rc && brow == SQLITE_ROW && sqlite3_column_int64(bl, 0) <= id;
		     brow = sqlite3_step(bl)) {
			if (sqlite3_column_int64(bl, 0) < id) {
				snprintf(why, len, "journal '%s': a block of no event (%lld)",
					 j->path, (long long)sqlite3_column_int64(bl, 0));
				rc = DLS_EINVAL;
			} else {
				rc = blocks_add(&b, bl);
			}
		}
		if (!rc) {
			const char *kind = (const char *)sqlite3_column_text(ev, 1);
			const char *body = (const char *)sqlite3_column_text(ev, 2);

			journal_mac_event(&j->key, prev, id, kind, body, b.v, b.n, mine);
			if (mac_column(ev, 3, theirs) ||
			    CRYPTO_memcmp(mine, theirs, JOURNAL_MAC_LEN)) {
				snprintf(why, len,
					 "journal '%s': record %lld (event '%s') does not match its "
					 "MAC: the journal was changed there (a record edited, "
					 "removed or inserted) or is not of this run's secret",
					 j->path, (long long)id, kind);
				rc = DLS_EINVAL;
			} else {
				memcpy(prev, mine, JOURNAL_MAC_LEN);
				rc = fn(ctx, kind, body, b.v, b.n, why, len);
			}
		}
		blocks_clear(&b);
	}
	if (!rc && brow == SQLITE_ROW) {
		snprintf(why, len, "journal '%s': a block of no event (%lld)", j->path,
			 (long long)sqlite3_column_int64(bl, 0));
		rc = DLS_EINVAL;
	}
	if (!rc)
		memcpy(j->head, prev, JOURNAL_MAC_LEN);
	if (rc == DLS_ENOMEM)
		snprintf(why, len, "out of memory");
out:
	free(b.v);
	sqlite3_finalize(ev);
	sqlite3_finalize(bl);
	return rc;
}

uint64_t journal_append(struct journal *j, const char *kind, char *body,
			const struct dls_result *blocks, size_t n)
{
	struct jrec r = {0};
	uint64_t ticket = 0;
	int oom;

	if (!j) {
		free(body);
		return 0;
	}
	snprintf(r.kind, sizeof(r.kind), "%s", kind);
	r.body = body;
	r.n = n;
	oom = n && !(r.blocks = malloc(n * sizeof(*r.blocks)));
	if (n && !oom)
		memcpy(r.blocks, blocks, n * sizeof(*r.blocks));
	pthread_mutex_lock(&j->mu);
	if (!oom && !j->failed && j->npending == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 64;
		struct jrec *v = realloc(j->pending, cap * sizeof(*v));

		oom = !v;
		if (v) {
			j->pending = v;
			j->cap = cap;
		}
	}
	if (oom && !j->failed) {
		log_err("journal: out of memory: the run goes on without it");
		j->failed = 1;
	}
	if (!j->failed) {
		r.ticket = ticket = ++j->appended;
		j->pending[j->npending++] = r;
	} else {
		jrec_free(&r);
	}
	pthread_mutex_unlock(&j->mu);
	return ticket;
}

static int write_record(struct journal *j, const struct jrec *r)
{
	sqlite3_stmt *e = j->ins_event, *b = j->ins_block;
	const char *body = r->body ? r->body : "{}";
	int ok;

	/* only the flushing thread writes: the chain's head is its own */
	journal_mac_event(&j->key, j->head, (int64_t)r->ticket, r->kind, body, r->blocks, r->n,
			  j->head);
	sqlite3_reset(e);
	ok = sqlite3_bind_int64(e, 1, (sqlite3_int64)r->ticket) == SQLITE_OK &&
	     sqlite3_bind_text(e, 2, r->kind, -1, SQLITE_STATIC) == SQLITE_OK &&
	     sqlite3_bind_text(e, 3, body, -1, SQLITE_STATIC) == SQLITE_OK &&
	     sqlite3_bind_blob(e, 4, j->head, JOURNAL_MAC_LEN, SQLITE_STATIC) == SQLITE_OK &&
	     sqlite3_step(e) == SQLITE_DONE;
	for (size_t i = 0; ok && i < r->n; i++) {
		sqlite3_reset(b);
		ok = sqlite3_bind_int64(b, 1, (sqlite3_int64)r->ticket) == SQLITE_OK &&
		     sqlite3_bind_int64(b, 2, r->blocks[i].start) == SQLITE_OK &&
		     sqlite3_bind_int64(b, 3, r->blocks[i].count) == SQLITE_OK &&
		     sqlite3_bind_blob64(b, 4, r->blocks[i].data, r->blocks[i].nbytes,
					 SQLITE_STATIC) == SQLITE_OK &&
		     sqlite3_step(b) == SQLITE_DONE;
	}
	return ok ? DLS_OK : DLS_EIO;
}

/* Writes a batch in one transaction: one fsync for all of it. */
static int write_batch(struct journal *j, const struct jrec *v, size_t n)
{
	int rc = sqlite3_exec(j->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? DLS_OK
										       : DLS_EIO;

	for (size_t i = 0; !rc && i < n; i++)
		rc = write_record(j, &v[i]);
	if (!rc && sqlite3_exec(j->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = DLS_EIO;
	if (rc) {
		log_err("journal '%s': cannot write: %s: the run goes on without a journal",
			j->path, sqlite3_errmsg(j->db));
		sqlite3_exec(j->db, "ROLLBACK", NULL, NULL, NULL);
	}
	return rc;
}

void journal_wait(struct journal *j, uint64_t ticket)
{
	if (!j || !ticket)
		return;
	pthread_mutex_lock(&j->mu);
	while (!j->failed && j->durable < ticket) {
		struct jrec *v;
		size_t n;
		double t0;
		int rc;

		if (j->flushing) {
			pthread_cond_wait(&j->cond, &j->mu);
			continue;
		}
		/* this thread writes every pending record, its own and others' */
		j->flushing = 1;
		v = j->pending;
		n = j->npending;
		j->pending = NULL;
		j->npending = j->cap = 0;
		pthread_mutex_unlock(&j->mu);
		t0 = dls_now();
		rc = write_batch(j, v, n);
		pthread_mutex_lock(&j->mu);
		j->stats.commit_s += dls_now() - t0;
		j->stats.commits++;
		j->stats.records += n;
		if (rc)
			j->failed = 1;
		else if (n)
			j->durable = v[n - 1].ticket;
		for (size_t i = 0; i < n; i++)
			jrec_free(&v[i]);
		free(v);
		j->flushing = 0;
		pthread_cond_broadcast(&j->cond);
	}
	pthread_mutex_unlock(&j->mu);
}

int journal_failed(struct journal *j)
{
	int failed;

	if (!j)
		return 0;
	pthread_mutex_lock(&j->mu);
	failed = j->failed;
	pthread_mutex_unlock(&j->mu);
	return failed;
}

void journal_stats(struct journal *j, struct journal_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!j)
		return;
	pthread_mutex_lock(&j->mu);
	*out = j->stats;
	pthread_mutex_unlock(&j->mu);
}

void journal_close(struct journal *j)
{
	uint64_t last;

	if (!j)
		return;
	pthread_mutex_lock(&j->mu);
	last = j->appended;
	pthread_mutex_unlock(&j->mu);
	journal_wait(j, last);
	journal_free(j);
}
