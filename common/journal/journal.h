/*
 * journal.h - a role's durable event log: what a master must not lose (every
 * accepted result and every change of its scheduler's state), appended in
 * the order its state changed, and made durable before the master
 * acknowledges anything that depends on it (PROTOCOL.md 15).
 *
 * It is an SQLite database, DIR/journal.db, in WAL mode.  With sync_disk (the
 * default of the programs), synchronous=FULL: a commit is on disk when it
 * returns, and survives a power cut; without, synchronous=NORMAL: a commit
 * is in the operating system's hands (it survives the process's crash, not
 * the machine's) and the disk is synced at checkpoints.  Three
 * tables, readable with the sqlite3 shell:
 *
 *   run(format, config, mac)            one row: the run's configuration (JSON)
 *   event(id, kind, body, mac)          in order; body is JSON
 *   block(event, start, count, data)    the result blocks of an event
 *
 * Every record carries a MAC chained to the one before (journal_mac.h),
 * under a key from the run's secret: a journal changed after it was written
 * is refused when it is opened or replayed, naming the first record that
 * does not match.  Records removed from the end cannot be told from a
 * master that died before writing them (their work is computed again).
 *
 * Group commit: journal_append is cheap (the owner calls it under its own
 * lock, so the log's order is the state's order) and returns a ticket;
 * journal_wait(ticket), called after the owner's lock is released, returns
 * once every record up to the ticket is durable.  One waiter at a time
 * writes every pending record of every thread in one transaction, so
 * concurrent requests share one fsync.
 *
 * A block's data is not copied: it must stay valid until the appender's
 * journal_wait for that record returned.  Records without blocks may be
 * appended by a thread that never waits.
 *
 * If the journal cannot be written (a full disk), the error is logged once
 * and the run goes on without it: journal_wait returns at once, and
 * journal_failed says so.
 *
 * Thread-safe.
 */
#ifndef DLS_JOURNAL_H
#define DLS_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"
#include "journal_mac.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The journal's file in its folder, and its format (run.format). */
#define JOURNAL_FILE "journal.db"
#define JOURNAL_FORMAT 2

struct journal;

/*
 * Creates DIR/journal.db (DIR is made if missing, mode 0700) holding the
 * run's configuration `config` (JSON text); sync_disk: every commit is synced
 * to the disk; key: the MAC key (copied; NULL or unset: the empty key of an
 * open run).  Refuses a journal that already exists (DLS_ESTATE: resume it,
 * or remove it).  DLS_OK, or DLS_EIO / DLS_ESTATE / DLS_ENOMEM with why (len
 * octets) naming the file and cause.
 */
int journal_create(const char *dir, const char *config, int sync_disk,
		   const struct journal_key *key, struct journal **out, char *why, size_t len);

/*
 * Opens the journal in DIR to resume it under key (as journal_create's):
 * *config receives the run's configuration (malloc'd JSON text, the caller
 * frees).  DLS_OK, or DLS_ENOENT (no journal there), DLS_EINVAL (not a
 * journal of this format, or its run's record does not match its MAC under
 * key), DLS_EIO, with why.  The events' MACs are checked by journal_replay.
 */
int journal_open(const char *dir, int sync_disk, const struct journal_key *key, char **config,
		 struct journal **out, char *why, size_t len);

/*
 * Called once per event, in order: its kind, its body (JSON text) and its
 * result blocks (data valid during the call).  Returns DLS_OK, or an error
 * (why filled) that stops the replay.
 */
typedef int (*journal_event_fn)(void *ctx, const char *kind, const char *body,
				const struct dls_result *blocks, size_t n, char *why, size_t len);

/*
 * Replays every event of an opened journal, each checked against its MAC
 * before fn sees it: DLS_OK, fn's error, DLS_EINVAL naming the first record
 * that does not match (fn has seen the ones before), or DLS_EIO.
 */
int journal_replay(struct journal *j, journal_event_fn fn, void *ctx, char *why, size_t len);

/*
 * A role's journal as it starts: resume 0 creates a new one in dir holding
 * config (as journal_create); resume 1 opens the one there under key, which
 * must hold the same configuration (else DLS_EINVAL: "of another run (or
 * other options)"), and replays it through fn (journal_replay).  *events
 * receives how many were replayed (may be NULL).  DLS_OK with *out, or an
 * error with why.
 */
int journal_start(const char *dir, const char *config, int sync_disk,
		  const struct journal_key *key, int resume, journal_event_fn fn, void *ctx,
		  size_t *events, struct journal **out, char *why, size_t len);

/*
 * Reads the configuration of the journal in dir (malloc'd JSON text in
 * *config) without resuming it, and without checking its MACs (resuming
 * does).  As journal_open.
 */
int journal_read_config(const char *dir, char **config, char *why, size_t len);

/*
 * Removes the journal in dir if it holds no run: its creator died before
 * recording it, having acknowledged nothing (or before writing it at all),
 * so that a master can start afresh there.  DLS_OK when removed or absent,
 * DLS_ESTATE when it holds a run (resume it instead), else an error (the
 * journal is in use, unreadable) with why.
 */
int journal_discard_unborn(const char *dir, char *why, size_t len);

/*
 * Whether the journal in dir holds an event of this kind yet, read by
 * another process while its owner writes it (read-only, no lock taken, no
 * MAC checked: an observer's hint, never a resume's input).  1 yes, 0 no
 * (or no journal there, or one that cannot be read now).
 */
int journal_has_event(const char *dir, const char *kind);

/*
 * Appends an event: kind (a short name, copied), body (JSON text, taken
 * over: freed by the journal; NULL is the empty object) and n result blocks
 * (descriptors copied, data not).  Returns its ticket; 0 when j is NULL or
 * failed (nothing to wait for).
 */
uint64_t journal_append(struct journal *j, const char *kind, char *body,
			const struct dls_result *blocks, size_t n);

/* Returns once every record up to ticket is durable (or the journal failed). */
void journal_wait(struct journal *j, uint64_t ticket);

/* Non-zero once a write failed: the run goes on without a journal. */
int journal_failed(struct journal *j);

/* What the journal did: records, commits (fsyncs), seconds spent committing. */
struct journal_stats {
	uint64_t records, commits;
	double commit_s;
};
void journal_stats(struct journal *j, struct journal_stats *out);

/* Makes everything durable and closes; NULL is a no-op. */
void journal_close(struct journal *j);

#ifdef __cplusplus
}
#endif
#endif
