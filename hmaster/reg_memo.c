/*
 * reg_memo.c - the registrations an hmaster answered (see reg_memo.h).
 */
#include "reg_memo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"

struct reg_memo_entry {
	uint64_t caller;
	char name[64];
	size_t n, nids;
	int done;		  /* answered (the fields below are set) */
	double *speeds, *vpowers; /* n each */
	int *ids;		  /* nids */
	uint64_t *keys;		  /* nids */
	struct dls_job job;
	struct reg_memo_entry *next;
};

int reg_memo_init(struct reg_memo *m)
{
	memset(m, 0, sizeof(*m));
	if (pthread_mutex_init(&m->lock, NULL))
		return DLS_ENOMEM;
	if (dls_cond_init(&m->cond)) {
		pthread_mutex_destroy(&m->lock);
		return DLS_ENOMEM;
	}
	return DLS_OK;
}

static void entry_free(struct reg_memo_entry *e)
{
	free(e->speeds);
	free(e->vpowers);
	free(e->ids);
	free(e->keys);
	free(e);
}

void reg_memo_free(struct reg_memo *m)
{
	while (m->head) {
		struct reg_memo_entry *e = m->head;

		m->head = e->next;
		entry_free(e);
	}
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
}

void reg_memo_close(struct reg_memo *m)
{
	pthread_mutex_lock(&m->lock);
	m->closing = 1;
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
}

/* The entry of that registration, or NULL; the lock is held. */
static struct reg_memo_entry *find(const struct reg_memo *m, uint64_t caller, const char *name,
				   const double *speeds, size_t n)
{
	for (struct reg_memo_entry *e = m->head; e; e = e->next)
		if (e->caller == caller && e->n == n &&
		    !strncmp(e->name, name, sizeof(e->name) - 1) &&
		    !memcmp(e->speeds, speeds, n * sizeof(*speeds)))
			return e;
	return NULL;
}

/* A new entry in progress at the head, or NULL (no memory). */
static struct reg_memo_entry *add(struct reg_memo *m, uint64_t caller, const char *name,
				  const double *speeds, size_t n, size_t nids)
{
	struct reg_memo_entry *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->speeds = malloc(n * sizeof(*e->speeds));
	e->vpowers = calloc(n, sizeof(*e->vpowers));
	e->ids = calloc(nids, sizeof(*e->ids));
	e->keys = calloc(nids, sizeof(*e->keys));
	if (!e->speeds || !e->vpowers || !e->ids || !e->keys) {
		entry_free(e);
		return NULL;
	}
	e->caller = caller;
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->n = n;
	e->nids = nids;
	memcpy(e->speeds, speeds, n * sizeof(*speeds));
	e->next = m->head;
	m->head = e;
	return e;
}

static void unlink_entry(struct reg_memo *m, struct reg_memo_entry *e)
{
	for (struct reg_memo_entry **at = &m->head; *at; at = &(*at)->next)
		if (*at == e) {
			*at = e->next;
			return;
		}
}

int reg_memo_begin(struct reg_memo *m, uint64_t caller, const char *name, const double *speeds,
		   size_t n, size_t nids, struct reg_memo_entry **slot, int *asked_before, int *ids,
		   uint64_t *keys, double *vpowers, struct dls_job *job, char *why, size_t len)
{
	struct reg_memo_entry *e;
	int rc = DLS_OK;

	*slot = NULL;
	*asked_before = 0;
	if (!caller || n == 0 || nids == 0)
		return DLS_OK;
	pthread_mutex_lock(&m->lock);
	e = find(m, caller, name, speeds, n);
	if (e)
		log_warn("'%s' registered again by the same process (the answer to its "
			 "registration was lost): it gets the answer of its first call",
			 name);
	/* in progress: wait for its answer (kept, or forgotten after a refusal) */
	while (e && !e->done && !m->closing) {
		pthread_cond_wait(&m->cond, &m->lock);
		e = find(m, caller, name, speeds, n);
	}
	if (m->closing) {
		snprintf(why, len, "the hmaster is stopping");
		rc = DLS_ESTATE;
	} else if (e && e->nids == nids) {
		*asked_before = 1;
		memcpy(ids, e->ids, nids * sizeof(*ids));
		memcpy(keys, e->keys, nids * sizeof(*keys));
		memcpy(vpowers, e->vpowers, n * sizeof(*vpowers));
		*job = e->job;
	} else if (!e && !(*slot = add(m, caller, name, speeds, n, nids))) {
		snprintf(why, len, "out of memory");
		rc = DLS_ENOMEM;
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

void reg_memo_end(struct reg_memo *m, struct reg_memo_entry *slot, int rc, const int *ids,
		  const uint64_t *keys, const double *vpowers, const struct dls_job *job)
{
	if (!slot)
		return;
	pthread_mutex_lock(&m->lock);
	if (rc) {
		unlink_entry(m, slot);
		entry_free(slot);
	} else {
		memcpy(slot->ids, ids, slot->nids * sizeof(*ids));
		memcpy(slot->keys, keys, slot->nids * sizeof(*keys));
		memcpy(slot->vpowers, vpowers, slot->n * sizeof(*vpowers));
		slot->job = *job;
		slot->done = 1;
	}
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
}
