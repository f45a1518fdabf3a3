// slave_embed.cc - dls/embed.h's ORB and slave thread: a slave on the
// program's ORB (or a private one) running in a thread of its own.
#include "slave_embed.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <new>

#include "dls/embed.hh"
#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "orb_util.hh"
#include "run_auth.h"
#include "sized_options.h"
#include "slave_client.hh"

int dls_embed_use_orb(CORBA::ORB_ptr orb, PortableServer::POA_ptr poa)
{
	if (CORBA::is_nil(orb) || CORBA::is_nil(poa))
		return DLS_EINVAL;
	return CORBA::is_nil(dls_orb()) ? dls_orb_adopt(orb, poa) : DLS_ESTATE;
}

extern "C" int dls_orb_start(int *argc, char **argv, int call_timeout_ms)
{
	if (!CORBA::is_nil(dls_orb()))
		return DLS_ESTATE;
	return dls_orb_init(argc, argv, call_timeout_ms > 0 ? call_timeout_ms : 10000);
}

extern "C" void dls_orb_stop(void)
{
	dls_orb_destroy();
}

extern "C" void dls_embed_slave_options_init_size(struct dls_embed_slave_options *o,
						  size_t size)
{
	struct dls_embed_slave_options d;
	struct slave_config c;

	slave_config_init(&c);
	memset(&d, 0, sizeof(d));
	d.master = "master";
	d.connect_timeout_ms = 20000;
	d.register_timeout_ms = 60000;
	d.call_timeout_ms = 10000;
	d.name = "slave";
	d.speed = c.speed;
	d.emulated = 0; /* the program's real speed */
	d.load = "1";
	d.t_iter_ns = c.t_iter_ns;
	d.poll_ms = c.poll_ms;
	d.retries = c.retries;
	d.retry_delay_ms = c.retry_delay_ms;
	d.patience_ms = c.patience_ms;
	d.overlap = c.overlap;
	d.low_priority = c.low_priority;
	sized_options_init(o, size, &d, sizeof(d));
}

extern "C" int slave_embed_options(const struct dls_embed_slave_options *given,
				   struct dls_embed_slave_options *full, char *why, size_t len)
{
	dls_embed_slave_options_init(full);
	if (sized_options_merge(full, sizeof(*full), given)) {
		snprintf(why, len, "options not made by dls_embed_slave_options_init");
		return DLS_EINVAL;
	}
	return DLS_OK;
}

/* A bad option's line: DLS_EINVAL with why. */
static int bad_option(char *why, size_t len, const char *what, const char *cause)
{
	snprintf(why, len, "%s: %s", what, cause);
	return DLS_EINVAL;
}

/* The slave core's configuration from the program's options (merged):
 * DLS_OK, or DLS_EINVAL with why naming the option, its value and why. */
static int slave_config_from(const struct dls_embed_slave_options *o, struct slave_config *c,
			     char *why, size_t len)
{
	char what[128];
	const char *cause;

	slave_config_init(c);
	snprintf(what, sizeof(what), "name '%.60s'", o->name ? o->name : "");
	if (!o->name || !*o->name || strlen(o->name) >= sizeof(c->name))
		return bad_option(why, len, what, "1..63 characters are required");
	snprintf(what, sizeof(what), "speed %g", o->speed);
	if (!(o->speed > 0) || !isfinite(o->speed))
		return bad_option(why, len, what, "must be a number above 0");
	snprintf(what, sizeof(what), "declared_speed %g", o->declared_speed);
	if (!(o->declared_speed >= 0) || !isfinite(o->declared_speed))
		return bad_option(why, len, what, "must be 0 (speed's) or above");
	snprintf(what, sizeof(what), "load '%.60s'", o->load ? o->load : "");
	if (!o->load || (cause = emul_steps_parse(o->load, &c->load)))
		return bad_option(why, len, what, o->load ? cause : "a schedule is required");
	snprintf(what, sizeof(what), "t_iter_ns %g", o->t_iter_ns);
	if (!(o->t_iter_ns >= 0) || !isfinite(o->t_iter_ns))
		return bad_option(why, len, what, "must be 0 or above");
	snprintf(what, sizeof(what), "link_latency_us %g, q_override %g", o->link_latency_us,
		 o->q_override);
	if (!(o->link_latency_us >= 0) || !isfinite(o->link_latency_us) ||
	    !(o->q_override >= 0) || !isfinite(o->q_override))
		return bad_option(why, len, what, "each must be 0 or above");
	snprintf(what, sizeof(what), "poll_ms %d, retries %d, retry_delay_ms %d, rejoin_ms %d, "
				     "patience_ms %d", o->poll_ms, o->retries, o->retry_delay_ms,
		 o->rejoin_ms, o->patience_ms);
	if (o->poll_ms < 1 || o->retries < 1 || o->retry_delay_ms < 0 || o->rejoin_ms < 0 ||
	    o->patience_ms < 0)
		return bad_option(why, len, what,
				  "poll_ms and retries must be 1 or more, the others 0 or more");
	snprintf(c->name, sizeof(c->name), "%s", o->name);
	c->speed = o->speed;
	c->declared_speed = o->declared_speed;
	c->emulated = o->emulated != 0;
	c->t_iter_ns = o->t_iter_ns;
	c->link_latency_us = o->link_latency_us;
	c->q_override = o->q_override;
	c->poll_ms = o->poll_ms;
	c->retries = o->retries;
	c->retry_delay_ms = o->retry_delay_ms;
	c->rejoin_ms = o->rejoin_ms;
	c->patience_ms = o->patience_ms;
	c->overlap = o->overlap != 0;
	c->low_priority = o->low_priority != 0;
	c->body = o->body;
	c->body_ctx = o->body_ctx;
	c->body_job = o->body_job;
	return DLS_OK;
}

extern "C" double dls_calibrate(int ms)
{
	return slave_calibrate(ms);
}

struct dls_embed_slave {
	pthread_t thread;
	slave_client c;
	struct slave_config cfg;
	struct slave_orb_opts oo;
	char run[64], leaf[64];
	struct run_secret secret;
	struct dls_slave_stats st;
	int rc;
	char why[256];
	void (*on_end)(void *);
	void *end_ctx;
};

static void *slave_thread(void *arg)
{
	struct dls_embed_slave *s = (struct dls_embed_slave *)arg;
	char label[80];

	snprintf(label, sizeof(label), "slave '%s'", s->cfg.name);
	dls_log_set_thread_label(label); /* two slaves of one program told apart */
	dls_precise_timers(); /* this thread only: the emulation's sleeps end on time */
	s->rc = slave_client_run(&s->c, &s->cfg, &s->oo, &s->st, s->why, sizeof(s->why));
	slave_client_unbind(&s->c);
	if (s->on_end)
		s->on_end(s->end_ctx);
	return NULL;
}

extern "C" int slave_embed_start(const struct dls_embed_slave_options *given,
				 void (*on_end)(void *), void *end_ctx,
				 struct dls_embed_slave **out, char *why, size_t len)
{
	struct dls_embed_slave_options full, *o = &full;
	struct slave_config cfg;
	struct dls_embed_slave *s;
	int rc;

	*out = NULL;
	if ((rc = slave_embed_options(given, &full, why, len)) ||
	    (rc = slave_config_from(o, &cfg, why, len)))
		return rc;
	if (!o->run || !*o->run || strchr(o->run, '/') || strlen(o->run) >= 64 ||
	    (o->master && strlen(o->master) >= 64)) {
		snprintf(why, len, "run '%s': a name of 1..63 characters without '/' is required",
			 o->run ? o->run : "");
		return DLS_EINVAL;
	}
	s = new (std::nothrow) dls_embed_slave();
	if (!s) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	if (run_secret_load(&s->secret, o->secret_file, why, len)) {
		delete s;
		return DLS_EINVAL;
	}
	snprintf(s->run, sizeof(s->run), "%s", o->run);
	snprintf(s->leaf, sizeof(s->leaf), "%s", o->master ? o->master : "master");
	s->cfg = cfg;
	s->oo = {s->run,
		 o->master_ior,
		 s->leaf,
		 NULL,
		 o->connect_timeout_ms,
		 o->register_timeout_ms,
		 o->call_timeout_ms,
		 &s->secret};
	s->on_end = on_end;
	s->end_ctx = end_ctx;
	rc = slave_client_connect(&s->c, &s->oo, why, len);
	if (!rc && pthread_create(&s->thread, NULL, slave_thread, s)) {
		snprintf(why, len, "cannot start the slave's thread");
		slave_client_deactivate(&s->c);
		rc = DLS_ENOMEM;
	}
	if (rc) {
		delete s;
		return rc;
	}
	*out = s;
	return DLS_OK;
}

extern "C" int dls_embed_slave_start(const struct dls_embed_slave_options *o,
				     struct dls_embed_slave **out, char *why, size_t len)
{
	return slave_embed_start(o, NULL, NULL, out, why, len);
}

extern "C" void dls_embed_slave_stop(struct dls_embed_slave *s)
{
	if (s && s->c.servant)
		s->c.servant->request_stop("the program asked");
}

extern "C" int dls_embed_slave_wait(struct dls_embed_slave *s, struct dls_slave_stats *st, char *why,
				    size_t len)
{
	int rc;

	pthread_join(s->thread, NULL);
	slave_client_deactivate(&s->c);
	rc = s->rc;
	if (st)
		*st = s->st;
	snprintf(why, len, "%s", s->why);
	delete s;
	return rc;
}
