/*
 * job.h - what a run is, as a program sees it: the workload's parameters,
 * the job a slave is given when it registers (and, in a run of many loops,
 * at each loop's start), and a slave's running times.  The same fields
 * travel as the IDL's Param, JobSpec and SlaveTimes (PROTOCOL.md 3).
 */
#ifndef DLS_JOB_H
#define DLS_JOB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* No message carries more result octets than this (IDL MAX_RESULT_BYTES):
 * a loop's result_bytes per iteration is at most this. */
#define DLS_MAX_RESULT_BYTES (1 << 20)

/* A workload's parameters: name = value, both text (IDL Param). */
#define DLS_MAX_PARAMS 16
#define DLS_PARAM_NAME_LEN 32
#define DLS_PARAM_VALUE_LEN 64
struct dls_param {
	char name[DLS_PARAM_NAME_LEN];
	char value[DLS_PARAM_VALUE_LEN];
};

/* dls_job.order: the order of the loop's iterations (PROTOCOL.md 4). */
enum dls_order { DLS_ORDER_NATURAL, DLS_ORDER_INTERLEAVED };

/* dls_job.collect: results ride on the next request, or come at the end. */
enum dls_collect { DLS_COLLECT_PIGGYBACK, DLS_COLLECT_END };

/* The run's scheme and its options (IDL SchemeSpec): kind and profile are
 * the master's own numbering, told so that a slave can tell runs apart;
 * DLS_SCHEME_DECENTRALIZED (-1) is Tree Scheduling's and its policies'. */
#define DLS_SCHEME_DECENTRALIZED (-1)
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
	int order;   /* DLS_ORDER_NATURAL or DLS_ORDER_INTERLEAVED (PROTOCOL.md 4) */
	int collect; /* DLS_COLLECT_PIGGYBACK or DLS_COLLECT_END */
	struct dls_scheme scheme;
};

/* A slave's running totals (IDL SlaveTimes). */
struct dls_times {
	double t_comp, t_comwait;
	double emul_error; /* sum of |end - emulated end| over chunks */
	double emul_bias;  /* sum of (end - emulated end): > 0 when late */
	int64_t late_chunks;
	double t_collect; /* sending results (Tree Scheduling reports) */
};

#ifdef __cplusplus
}
#endif
#endif
