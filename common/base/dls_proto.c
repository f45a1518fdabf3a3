/*
 * dls_proto.c - the few functions of the protocol's C types.
 */
#include "dls_proto.h"

#include <stdlib.h>

void dls_status_free(struct dls_status *s)
{
	free(s->slaves);
	s->slaves = NULL;
}

const char *dls_slave_state_name(enum dls_slave_state s)
{
	static const char *const names[] = {"registered", "active", "waiting", "done", "lost"};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}
