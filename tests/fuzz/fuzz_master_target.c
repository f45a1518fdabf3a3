/*
 * fuzz_master_target.c - the master core's side of fuzz_run.h
 * (fz_master_target): fuzz_master.c and fuzz_journal.c drive a master
 * through it.
 */
#include "dls/err.h"
#include "fuzz_run.h"
#include "master.h"

static int m_request(void *ctx, const struct dls_request *r, struct dls_reply *out, char *why)
{
	return master_request(ctx, r, out, why);
}

static int m_submit(void *ctx, int id, uint64_t key, const struct dls_result *res, size_t n,
		    char *why)
{
	return master_submit(ctx, id, key, res, n, why);
}

static uint64_t m_key(void *ctx, int id)
{
	return master_child_key(ctx, id);
}

static int m_lost(void *ctx, int id)
{
	return master_slave_lost(ctx, id, "fuzz");
}

static int m_rejoin(void *ctx, int id, uint64_t key, char *why)
{
	double v;

	return master_rejoin(ctx, id, key, &v, why);
}

static int m_snapshot(void *ctx, struct dls_status *out)
{
	return master_snapshot(ctx, out);
}

static int m_done(void *ctx)
{
	return master_wait_done(ctx, 0) == DLS_OK;
}

static const struct result_store *m_results(void *ctx)
{
	return master_results(ctx);
}

const struct fz_target fz_master_target = {m_request, m_submit, m_key,     m_lost,
					       m_rejoin,  m_snapshot, m_done, m_results};
