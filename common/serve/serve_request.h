/*
 * serve_request.h - the steps of a child's request, in the one order that
 * the master and a two-level hmaster both follow; each owner fills in what
 * each step means for it (struct serve_steps):
 *
 *   1. admit    the caller may call: its capability, and a child declared
 *               lost that shows it is taken back;
 *   2. keep     the piggy-backed results as the owner takes them (a child
 *               taken back keeps only those of work it still holds);
 *   3. take     serve_take's checks (a retry is answered with the earlier
 *               reply and goes no further), then the values of the results
 *               it marked;
 *   4. record   the results committed, what the request reports recorded;
 *   5. serve    the reply, in the request's turn (ACPSA order);
 *   6. remember the reply, for a retry;
 *   7. after    what the owner does once the request is served or refused
 *               after step 3 (the master journals it); may be NULL.
 *
 * A refusal at a step skips the steps after it but `after`.  Not
 * thread-safe: the owner holds its lock around serve_request.
 */
#ifndef DLS_SERVE_REQUEST_H
#define DLS_SERVE_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An owner's steps (ctx: its own state for one request); each returns
 * DLS_OK or a refusal with why filled. */
struct serve_steps {
	int (*admit)(void *ctx, int id, uint64_t key, char *why);
	/* may point *res at a copy it owns (blocks dropped) and change *n */
	int (*keep)(void *ctx, int id, const struct dls_result **res, size_t *n, char *why);
	int (*take)(void *ctx, const struct dls_request *r, struct dls_reply *out, int *retry,
		    char *why);
	int (*record)(void *ctx, const struct dls_request *r, char *why);
	int (*serve)(void *ctx, const struct dls_request *r, struct dls_reply *out, char *why);
	void (*remember)(void *ctx, const struct dls_request *r, const struct dls_reply *out);
	int (*after)(void *ctx, const struct dls_request *r, struct dls_reply *out, int rc,
		     char *why);
};

/*
 * Runs request req of one child through the steps (above) with ctx: DLS_OK
 * with *out the reply (WORK, WAIT, DONE, or a retry's earlier reply), or
 * the refusal of the first step that refused (or of `after`), with why;
 * *out is then as the steps left it (untouched before `take`).
 */
int serve_request(const struct serve_steps *s, void *ctx, const struct dls_request *req,
		  struct dls_reply *out, char *why);

#ifdef __cplusplus
}
#endif

#endif
