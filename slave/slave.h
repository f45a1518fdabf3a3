/*
 * slave.h - the DLS slave's core: registers, then loops per docs/schemes.md 4.1
 * (read Q_i, A_i = floor(V_i/Q_i); A_i = 0 waits and reads again; request
 * with the previous chunk's results; compute), emulating its speed when
 * asked (docs/emulation.md 2).  Plain C: the remote calls are the callbacks of
 * struct slave_ops, which the ORB adapter (slave_client.cc) provides, so the
 * core can also be driven by a host program or a test.
 *
 * Runs in the calling thread; only stop_requested may be called from others.
 */
#ifndef DLS_SLAVE_H
#define DLS_SLAVE_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"
#include "emul.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLAVE_WHY_LEN 256

struct slave_config {
	char name[64];
	double speed;	       /* reported Speed: emulated V, or measured */
	int emulated;	       /* 1: sleep to the emulated cost; Q from `load` */
	struct emul_steps load; /* emulated Q(t), t from registration */
	double t_iter_ns;      /* emulated cost of one unit iteration at power 1 */
	double q_override;     /* real mode: fixed Q_i (0 = read the kernel's run queue) */
	int poll_ms;	       /* A_i = 0: wait this long, then read Q_i again */
	double link_latency_us; /* emulated one-way latency of the link to the master */
	int retries;	       /* attempts per call when the master cannot be reached */
	int retry_delay_ms;    /* first back-off; doubles per attempt */
	size_t max_block_bytes; /* result octets per message at most (DLS_MAX_RESULT_BYTES) */
	/*
	 * Optional: computes loop indices first .. first + count - 1 into out
	 * in place of the job's workload (which this program then need not
	 * have: the job's loop is taken as the master describes it).  As a
	 * workload's body; ctx is body_ctx.  A failure ends the slave's run
	 * (it delivers what it computed and leaves); DLS_ESTOPPED ends it as
	 * a stop its own side asked for.
	 */
	int (*body)(void *ctx, int64_t first, int64_t count, void *out, uint64_t *cost, char *why,
		    size_t len);
	void *body_ctx;
	/*
	 * Optional (called with body_ctx, with or without body): the job, once
	 * registered and before any request, and in a run of many loops each
	 * later loop's job (its parameters carry dls.loop = its number) before
	 * the loop's first chunk computes: the program learns that a loop
	 * begins.  DLS_OK, or a code and why: the program cannot compute it
	 * (its loop has another N, its results another size); the slave then
	 * leaves at once and ends with that code.
	 */
	int (*body_job)(void *ctx, const struct dls_job *job, char *why, size_t len);
	/*
	 * When the master stays unreachable after the retries: keep trying to
	 * rejoin it (slave_ops.rejoin: a master resumed from its journal, or
	 * the same one after a partition) for this long, in ms; 0: give up.
	 */
	int rejoin_ms;
	/*
	 * 1 (the default): ask for the next chunk while the current one
	 * computes, so that its reply is back when it ends (PROTOCOL.md 5,
	 * one chunk in flight); 0: ask only once it is done.
	 */
	int overlap;
	/*
	 * Emulated: 1 (the default) computes a chunk whose real computation
	 * takes a while (SLAVE_IDLE_COMPUTE_S) in a thread of the lowest
	 * priority (SCHED_IDLE), so that on a machine shared by many emulated
	 * slaves their real computations do not delay the master and the
	 * others' calls (dls-slave also runs at nice 15); 0: all in the
	 * slave's own thread.
	 */
	int low_priority;
	/*
	 * The Speed registered when it is not `speed` (0, the default: it is):
	 * a wrong declaration, as a calibration on a busy moment gives, for
	 * the reference case of declared speeds that are wrong (C8-mis).  The
	 * emulation keeps computing at `speed`.
	 */
	double declared_speed;
	/*
	 * A master that takes calls but does not answer them in time (an
	 * ops call returned DLS_ETIMEDOUT: overloaded, stopped, or its host
	 * cut off) is asked again, the same call, for this long in ms before
	 * it is taken as gone (retries, then rejoin_ms); a refused connection
	 * (DLS_EREMOTE) is taken as gone at once.  Default 300000.
	 */
	int patience_ms;
};

/*
 * The remote side.  Each call returns DLS_OK, DLS_EREMOTE (the master could
 * not be reached: retried), DLS_ETIMEDOUT (it took the call but did not
 * answer in time: the same call asked again, for up to
 * slave_config.patience_ms), DLS_ESTATE or DLS_EINVAL (refused, why
 * filled: not retried).
 */
struct slave_cut;

struct slave_ops {
	void *ctx;
	int (*register_slave)(void *ctx, const char *name, double speed, int *id, double *vpower,
			      struct dls_job *job, char *why, size_t len);
	int (*request)(void *ctx, const struct dls_request *req, struct dls_reply *out, char *why,
		       size_t len);
	int (*submit)(void *ctx, int id, const struct dls_result *res, size_t n, char *why,
		      size_t len);
	/* Optional: called once registered (the adapter binds the slave's name). */
	void (*registered)(void *ctx, int id, const struct dls_job *job);
	/*
	 * Optional: non-zero when someone asked the slave to stop:
	 * SLAVE_STOP_PARENT, its parent (the run is over for it), or
	 * SLAVE_STOP_LEAVE, its own side (the program, dls_embed_slave_stop):
	 * it then delivers what it computed, leaves (below) and ends with
	 * DLS_ESTOPPED.
	 */
	int (*stop_requested)(void *ctx);
	/*
	 * Optional: finds the master again and joins it as slave id with the
	 * capability it was issued (IDL Master::rejoin).  DLS_OK; DLS_EREMOTE
	 * or DLS_ENOENT (not reachable, or not bound again yet: tried again
	 * until slave_config.rejoin_ms); a refusal ends the run.
	 */
	int (*rejoin)(void *ctx, int id, char *why, size_t len);
	/*
	 * Optional: the current chunk as the adapter's servant shows it to
	 * the master's take-back (Slave::progress and take_back, PROTOCOL.md
	 * 17; slave/slave_cut.h); NULL: chunks are computed whole.
	 */
	struct slave_cut *cut;
	/*
	 * Optional: checks the master within timeout_ms (from a thread of
	 * its own, while the slave computes): DLS_OK when it answers (or a
	 * successor bound under its name does), DLS_ETIMEDOUT when it took the
	 * check and did not answer in time, else DLS_EREMOTE, with why.  With
	 * it, a slave whose master is gone for good (unreachable past
	 * slave_config.rejoin_ms, silent past patience_ms) gives up within
	 * that window even in the middle of a long chunk; NULL: it notices at
	 * its next call.
	 */
	int (*reach)(void *ctx, int timeout_ms, char *why, size_t len);
	/*
	 * Optional: tells the master that slave id leaves before the run is
	 * over (IDL Master::slave_lost with its own capability), so that what
	 * it holds and did not deliver goes to others at once.  Called once the
	 * slave delivered what it computed, when it was asked to leave or its
	 * computation failed.  DLS_OK, or a code and why (then the master finds
	 * out by its pings).
	 */
	int (*leave)(void *ctx, int id, const char *cause, char *why, size_t len);
	/*
	 * Optional: a run of many loops began loop `loop` (1, 2, ...) with
	 * this job, checked and opened; called before its first chunk
	 * computes.
	 */
	void (*loop_begins)(void *ctx, uint32_t loop, const struct dls_job *job);
};

/* What slave_ops.stop_requested says. */
enum slave_stop { SLAVE_RUNS, SLAVE_STOP_PARENT, SLAVE_STOP_LEAVE };

/* Fills *c with the defaults (emulated, V = 1, Q = 1, t_iter 100 ns, ...). */
void slave_config_init(struct slave_config *c);

/*
 * Runs the slave until the master says DONE or a stop is requested.
 * Returns DLS_OK (the run is over: DONE, or its parent stopped it);
 * DLS_ESTOPPED when its own side asked it to leave (what it computed is
 * delivered); DLS_EREMOTE when the master stayed unreachable after the
 * retries; DLS_ESTATE/DLS_EINVAL when a call was refused or the loop body
 * failed; DLS_ENOENT for an unknown workload; DLS_ENOMEM.  why says what
 * happened.
 */
int slave_run(const struct slave_config *cfg, const struct slave_ops *ops, struct dls_slave_stats *st,
	      char *why, size_t len);

/*
 * Q_i of this host now: the processes that share one of its cores, this
 * one included, max(1, procs_running / the cores this process may run on)
 * (Chronopoulos et al. 2002's run queue, on a host of several cores; fractional).
 */
double slave_read_runqueue(void);

/*
 * Real mode: measures the loop body's speed in unit iterations per second
 * of this thread's CPU time, over about `ms` milliseconds of it, on a
 * reference Mandelbrot image: the core's speed, whatever else runs on it
 * (that is Q_i's).  Gives up waiting for the CPU after 10 x ms of wall time.
 */
double slave_calibrate(int ms);

#ifdef __cplusplus
}
#endif
#endif
