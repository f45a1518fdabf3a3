/*
 * dls_proto.h - the plain C forms of the IDL messages (idl/dls.idl) that the
 * master and slave cores exchange through their thin C++ adapters.
 */
#ifndef DLS_PROTO_H
#define DLS_PROTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "DLS results are little-endian on the wire and in memory: a big-endian host is not supported"
#endif

/* Mirrors DLS::PROTOCOL_VERSION: a peer of another version is refused. */
#define DLS_PROTOCOL_VERSION 12u
/* Mirrors DLS::MAX_RESULT_BYTES: no message carries more result octets than this. */
#define DLS_MAX_RESULT_BYTES (1 << 20)

/* A workload's parameters: name = value, both text (IDL Param). */
#define DLS_MAX_PARAMS 16
#define DLS_PARAM_NAME_LEN 32
#define DLS_PARAM_VALUE_LEN 64
struct dls_param {
	char name[DLS_PARAM_NAME_LEN];
	char value[DLS_PARAM_VALUE_LEN];
};

/* Iterations [start, start + count) of the loop: a chunk, a held or requeued range. */
struct dls_range {
	int64_t start;
	int64_t count;
};

/* Results of iterations [start, start + count) of the run's loop `loop`
 * (0 first; a run of one loop has only loop 0): count * result_bytes octets. */
struct dls_result {
	int64_t start;
	int64_t count;
	const void *data;
	size_t nbytes;
	uint32_t loop;
};

/* A slave's running totals (IDL SlaveTimes). */
struct dls_times {
	double t_comp, t_comwait;
	double emul_error; /* sum of |end - emulated end| over chunks */
	double emul_bias;  /* sum of (end - emulated end): > 0 when late */
	int64_t late_chunks;
	double t_collect; /* sending results (Tree Scheduling reports) */
};


/* A chunk a slave finished, as it measured it (IDL ChunkTime): compute_s
 * seconds computing, elapsed_s those plus its wait for the chunk. */
struct dls_chunk_time {
	int64_t start, count;
	double compute_s, elapsed_s;
};

/* The chunk a slave computes now, as it answers the master's take-back
 * (IDL ChunkProgress, PROTOCOL.md 17): [start, start + count) as it stands
 * (count 0: none), done of them computed, elapsed seconds since it began;
 * cuttable: the slave can stop it early (Slave::take_back). */
struct dls_progress {
	int64_t start, count, done;
	double elapsed;
	int cuttable;
};

/* At most this many measured chunks ride on one request (one in flight:
 * usually one). */
#define DLS_MAX_MEASURED 4

/* One request of a slave (alone, or merged by an hmaster). */
struct dls_request {
	int slave_id;
	uint64_t key; /* the capability issued to slave_id at registration */
	uint32_t seq;
	int64_t acp;
	const struct dls_result *results;
	size_t nresults;
	struct dls_times times;
	const struct dls_chunk_time *measured; /* the chunks finished since the last request */
	size_t nmeasured;
	int second; /* sent while request seq - 1 is on its way: served after it */
};

enum dls_collect { DLS_COLLECT_PIGGYBACK, DLS_COLLECT_END };

/* dls_scheme.kind of a run without a central scheme (Tree Scheduling): "trees" on the wire. */
#define DLS_SCHEME_DECENTRALIZED (-1)

/* The run's scheme and options (IDL SchemeSpec); kind, profile: enum sched_kind, sched_profile. */
struct dls_scheme {
	int kind, profile;
	int64_t alpha_num, alpha_den;
	int fac;
	double fac_mu, fac_sigma;
	int fiss_sigma;
	int64_t fiss_x;
};

/* What a slave learns about the run when it registers (IDL JobSpec). */
struct dls_job {
	uint32_t version; /* the sender's DLS_PROTOCOL_VERSION */
	char run_name[64];
	char workload[32];
	struct dls_param params[DLS_MAX_PARAMS];
	int nparams;
	int64_t iterations;
	uint32_t result_bytes; /* per iteration */
	int order;   /* enum iter_order_mode */
	int collect; /* enum dls_collect */
	struct dls_scheme scheme;
};

enum dls_reply_kind { DLS_REPLY_WORK, DLS_REPLY_WAIT, DLS_REPLY_DONE };

struct dls_reply {
	enum dls_reply_kind kind;
	int64_t start, count;
	int wait_ms;
	int depth; /* WORK: requests the slave may have on their way at once
		    * until its next reply (1 or 2; 0 reads as 1) */
	/* WORK in a run of many loops: 1 when this is the slave's first chunk
	 * of a new loop, whose job follows (the slave checks it before it
	 * computes); -1 when one came that could not be read; 0: none */
	int has_job;
	struct dls_job job;
};

/*
 * Status: a consistent copy of a scheduler's state (the master's, a
 * coordinator's, or a two-level hmaster's own), for the status operation
 * and the final table.  Shared by every role and `dls status`.
 */
enum dls_slave_state {
	DLS_SLAVE_REGISTERED,
	DLS_SLAVE_ACTIVE,
	DLS_SLAVE_WAITING,
	DLS_SLAVE_DONE,
	DLS_SLAVE_LOST
};

struct dls_slave_status {
	int id;
	char name[64];
	enum dls_slave_state state;
	double speed, vpower;
	int64_t acp;
	int64_t chunks, iterations, held, requeued_chunks;
	struct dls_times times;
	int distrusted; /* --verify found it returning wrong results */
};

/* What --verify did (PROTOCOL.md 19), over the run. */
struct dls_verify_status {
	double fraction;		 /* 0: the run does not verify */
	int64_t pieces, iterations;	 /* pieces picked (a chunk picked is checked
					    in pieces), their iterations */
	int64_t agreed, disputed;	 /* settled at the first copy; after more */
	int64_t of_liars;		 /* dropped: computed again, their slave lied */
	int64_t copies, copied;		 /* copies computed, their iterations */
	int64_t unverifiable;		 /* picked while no other slave could check */
	int64_t unresolved;		 /* no two copies agreed, no slave left */
	int64_t recomputed;		 /* iterations of liars computed again */
	int liars;
};

struct dls_status {
	const char *scheme;
	char scheme_choices[512]; /* --scheme auto: its decisions, "" for another scheme */
	int64_t iterations, assigned, delivered, requeued;
	int64_t takebacks, taken_back; /* chunk tails taken back, their iterations */
	struct dls_verify_status verify;
	int recomputations;
	int started, done;
	double elapsed; /* since scheduling started; T_p once done */
	int nslaves;
	struct dls_slave_status *slaves; /* nslaves entries; free with dls_status_free */
	uint32_t loop, loops; /* a run of many loops: the current one (0 first) of
				 how many (0 or 1: a run of one loop) */
};

/* Frees what a status holds (its rows); the struct itself is the caller's. */
void dls_status_free(struct dls_status *s);

/* "registered", "active", "waiting", "done", "lost"; "?" out of range. */
const char *dls_slave_state_name(enum dls_slave_state s);

#ifdef __cplusplus
}
#endif
#endif
