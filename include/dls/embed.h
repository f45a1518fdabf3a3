/*
 * embed.h - DLS inside a program of its own (PROTOCOL.md says what travels).
 *
 * A program that has an ORB lends it with dls_embed_use_orb() (dls/embed.hh,
 * C++): DLS then calls no ORB_init and changes no process-wide setting; its
 * servants live in the POA given (which the program activates) and its calls
 * carry timeouts of their own.  A program without one starts a private ORB
 * with dls_orb_start().  Then:
 *
 *   - dls_embed_slave_start(): a slave in a thread of its own, computing the
 *     job's workload (DLS's own, or one the program registered with
 *     dls_workload_register(), its loop body with a user pointer);
 *   - dls_steps_start() / dls_steps_next() / dls_steps_done(): a slave driven
 *     from the program's own main loop, chunk by chunk (in the spirit of
 *     DLS4LB's DLS_StartChunk / DLS_EndChunk), while DLS answers the
 *     master's pings on its own;
 *   - dls_embed_master_start(): a master whose results come to a callback.
 *
 * Every function returns DLS_OK or a DLS_ code (dls/err.h) and fills why.
 */
#ifndef DLS_EMBED_H
#define DLS_EMBED_H

#include <stddef.h>
#include <stdint.h>

#include "dls/job.h"
#include "dls/status.h"
#include "dls/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A private ORB for a program without one, from its command line (the
 * -ORB... options are taken out of argv; -ORBInitRef NameService=... says
 * where the naming service is).  call_timeout_ms bounds every call (0:
 * 10 s).  DLS_OK, DLS_ESTATE (an ORB is already in use), DLS_EREMOTE.
 */
int dls_orb_start(int *argc, char **argv, int call_timeout_ms);

/* Stops the private ORB, or lets go of a lent one. */
void dls_orb_stop(void);

/* --- a slave in a thread of its own ------------------------------------------ */

/*
 * Options are fields of their own, set after the init function; a field
 * left alone keeps its default.  The init functions are macros that record
 * the size of the struct the program was built with (`size`), so that a
 * program built against these headers keeps working with a later libdls
 * whose options have grown (fields are only ever added at the end).
 */
struct dls_embed_slave_options {
	size_t size;		  /* set by dls_embed_slave_options_init: leave it */
	const char *run;	  /* the run: its master is DLS/<run>/<master> (required) */
	const char *master;	  /* "master" (default), or an hmaster's name */
	const char *master_ior;	  /* the master's IOR instead of the naming service */
	int connect_timeout_ms;	  /* wait this long for the master's name (20000) */
	int register_timeout_ms;  /* registration waits for the whole run (60000) */
	int call_timeout_ms;	  /* every other call to the master (10000) */
	const char *secret_file;  /* the run's secret (mode 0600; PROTOCOL.md 14); NULL: none */

	/* The slave: its name in the master's table (1..63 characters, copied
	 * when it starts; "slave") */
	const char *name;
	double speed;	       /* the speed V it registers: measured or emulated (1) */
	double declared_speed; /* register this instead (0: speed): a wrong declaration;
				  an emulation still computes at speed */
	/* Emulation (docs/emulation.md): 1 sleeps each chunk to the cost a
	 * machine of power speed / Q(t) would take; 0 (default): the program's
	 * real speed, Q_i read from the host's run queue */
	int emulated;
	const char *load;	/* emulated Q(t): "Q" or "t:Q,t:Q,..." from registration ("1") */
	double t_iter_ns;	/* emulated cost of one unit iteration at power 1 (100) */
	double link_latency_us; /* emulated one-way latency of the link to the master (0) */
	double q_override;	/* real: a fixed Q_i instead of the run queue's (0: read it) */
	int poll_ms;		/* A_i = 0: wait this long, then read Q_i again (100) */
	/* Faults (PROTOCOL.md 8): attempts per call when the master cannot be
	 * reached (5), the first back-off, doubling (200 ms); a master that
	 * stays unreachable is looked for again for rejoin_ms (0: given up
	 * after the retries); one that took a call and does not answer is
	 * asked again for patience_ms (300000) */
	int retries, retry_delay_ms, rejoin_ms, patience_ms;
	int overlap;	  /* ask for the next chunk while one computes (1; 0: after) */
	int low_priority; /* emulated: long real computations at the idle priority (1) */
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
	 * the loop's first chunk computes.  DLS_OK, or a code and why: the
	 * program cannot compute it (its loop has another N, its results
	 * another size); the slave then leaves at once and ends with that code.
	 */
	int (*body_job)(void *ctx, const struct dls_job *job, char *why, size_t len);
};

/* Sets *o to the defaults above (as dls_embed_slave_options_init). */
void dls_embed_slave_options_init_size(struct dls_embed_slave_options *o, size_t size);
#define dls_embed_slave_options_init(o) dls_embed_slave_options_init_size((o), sizeof(*(o)))

/*
 * The speed of this host's core for DLS's own Mandelbrot body, in unit
 * iterations per second of CPU time, measured over about ms milliseconds
 * (a dls_embed_slave_options.speed for a real slave of the built-in
 * workload).
 */
double dls_calibrate(int ms);

struct dls_embed_slave;

/*
 * Finds the master, activates the slave's servant in the POA and starts
 * the slave in a new thread.  DLS_OK with *out; DLS_EINVAL (a bad option
 * or secret file, why naming it; options not made by the init function),
 * DLS_ESTATE (no ORB), DLS_ENOENT (no master found in time), DLS_EREMOTE,
 * DLS_ENOMEM.
 */
int dls_embed_slave_start(const struct dls_embed_slave_options *o, struct dls_embed_slave **out,
			  char *why, size_t len);

/*
 * Asks the slave to leave the run (any thread): the chunk it computes ends
 * at what is computed, every result it computed is delivered, and the
 * master is told, so that what it held goes to other slaves at once.
 */
void dls_embed_slave_stop(struct dls_embed_slave *s);

/*
 * Waits for the slave's end and says how it ended: DLS_OK when the run is
 * done; DLS_ESTOPPED when dls_embed_slave_stop ended it first (why says
 * whether its results were delivered); else the slave's own code (the master
 * unreachable, a refusal, the loop body failed) and why.  st (if not NULL)
 * gets its totals in every case.  Then frees s.
 */
int dls_embed_slave_wait(struct dls_embed_slave *s, struct dls_slave_stats *st, char *why,
			 size_t len);

/* --- a slave driven from the program's main loop ---------------------------- */

struct dls_steps;

/*
 * A step: loop indices first .. first + count - 1 into out.  A chunk the
 * master gives comes as one step in the natural order, and as one step
 * per loop index in the interleaved order (PROTOCOL.md 4), whose indices of
 * one chunk are not consecutive.
 */
struct dls_step {
	int64_t first, count;
	void *out;	       /* count * result_bytes octets, index by index */
	uint32_t result_bytes; /* per loop index, as the master's job says */
};

/*
 * Starts a slave whose chunks the program computes itself (the job's
 * workload need not be registered).  Registration happens in DLS's thread;
 * dls_steps_next() waits for it.
 */
int dls_steps_start(const struct dls_embed_slave_options *o, struct dls_steps **out, char *why,
		    size_t len);

/*
 * Waits up to timeout_ms (< 0: for ever) for the next step.  DLS_OK with
 * *step; DLS_ETIMEDOUT (none yet: ask again); DLS_EDONE once the slave's
 * run is over (dls_steps_end says how it ended).  The first step, before
 * the slave asks for any work, has count 0 and out NULL: it brings the
 * run's job (dls_steps_job), which the program accepts with
 * dls_steps_done(..., DLS_OK, NULL) or refuses with a code and why.  In a
 * run of many loops (PROTOCOL.md 18) every later loop begins with such a
 * step too, bringing that loop's job (its parameters carry dls.loop, its
 * number; its iterations may differ): a shape the program cannot compute
 * is refused the same way, and the slave leaves the run.
 */
int dls_steps_next(struct dls_steps *s, struct dls_step *step, int timeout_ms);

/*
 * The current loop's job (workload name, parameters, iterations N,
 * result_bytes, iteration order): NULL before the first step (count 0),
 * then valid until the next step of count 0 or dls_steps_end.  A program checks that it can compute it (its loop has N
 * iterations, its results are result_bytes each) and refuses it with
 * dls_steps_done(s, &step, DLS_EINVAL, why): the slave leaves the run
 * before it asks for work, and the master is told at once.
 */
const struct dls_job *dls_steps_job(struct dls_steps *s);

/*
 * The step from dls_steps_next is computed (status DLS_OK), or could not
 * be (any other code, with why: the slave delivers what it computed
 * before, leaves, and the master gives the rest to others; dls_steps_end
 * returns that code and why).
 */
int dls_steps_done(struct dls_steps *s, const struct dls_step *step, int status,
		   const char *why);

/* Stops (if still running: DLS_ESTOPPED), waits and frees s: as
 * dls_embed_slave_wait. */
int dls_steps_end(struct dls_steps *s, struct dls_slave_stats *st, char *why, size_t len);

/* --- a master whose results come to a callback ------------------------------ */

struct dls_embed_master_options {
	size_t size;	      /* set by dls_embed_master_options_init: leave it */
	const char *run;      /* bound as DLS/<run>/master (required) */
	int slaves;	      /* slaves to expect (required) */
	const char *workload; /* "mandelbrot" (default), "pendulum", or any with dls.* params */
	const struct dls_param *params;
	int nparams;
	const char *scheme; /* "dtss" (default), any of `dls chunks --help` but trees */
	int interleaved;    /* the interleaved iteration order (PROTOCOL.md 4) */
	int collect_end;    /* results at the end instead of piggy-backed */
	int register_timeout_ms, ping_ms, ping_timeout_ms; /* 30000, 500, 3000 */
	const char *ior_file; /* also write the master's IOR here (NULL: not) */
	const char *secret_file; /* the run's secret (mode 0600; PROTOCOL.md 14); NULL: open */
	/* each accepted loop index's result, from an ORB thread, under the
	 * master's lock: copy what it needs and return */
	void (*on_result)(void *user, int64_t index, const void *data, size_t bytes);
	void *user;
	/* Surviving a crash (PROTOCOL.md 15).  journal_dir: journal the run to
	 * DIR/journal.db (a new one; NULL: no journal).  resume: instead go on
	 * with the run journaled in journal_dir after the program crashed: its
	 * configuration comes from the journal (run, slaves, workload, params,
	 * scheme, order, collection and registration timeout here are ignored),
	 * every result journaled before the crash is handed to on_result again
	 * first, and the slaves (started with rejoin_ms) rejoin.  journal_disk:
	 * fsync every acknowledged record (survives a power cut; 0: handed to
	 * the operating system, which survives the program's crash).
	 * rejoin_ms: after a resume, a slave holding work that has not rejoined
	 * by then is lost (30000). */
	const char *journal_dir;
	int resume;
	int journal_disk;
	int rejoin_ms;
	/* A run of many loops (PROTOCOL.md 18; no journal): the most loops the
	 * program may run, each after the first started by
	 * dls_embed_master_next_loop (0 or 1: one loop).  on_loop_result, if
	 * set, is called instead of on_result, with the loop's number. */
	int loops;
	void (*on_loop_result)(void *user, uint32_t loop, int64_t index, const void *data,
			       size_t bytes);
	/* Results that can be checked (PROTOCOL.md 19): about this fraction
	 * (0..1; 0: none) of the result blocks is computed again by another
	 * slave and compared; a slave found lying is dropped and its results
	 * of the loop computed again (on_result then hears those indices
	 * again, with the right values).  A resumed run keeps the journal's. */
	double verify;
};

/* Sets *o to the defaults above (as dls_embed_slave_options_init). */
void dls_embed_master_options_init_size(struct dls_embed_master_options *o, size_t size);
#define dls_embed_master_options_init(o) dls_embed_master_options_init_size((o), sizeof(*(o)))

struct dls_embed_master;

/*
 * Checks the options, creates the master, binds it in the naming service
 * and serves in a new thread.  DLS_OK with *out, or DLS_EINVAL / DLS_ENOENT
 * (a bad option or workload: why says which), DLS_ESTATE (no ORB).
 */
int dls_embed_master_start(const struct dls_embed_master_options *o,
			   struct dls_embed_master **out, char *why, size_t len);

/*
 * A run of many loops: waits until every result of the current loop is in
 * (each handed to on_result or on_loop_result).  DLS_OK with its number
 * (0 first) and T_p in *loop and *t_p (either may be NULL); DLS_EREMOTE
 * when the run failed (every slave lost; why).  Then the program starts
 * the next loop, or ends the run with dls_embed_master_wait.
 */
int dls_embed_master_loop_wait(struct dls_embed_master *m, uint32_t *loop, double *t_p,
			       char *why, size_t len);

/*
 * After dls_embed_master_loop_wait: starts the next loop with these
 * parameters (params NULL: the run's; dls.loop is set to its number), for
 * the same slaves, which the master kept.  Its iterations may differ.
 * DLS_OK; DLS_ESTATE (the loop is not done, or `loops` were run); or the
 * workload's refusal of the parameters (DLS_EINVAL, why), the run then
 * still waiting for a next loop or its end.
 */
int dls_embed_master_next_loop(struct dls_embed_master *m, const struct dls_param *params,
			       int nparams, char *why, size_t len);

/*
 * Waits until the run is over (every result in and handed to on_result,
 * the slaves dismissed; a run of many loops ends after its current loop).  DLS_OK, or DLS_EREMOTE when it failed (every
 * slave lost; why).  status (if not NULL) gets the final per-slave table
 * (free with dls_status_free).  Then frees m, once no call of another
 * process is inside it: on the program's ORB, which goes on serving, a
 * call that arrives later is refused ("the run is over") or finds no
 * object.
 */
int dls_embed_master_wait(struct dls_embed_master *m, struct dls_status *status, char *why,
			  size_t len);

#ifdef __cplusplus
}
#endif
#endif
