/*
 * slave_ahead.c - asking ahead (see slave_ahead.h).
 */
#include "slave_ahead.h"

#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"

/* Sends one posted request from this thread, on a copy of the run whose
 * messages and retry accounting are this module's own: the slave's thread
 * meanwhile computes and may write its own. */
static void send_one(struct ahead *a)
{
	struct run view = *a->r;
	struct dls_slave_stats st = *a->r->st;
	double t0 = dls_now();
	int64_t acp = slave_acp(a->r, t0, NULL);

	view.st = &st;
	view.why = a->why;
	view.len = sizeof(a->why);
	view.unreached = 0;
	a->sent = acp >= 1;
	a->rc = DLS_OK;
	pthread_mutex_lock(&a->lock);
	a->on_way = a->sent;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	if (a->sent) {
		a->req.acp = acp;
		a->rc = slave_exchange(&view, &a->out, &a->req, &a->reply);
	}
	/* a second request may wait at the master for its predecessor: not
	 * a round trip */
	if (a->sent && !a->rc && !view.unreached && !a->req.second)
		ahead_note_rtt(a->model, dls_now() - t0, ahead_bytes(&a->out));
	pthread_mutex_lock(&a->lock);
	a->unreached += view.unreached;
	a->finished = 1;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
}

static void *sender(void *arg)
{
	struct ahead *a = arg;

	dls_log_set_thread_label(a->r->log_label);
	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->quit && (!a->posted || a->finished))
			pthread_cond_wait(&a->cond, &a->lock);
		if (a->quit)
			break;
		while (!a->quit && !a->hurry && dls_now() < a->send_at)
			dls_cond_wait_until(&a->cond, &a->lock, a->send_at);
		if (a->quit)
			break;
		pthread_mutex_unlock(&a->lock);
		send_one(a);
		pthread_mutex_lock(&a->lock);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

int ahead_start(struct ahead *a, struct run *r)
{
	memset(a, 0, sizeof(*a));
	a->r = r;
	a->model = a;
	if (pthread_mutex_init(&a->lock, NULL))
		return DLS_ENOMEM;
	if (dls_cond_init(&a->cond)) {
		pthread_mutex_destroy(&a->lock);
		return DLS_ENOMEM;
	}
	if (pthread_create(&a->thread, NULL, sender, a)) {
		pthread_cond_destroy(&a->cond);
		pthread_mutex_destroy(&a->lock);
		return DLS_ENOMEM;
	}
	a->started = 1;
	return DLS_OK;
}

void ahead_stop(struct ahead *a)
{
	if (!a->started)
		return;
	pthread_mutex_lock(&a->lock);
	/* a request not sent yet stays unsent; one on its way finishes first */
	a->quit = 1;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	slave_store_free(&a->out);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
	a->started = 0;
}

/* The exchange the model expects for `bytes` of results: a + b x bytes, by
 * least squares over the moving averages while the sizes seen vary enough
 * (by 10% or more); else the line through the fastest exchange seen (the
 * round trip without results) and the mean one.  Lock held. */
static double expected(const struct ahead *a, double bytes)
{
	double var = a->mxx - a->mx * a->mx, b = 0, a0;

	if (var > 0.01 * a->mx * a->mx && var > 0)
		b = (a->mxy - a->mx * a->my) / var;
	else if (a->mx > 0)
		b = (a->my - a->fastest) / a->mx;
	if (b < 0)
		b = 0;
	a0 = a->my - b * a->mx;
	return (a0 > 0 ? a0 : 0) + b * bytes;
}

void ahead_note_rtt(struct ahead *a, double took, size_t bytes)
{
	double x = (double)bytes, w, err;

	pthread_mutex_lock(&a->lock);
	/* the first exchange waited at the start gate: not a round trip */
	if (a->exchanges++ == 0 || !(took >= 0) || took > 1e6) {
		pthread_mutex_unlock(&a->lock);
		return;
	}
	if (!a->samples || took < a->fastest)
		a->fastest = took;
	w = a->samples++ ? 1.0 / 8 : 1;
	err = a->samples > 1 ? took - expected(a, x) : took / 2;
	a->dev += ((err < 0 ? -err : err) - a->dev) * (a->samples > 1 ? 1.0 / 4 : 1);
	a->mx += w * (x - a->mx);
	a->my += w * (took - a->my);
	a->mxx += w * (x * x - a->mxx);
	a->mxy += w * (x * took - a->mxy);
	pthread_mutex_unlock(&a->lock);
}

double ahead_lead(struct ahead *a, size_t bytes)
{
	double t = 0, e;

	pthread_mutex_lock(&a->lock);
	if (a->samples) {
		e = expected(a, (double)bytes);
		t = e + 4 * a->dev;
		if (t < DLS_SLAVE_LEAD_RTTS * e)
			t = DLS_SLAVE_LEAD_RTTS * e;
	}
	pthread_mutex_unlock(&a->lock);
	return t;
}

double ahead_expected(struct ahead *a, size_t bytes)
{
	double t;

	pthread_mutex_lock(&a->lock);
	t = a->samples ? expected(a, (double)bytes) : 0;
	pthread_mutex_unlock(&a->lock);
	return t;
}

double ahead_round_trip(struct ahead *a)
{
	return ahead_expected(a, 0);
}

double ahead_fastest(struct ahead *a)
{
	double t;

	pthread_mutex_lock(&a->lock);
	t = a->samples ? a->fastest : 0;
	pthread_mutex_unlock(&a->lock);
	return t;
}

size_t ahead_bytes(const struct store *s)
{
	size_t n = 0;

	for (size_t i = 0; s && i < s->n; i++)
		n += s->blocks[i].nbytes;
	return n;
}

void ahead_post(struct ahead *a, const struct dls_request *req, struct store *results, double at)
{
	pthread_mutex_lock(&a->lock);
	a->req = *req;
	a->req.nmeasured = req->nmeasured < DLS_MAX_MEASURED ? req->nmeasured : DLS_MAX_MEASURED;
	if (a->req.nmeasured)
		memcpy(a->measured, req->measured, a->req.nmeasured * sizeof(*a->measured));
	a->req.measured = a->measured;
	slave_store_free(&a->out);
	a->out = *results;
	*results = (struct store){0};
	a->send_at = at;
	a->hurry = 0;
	a->finished = 0;
	a->on_way = 0;
	a->posted = 1;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
}

void ahead_retime(struct ahead *a, double at)
{
	pthread_mutex_lock(&a->lock);
	a->send_at = at;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
}

int ahead_leave(struct ahead *a)
{
	int on;

	pthread_mutex_lock(&a->lock);
	a->hurry = 1;
	pthread_cond_broadcast(&a->cond);
	while (a->posted && !a->on_way && !a->finished)
		pthread_cond_wait(&a->cond, &a->lock);
	on = a->posted && a->on_way && !a->finished;
	pthread_mutex_unlock(&a->lock);
	return on;
}

void ahead_hurry(struct ahead *a)
{
	pthread_mutex_lock(&a->lock);
	a->hurry = 1;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
}

int ahead_wait(struct ahead *a, struct dls_reply *reply, int *sent, struct store *unsent)
{
	int rc;

	pthread_mutex_lock(&a->lock);
	a->hurry = 1;
	pthread_cond_broadcast(&a->cond);
	while (!a->finished)
		pthread_cond_wait(&a->cond, &a->lock);
	a->posted = 0;
	if (a->sent && a->rc == DLS_ESTATE && a->req.second) {
		/* refused as a second request (a resumed master that lost its
		 * predecessor): nothing of it was applied; it goes again as a
		 * request of its own */
		log_warn("%s: the loop asks again", a->why);
		a->sent = 0;
		a->rc = DLS_OK;
	}
	rc = a->rc;
	*sent = a->sent;
	if (a->sent && !rc)
		*reply = a->reply;
	a->r->unreached += a->unreached;
	a->unreached = 0;
	if (rc)
		snprintf(a->r->why, a->r->len, "%s", a->why);
	if (!a->sent && slave_store_take(unsent, &a->out) && !rc) {
		snprintf(a->r->why, a->r->len, "out of memory");
		rc = DLS_ENOMEM;
	}
	slave_store_clear(&a->out);
	pthread_mutex_unlock(&a->lock);
	return rc;
}
