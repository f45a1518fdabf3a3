// slave_embed.cc - dls/embed.h's ORB and slave thread: a slave on the
// program's ORB (or a private one) running in a thread of its own.
#include "slave_embed.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <new>

#include "dls/embed.hh"
#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "orb_util.hh"
#include "run_auth.h"
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

extern "C" void dls_embed_slave_options_init(struct dls_embed_slave_options *o)
{
	memset(o, 0, sizeof(*o));
	o->master = "master";
	o->connect_timeout_ms = 20000;
	o->register_timeout_ms = 60000;
	o->call_timeout_ms = 10000;
	slave_config_init(&o->slave);
	o->slave.emulated = 0;
}

struct dls_embed_slave {
	pthread_t thread;
	slave_client c;
	struct slave_config cfg;
	struct slave_orb_opts oo;
	char run[64], leaf[64];
	struct run_secret secret;
	struct slave_stats st;
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

extern "C" int slave_embed_start(const struct dls_embed_slave_options *o,
				 void (*on_end)(void *), void *end_ctx,
				 struct dls_embed_slave **out, char *why, size_t len)
{
	struct dls_embed_slave *s;
	int rc;

	*out = NULL;
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
	s->cfg = o->slave;
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

extern "C" int dls_embed_slave_wait(struct dls_embed_slave *s, struct slave_stats *st, char *why,
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
