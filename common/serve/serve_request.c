/*
 * serve_request.c - see serve_request.h.
 */
#include "serve_request.h"

int serve_request(const struct serve_steps *s, void *ctx, const struct dls_request *req,
		  struct dls_reply *out, char *why)
{
	struct dls_request own = *req;
	int rc, retry = 0;

	rc = s->admit(ctx, req->slave_id, req->key, why);
	if (!rc)
		rc = s->keep(ctx, req->slave_id, &own.results, &own.nresults, why);
	if (!rc)
		rc = s->take(ctx, &own, out, &retry, why);
	if (rc || retry)
		return rc;
	rc = s->record(ctx, &own, why);
	if (!rc)
		rc = s->serve(ctx, &own, out, why);
	if (!rc)
		s->remember(ctx, &own, out);
	return s->after ? s->after(ctx, &own, out, rc, why) : rc;
}
