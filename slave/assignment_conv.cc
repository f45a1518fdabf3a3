// assignment_conv.cc - a TreeAssignment as a placement (assignment_conv.hh).
#include "assignment_conv.hh"

#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "pile_policy.h"
#include "proto_conv.hh"
#include "tree_migrate.h"

int slave_assignment_in(const DLS::TreeAssignment &r, struct placement *a, char *why, size_t len)
{
	enum tree_gamma g = TREE_GAMMA_HALF;

	memset(a, 0, sizeof(*a));
	a->id = r.reg.slave_id;
	a->vpower = r.reg.virtual_power;
	if (proto_job_in(r.reg.job, &a->job, why, len))
		return DLS_EINVAL;
	a->start = r.start;
	a->count = r.count;
	a->stride = r.stride;
	a->tau = r.tau;
	a->left_id = r.left_id;
	a->right_id = r.right_id;
	a->left_tau = r.left_tau;
	a->right_tau = r.right_tau;
	a->report_interval = r.report_interval;
	if (tree_migrate_gamma_parse(r.gamma, &g)) {
		snprintf(why, len, "unknown gamma '%s'", (const char *)r.gamma);
		return DLS_EINVAL;
	}
	a->gamma = g;
	a->bidirectional = r.bidirectional;
	if (strcmp(r.policy, "trees")) { // workpile, roc or ripple
		if (pile_policy_parse(r.policy, &a->policy)) {
			snprintf(why, len, "unknown policy '%s'", (const char *)r.policy);
			return DLS_EINVAL;
		}
		proto_pile_params_in(r.pile, &a->pile);
		const char *bad = pile_params_check(a->policy, &a->pile, (int)r.npes);

		if (bad || a->id < 0 || a->id >= (int)r.npes) {
			snprintf(why, len, "policy '%s': %s", (const char *)r.policy,
				 bad ? bad : "this slave's id is not among the run's");
			return DLS_EINVAL;
		}
		a->piles = 1;
		a->npes = (int)r.npes;
	}
	return DLS_OK;
}

