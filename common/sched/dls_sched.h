/*
 * sched.h - the self-scheduling schemes of docs/schemes.md behind one interface.
 *
 * Simple schemes (SS, CSS, GSS, TSS, FSS, FISS, TFSS, WF, STATIC, FSC, mFSC)
 * treat every PE as equal (WF: static weights); the adaptive ones (AWF-B,
 * AWF-C, AWF-D, AWF-E, AF) weigh each PE by what it measured
 * (sched_measure); the distributed ones (DTSS, DFSS, DFISS, DTFSS)
 * weigh each request by the slave's available computing power A_k and apply
 * the ACPSA recomputation rule (docs/schemes.md 4.4), or, with measured_rates,
 * by what it measured.  AUTO picks among the others and switches during the
 * run by simulating the rest of the loop on what it measured
 * (sched_auto.c).  Every distributed scheme is
 * the "virtual slot" model of docs/schemes.md 4.2: a request reporting A_k takes
 * the next A_k unit slots of the unit scheme run for p := A = sum(A_i); a
 * simple scheme is the same model with one slot per request and p := npes.
 *
 * All arithmetic is exact integer arithmetic (128-bit intermediates), except
 * the optional FAC rule of FSS, which is irrational by definition.
 *
 * Not thread-safe: the owner (the master) serialises calls.
 */
#ifndef DLS_SCHED_H
#define DLS_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SCHED_MAX_ITERATIONS ((int64_t)1 << 62)
#define SCHED_MAX_PES (1 << 20)
#define SCHED_MAX_ACP ((int64_t)1 << 30)
#define SCHED_MAX_SECONDS 1e7 /* a measured chunk time above this is nonsense */

enum sched_kind {
	SCHED_SS,
	SCHED_CSS,
	SCHED_GSS,
	SCHED_TSS,
	SCHED_FSS,
	SCHED_FISS,
	SCHED_TFSS,
	SCHED_WF,
	SCHED_DTSS,
	SCHED_DFSS,
	SCHED_DFISS,
	SCHED_DTFSS,
	SCHED_STATIC, /* fixed-size and adaptive techniques: sched_adapt.c */
	SCHED_FSC,
	SCHED_MFSC,
	SCHED_AWF_B,
	SCHED_AWF_C,
	SCHED_AWF_D,
	SCHED_AWF_E,
	SCHED_AF,
	SCHED_AWF,  /* time-stepping AWF: weights learnt between steps (sched_next_step) */
	SCHED_AUTO, /* picks and switches among the others by simulation: sched_auto.c */
	SCHED_KIND_COUNT
};

enum sched_profile {
	SCHED_PROFILE_TABLE, /* reproduces Chronopoulos et al. 2002 Table 1 (default) */
	SCHED_PROFILE_TEXT   /* the formulas as printed in Chronopoulos et al. 2002 section 2 */
};

/* A chunk is a struct dls_range (dls_proto.h): iterations [start, start + count). */

/* Plain data: the fields are the API.  Zero means "the default" throughout. */
struct sched_params {
	enum sched_kind kind;
	enum sched_profile profile;
	int64_t iterations;   /* I, 1..SCHED_MAX_ITERATIONS */
	int npes;	      /* p, 1..SCHED_MAX_PES */
	const int64_t *acp;   /* npes initial A_i (WF, AWF: the weights); NULL = all 1 */
	int64_t css_k;	      /* CSS chunk K >= 1; 0 = ceil(I/p) */
	int64_t gss_k;	      /* GSS minimum chunk k >= 1; 0 = 1 */
	int64_t tss_first;    /* TSS F; 0 = floor(I/2p) */
	int64_t tss_last;     /* TSS L; 0 = 1 */
	int64_t alpha_num;    /* FSS/DFSS/WF alpha = num/den > 0; 0 = 2 */
	int64_t alpha_den;
	int fac;	      /* FSS/DFSS: Hummel's FAC rule from fac_mu, fac_sigma */
	double fac_mu;	      /* mean iteration time (FAC), > 0 */
	double fac_sigma;     /* its standard deviation (FAC), >= 0 */
	int fiss_sigma;	      /* FISS stages sigma >= 2; 0 = 3 */
	int64_t fiss_x;	      /* FISS X > sigma; 0 = sigma + 2 */
	double fsc_h;	      /* FSC: scheduling overhead of a chunk, > 0 */
	double fsc_sigma;     /* FSC: iteration time's sd, > 0 (the same unit);
				 both 0: h = sigma */
	int measured_rates;   /* distributed: A_k from the PE's measured rate once
				 it has measured a chunk (sched_measure), not
				 the reported one: round(slowest PE's time per
				 iteration now / its own), each PE's measured
				 times taken at the A_k it reported then and
				 scaled to the one it reports now (a load
				 change counts at once); a reported 0 stays 0 */
	int correlated;	      /* auto: the costs of neighbouring iterations may
				 sit together (the natural order); 0 when the
				 order mixes them (interleaved) */
	double service_s;     /* auto: the master's time to serve one request,
				 >= 0 (0: not modelled); a constant of the run,
				 so that a replay decides alike */
};

/* The master's time to serve one request on the reference host (a flat
 * master with 8 slaves on loopback, about 18 us end to end): what a real
 * master tells auto (sched_params.service_s). */
#define SCHED_SERVICE_S 20e-6

struct sched;

/* Fills *p with the defaults (everything zero, profile table). */
void sched_params_init(struct sched_params *p);

/*
 * The run's scheme as the protocol carries it (struct dls_scheme), and
 * back: kind, profile and the schemes' options; from_scheme leaves
 * iterations, npes and acp to the caller (after sched_params_init).
 */
void sched_params_to_scheme(const struct sched_params *p, struct dls_scheme *out);
void sched_params_from_scheme(const struct dls_scheme *in, struct sched_params *p);

/*
 * Checks *p and creates a scheduler.  Returns DLS_OK with *out set,
 * DLS_EINVAL for an argument out of range, DLS_ENOPOWER when every A_i is 0,
 * DLS_ENOMEM.  The acp array is copied.
 */
int sched_create(const struct sched_params *p, struct sched **out);

/* Frees s; NULL is a no-op. */
void sched_destroy(struct sched *s);

/*
 * Serves one request of PE pe (0..npes-1) reporting acp (its current A_i;
 * ignored by the simple schemes): records the report, applies the ACPSA rule,
 * then assigns the next chunk.  Returns DLS_OK with *out filled, DLS_EDONE
 * with out->count = 0 when the loop is exhausted, DLS_EINVAL for a bad pe, or
 * for acp outside 1..SCHED_MAX_ACP in a distributed scheme (A_i = 0 is never
 * served), or for a PE of weight 0 in WF.
 */
int sched_next(struct sched *s, int pe, int64_t acp, struct dls_range *out);

/*
 * The two halves of sched_next, for callers that merge requests (the HDTSS
 * relay records every report of a merged message, then serves each):
 * sched_report records A_k and applies the ACPSA rule; sched_serve assigns
 * the chunk without touching the ACPSA state.
 */
int sched_report(struct sched *s, int pe, int64_t acp);

/*
 * The service order of simultaneous requests (Chronopoulos et al. 2002, the ACPSA rule's
 * premise): the larger A_i first, then the earlier arrival.  Non-zero when a
 * request (acp_a, arrived at arrival_a) is served before (acp_b, arrival_b).
 * Every server of requests uses it: the master, a two-level hmaster, and
 * the simulator.
 */
int sched_acpsa_before(int64_t acp_a, double arrival_a, int64_t acp_b, double arrival_b);
int sched_serve(struct sched *s, int pe, int64_t acp, struct dls_range *out);

/*
 * A finished chunk of PE pe as it measured it: iterations [start, start +
 * count) computed in compute_s seconds, elapsed_s the compute time plus the
 * wait for the chunk (its scheduling overhead).  The adaptive techniques
 * learn from it (AWF-B, AWF-C: compute; AWF-D, AWF-E: elapsed; AF: the mean
 * and sd of an iteration's compute time), auto also the relative cost of
 * the chunk's iterations; the others ignore it.  DLS_OK, or DLS_EINVAL for
 * a bad pe or a
 * nonsense measurement (a range outside the loop, a time not finite,
 * compute <= 0, elapsed < compute, either above SCHED_MAX_SECONDS), which
 * changes nothing.
 */
int sched_measure(struct sched *s, int pe, int64_t start, int64_t count, double compute_s,
		  double elapsed_s);

/* One decision of --scheme auto: with `remaining` iterations left it ran
 * `to` in place of `from` (the first decision may keep the technique), the
 * model predicting t_from and t_to seconds for the rest. */
struct sched_switch {
	int64_t remaining;
	enum sched_kind from, to;
	double t_from, t_to;
};

/* Auto keeps its first SCHED_AUTO_MAX_DECISIONS decisions. */
#define SCHED_AUTO_MAX_DECISIONS 64

/* Writes auto's first max decisions to out and returns how many it made
 * (0 for another scheme, or before it has decided anything). */
int sched_auto_decisions(const struct sched *s, struct sched_switch *out, int max);
/* One decision in words, as snprintf: "ss -> fsc at 3992 left (predicted
 * 5.10 s -> 4.20 s)", or "(nothing measured)" when it predicted nothing. */
int sched_switch_describe(const struct sched_switch *d, char *out, size_t len);
/* The technique running now (auto: the one it chose; else the kind). */
enum sched_kind sched_current_kind(const struct sched *s);

/* PE pe's weight as an adaptive technique sees it now (the PEs' weights
 * sum to npes); 1 for the other techniques. */
double sched_weight(const struct sched *s, int pe);

/*
 * Starts the next time step of a time-stepping loop: the same I iterations
 * again, from iteration 0, once every iteration of the current step has
 * been assigned.  What the techniques learnt is kept (the adaptive ones go
 * on from it); AWF recomputes its weights from every measurement so far,
 * those of step j weighing j (the later steps more: Banicescu, Velusamy &
 * Devaprasad, Cluster Computing 6(3), 2003); auto starts the step with the
 * technique it ran last and decides at once from every measurement so far.
 * A time-stepping run must hand in each step's measurements (sched_measure)
 * before it starts the next.  DLS_OK; DLS_EINVAL while iterations of the
 * step are still unassigned; DLS_ENOMEM.
 */
int sched_next_step(struct sched *s);
/* Whether a technique of kind k goes on from what it learnt into the next
 * time step (sched_next_step): the adaptive ones and auto. */
int sched_kind_learns_across_steps(enum sched_kind k);
/* The current time step, from 1. */
int64_t sched_step(const struct sched *s);

/* Iterations not yet assigned. */
int64_t sched_remaining(const struct sched *s);
/* How many times the ACPSA rule recomputed the parameters. */
int sched_recomputations(const struct sched *s);
/* Current total power A (distributed) or npes (simple). */
int64_t sched_units(const struct sched *s);

/*
 * The untruncated chunk function of a simple scheme (Chronopoulos et al. 2002 Table 1 view):
 * f_0, f_1, ... for one-slot requests, listed until the designed number of
 * steps (TSS: N; TFSS: whole stages up to N; FISS: sigma stages) is reached
 * and their sum covers I, stage schemes to the end of a stage.  Writes at
 * most max values to vals and the count to *n.  Returns DLS_OK,
 * DLS_EOVERFLOW when more than max values would be needed, DLS_EINVAL for a
 * distributed, weighted (WF) or adaptive scheme or bad parameters.
 */
int sched_function(const struct sched_params *p, int64_t *vals, size_t max, size_t *n);

/* "ss", "dtss", ...; "?" for an unknown kind. */
const char *sched_kind_name(enum sched_kind k);
/* Case-insensitive; DLS_OK or DLS_ENOENT. */
int sched_kind_parse(const char *name, enum sched_kind *out);
/* 1 for DTSS, DFSS, DFISS, DTFSS; 0 otherwise. */
int sched_kind_is_distributed(enum sched_kind k);
/*
 * The A_i a slave of virtual power vpower reports under load q (> 0):
 * floor(V_i / Q_i), the epsilon keeping 2.0/2 from becoming 0.999...; 0
 * only when waits_idle (a distributed scheme: it does not ask while A_i is
 * 0, Chronopoulos et al. 2002 §3), else at least 1 (the other schemes weigh no A_i).
 */
int64_t sched_acp(double vpower, double q, int waits_idle);
/* 1 for AWF-B, AWF-C, AWF-D, AWF-E, AF, AWF (they learn from sched_measure). */
int sched_kind_is_adaptive(enum sched_kind k);
/* Why a run (the master: one loop) refuses AWF, for its users to print. */
#define SCHED_AWF_ONE_LOOP_WHY                                                                     \
	"awf learns its weights between the time steps of a time-stepping loop, and a run is "     \
	"one loop: use awf-b, awf-c, awf-d or awf-e (they learn within the loop), or model "       \
	"time steps with dls simulate --steps"

/* 1 for WF and AWF: their first weights are given (sched_params.acp), and a
 * PE of weight 0 is never served. */
int sched_kind_is_weighted(enum sched_kind k);

#ifdef __cplusplus
}
#endif
#endif
