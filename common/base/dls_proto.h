/*
 * dls_proto.h - the plain C forms of the IDL messages (idl/dls.idl) that the
 * master and slave cores exchange through their thin C++ adapters.
 */
#ifndef DLS_PROTO_H
#define DLS_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "dls/job.h"
#include "dls/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "DLS results are little-endian on the wire and in memory: a big-endian host is not supported"
#endif

/* Mirrors DLS::PROTOCOL_VERSION: a peer of another version is refused. */
#define DLS_PROTOCOL_VERSION 13u

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





/* Asking ahead: a request leaves at least this many mean round trips before
 * the end of the chunk it follows (more when the round trips vary: slave
 * ahead_lead); the simulator, whose round trips do not vary, uses it. */
#define DLS_SLAVE_LEAD_RTTS 2.0

/* A second request on its way (PROTOCOL.md 5, depth 2) leaves when a chunk
 * took less than the exchange it expects and less than this many times the
 * link's own round trip (the fastest exchange seen): where the link is
 * fast, the round trip it would hide does not pay for the extra request
 * and thread hand-overs on a busy host. */
#define DLS_SLAVE_SECOND_SHARE 2.0

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


#ifdef __cplusplus
}
#endif
#endif
