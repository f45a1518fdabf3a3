/*
 * sched_internal.h - the scheduler's state, shared by sched.c and the
 * per-technique modules (sched_tss.c, sched_fss.c, sched_fiss.c,
 * sched_tfss.c, sched_wf.c, sched_adapt.c).  Not a public header.
 */
#ifndef DLS_SCHED_INTERNAL_H
#define DLS_SCHED_INTERNAL_H

#include "dls_math.h"
#include "dls_sched.h"

/* What an adaptive technique learnt of one PE (sched_adapt.c). */
struct sched_pe_est {
	int64_t chunks;		       /* measured so far */
	double wt_comp, wt_elapsed, wn; /* AWF: sum k t_k (compute, elapsed), sum k n_k */
	double sum_t, sum_n, sum_t2n;  /* AF: sum t_k, sum n_k, sum t_k^2 / n_k */
	int64_t acp;		       /* --rates measured: the A_k it last reported */
	double wt_load;		       /* sum k t_k A_k: t_k at the A_k it reported */
	int probes;		       /* AWF-B/D: probes handed out before a measurement */
	double ws_t, ws_n;	       /* AWF: sum j t_k, sum j n_k, j the chunk's time step */
};

struct sched {
	struct sched_params p; /* copy; p.acp is not used after create */
	int distributed;       /* one slot per unit of A_k, ACPSA rule */
	int64_t total;	       /* I */
	int64_t remaining;     /* R: not yet assigned */
	int64_t next_start;    /* first unassigned iteration */
	int64_t i0;	       /* I of the last (re)computation */
	int64_t units;	       /* p := npes (simple) or A (distributed) */
	int64_t slot;	       /* S: slots consumed since the last (re)computation */
	int64_t requests;      /* requests served since the last (re)computation */
	int64_t *acpsa;	       /* A_i the parameters were computed with */
	int64_t *cur;	       /* latest reported A_i */
	int recomputations;

	/* TSS family (TSS, DTSS, TFSS, DTFSS) */
	int64_t F, L, N, D;

	/* FSS family: stage values computed on demand, with their R_j */
	int64_t *stage_val;
	int64_t *stage_rem;
	size_t nstages, stage_cap;

	/* FISS family: C_0 and the bump B = b_num / b_den */
	int64_t c0;
	dls_i128 b_num, b_den;

	/* WF: the remaining count at the start of the current batch */
	int64_t batch_rem;
	int64_t weight_sum;
	int64_t batch_served; /* AWF-B/D: batch chunks served, probes not counted */

	/* STATIC, FSC, mFSC: the chunk; adaptive: per-PE estimates (npes) */
	int64_t fixed_chunk;
	struct sched_pe_est *est;
	int learns; /* keeps the estimates whatever the technique (auto) */

	struct sched_auto *sel; /* --scheme auto: the selector, else NULL */

	int64_t step;  /* the time step, from 1 (sched_next_step) */
	double *awf_w; /* AWF: the step's weights (sum npes); NULL: the given ones */
};

/* The core (sched_core.c) as sched.c's public functions wrap it: create,
 * destroy, report, serve and next_step are sched_create, ... without the
 * selector;
 * auto's kind starts as SS and keeps every estimate. */
int sched_core_create(const struct sched_params *p, struct sched **out);
void sched_core_destroy(struct sched *s);
int sched_core_report(struct sched *s, int pe, int64_t acp);
int sched_core_serve(struct sched *s, int pe, int64_t acp, struct dls_range *out);
int sched_core_next_step(struct sched *s);
/* Runs kind (simple or adaptive; FSC with h and sigma) over what remains,
 * as if the loop began now, keeping what was learnt.  DLS_OK, DLS_EINVAL
 * for a kind that cannot take over (distributed, WF, auto) or bad FSC
 * parameters, DLS_ENOMEM. */
int sched_core_switch(struct sched *s, enum sched_kind kind, double fsc_h, double fsc_sigma);

/* What the adaptive techniques learn from one checked measurement. */
void sched_adapt_measure(struct sched *s, int pe, int64_t count, double compute_s,
			 double elapsed_s);

/* --rates measured: PE pe's A_k from the measured rates and the loads
 * reported, round(slowest time per iteration now / pe's), in
 * 1..SCHED_MAX_ACP; `reported` until pe has measured a chunk.  Keeps
 * `reported` as pe's current A_k (sched_adapt.c says how it is used). */
int64_t sched_adapt_rate_acp(struct sched *s, int pe, int64_t reported);

/* --scheme auto (sched_auto.c): attaches a selector to s (created as
 * SCHED_AUTO); takes one checked measurement; decides, before a chunk is
 * served, whether to switch technique; at a new time step, decides at once
 * from what the steps before measured (no probe again); frees the
 * selector. */
int sched_auto_attach(struct sched *s);
void sched_auto_observe(struct sched *s, int pe, int64_t count, double compute_s,
			double elapsed_s);
int sched_auto_checkpoint(struct sched *s);
int sched_auto_new_step(struct sched *s);
void sched_auto_free(struct sched_auto *a);

/* Computes the parameters of s's technique for I := s->i0, p := s->units. */
void sched_tss_setup(struct sched *s);
int sched_fss_setup(struct sched *s);
void sched_fiss_setup(struct sched *s);

/* Untruncated sum of the unit values g(slot) for slots [first, first + n). */
dls_i128 sched_tss_slots(const struct sched *s, int64_t first, int64_t n);
/* Stage value c_j of the FSS family; DLS_ENOMEM is reported as 0. */
int64_t sched_fss_stage(struct sched *s, int64_t j);
int64_t sched_fiss_stage(const struct sched *s, int64_t j);
int64_t sched_tfss_stage(const struct sched *s, int64_t j);
/* WF's chunk for a request of PE pe (untruncated). */
int64_t sched_wf_chunk(struct sched *s, int pe);
/* STATIC, FSC, mFSC: the fixed chunk; adaptive: the estimates.  DLS_OK or
 * DLS_ENOMEM. */
int sched_adapt_setup(struct sched *s);
/* The chunk of a fixed-size or adaptive technique for PE pe, >= 1. */
int64_t sched_adapt_chunk(struct sched *s, int pe);
/* AWF at the start of a time step: the weights from every step so far.
 * DLS_OK or DLS_ENOMEM. */
int sched_adapt_new_step(struct sched *s);

#endif
