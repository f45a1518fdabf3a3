/*
 * hmaster_mode.h - what an hmaster's two modes share: the parent's
 * operations, and the table of functions each mode fills over a core of
 * its own (relay.c: hmaster_relay_mode; twolevel.c: hmaster_twolevel_mode).
 * The façade (hmaster.c) chooses the table when the hmaster is created and
 * calls it for every operation that differs by mode; hmaster.h states what
 * each operation does in each mode.
 */
#ifndef DLS_HMASTER_MODE_H
#define DLS_HMASTER_MODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HMASTER_WHY_LEN 256

/* Why a resumed hmaster refuses a registration. */
#define HMASTER_RESUMED_REFUSES                                                                  \
	"this hmaster resumed one that died: its slaves rejoin it, none registers"

enum hmaster_mode { HMASTER_RELAY, HMASTER_TWOLEVEL };

/* The parent's operations (the IDL DLS::Master operations an hmaster uses:
 * the group ones in relay mode, register_cluster and request in two-level). */
struct hmaster_parent {
	void *ctx;
	int (*register_group)(void *ctx, const char *const *names, const double *speeds, size_t n,
			      int *ids, uint64_t *keys, double *vpowers, struct dls_job *job,
			      char *why, size_t len);
	int (*request_group)(void *ctx, const struct dls_request *reqs, size_t n,
			     struct dls_reply *out, char *why, size_t len);
	int (*submit)(void *ctx, int slave_id, uint64_t key, const struct dls_result *res, size_t n,
		      char *why, size_t len);
	int (*slave_lost)(void *ctx, int slave_id, uint64_t key, const char *cause, char *why,
			  size_t len);
	int (*register_cluster)(void *ctx, const double *speeds, size_t n, int *id, uint64_t *key,
				double *vpowers, struct dls_job *job, char *why, size_t len);
	int (*request)(void *ctx, const struct dls_request *req, struct dls_reply *out, char *why,
		       size_t len);
	/* a resumed relay hmaster: a child's rejoin, passed up (Master::rejoin) */
	int (*rejoin)(void *ctx, int slave_id, uint64_t key, double *vpower, struct dls_job *job,
		      char *why, size_t len);
	/* Checks the parent, within timeout_ms: DLS_OK when it answers (or,
	 * where this hmaster may rejoin, a successor bound under its name
	 * answers), DLS_ETIMEDOUT when it took the ping and did not answer in
	 * time, else DLS_EREMOTE; why says what failed (parent_watch.h). */
	int (*reach)(void *ctx, int timeout_ms, char *why, size_t len);
};

struct dls_status;

/*
 * One mode's functions over its core.  Each does what the hmaster_*
 * function of the same name says (hmaster.h) for this mode; why is
 * HMASTER_WHY_LEN octets.  The façade lets callers in and out and keeps
 * the registrations' memo; the core does everything else.
 */
struct hmaster_mode_ops {
	enum hmaster_mode mode;
	/* A core and its forwarding thread started (NULL, with *err). */
	void *(*create)(const char *name, int nslaves, int register_timeout_ms,
			double link_latency_us, const struct hmaster_parent *parent, int *err);
	/* Ends every wait inside (those callers are refused); the core stays valid. */
	void (*stop)(void *core);
	/* stop, joins the forwarding thread and frees the core. */
	void (*destroy)(void *core);
	int (*withdraw)(void *core, const char *name, char *why);
	void (*keep_record)(void *core, const char *path);
	int (*resume)(void *core, const char *record, char *why);
	int (*rejoin)(void *core, int slave_id, uint64_t key, double *vpower, struct dls_job *job,
		      char *why);
	int (*resumed_idle)(void *core);
	/* DLS_OK, or DLS_ESTATE with why where the core refuses every
	 * registration before it is asked (a resumed two-level hmaster). */
	int (*may_register)(void *core, char *why);
	/* A registration not asked before (the façade answers one asked again). */
	int (*register_below)(void *core, const char *const *names, const double *speeds, size_t n,
			      int *ids, uint64_t *keys, double *vpowers, struct dls_job *job,
			      char *why);
	int (*request)(void *core, const struct dls_request *reqs, size_t n, struct dls_reply *out,
		       char *why);
	int (*submit)(void *core, int slave_id, uint64_t key, const struct dls_result *res,
		      size_t n, char *why);
	int (*check_caller)(void *core, int slave_id, uint64_t key, char *why);
	uint64_t (*child_key)(void *core, int slave_id);
	int (*slave_lost)(void *core, int slave_id, const char *cause);
	size_t (*slaves_holding)(void *core, int *ids, size_t max);
	int (*wait_finished)(void *core, int timeout_ms);
	int (*snapshot)(void *core, struct dls_status *out);
	void (*report)(void *core, FILE *out);
};

/* Relay mode (relay.c). */
extern const struct hmaster_mode_ops hmaster_relay_mode;
/* Two-level mode (twolevel.c). */
extern const struct hmaster_mode_ops hmaster_twolevel_mode;

#ifdef __cplusplus
}
#endif
#endif
