/*
 * master_turn.c - the requests held to a loop's end, queued at its end by
 * the thread that ended it (master_turn.h).
 */
#include "master_turn.h"

void master_unlist_held(struct master *m, struct turn *t)
{
	for (struct turn **at = &m->held_turns; *at; at = &(*at)->next_held)
		if (*at == t) {
			*at = t->next_held;
			return;
		}
}

void master_queue_held(struct master *m)
{
	struct turn *t;

	while ((t = m->held_turns)) {
		int id = t->held->slave_id;

		m->held_turns = t->next_held;
		if (m->roster.v[id].info.state == DLS_SLAVE_LOST)
			continue; /* its thread finds it so: the WAIT stands */
		m->children[id].first_request_pending = 1;
		serve_queue_join(&m->queue, &t->w, t->held->acp);
		t->joined = 1;
	}
}
