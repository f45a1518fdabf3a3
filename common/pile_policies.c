/*
 * pile_policies.c - which per-PE rules each policy has (see pile_policy.h);
 * a file of its own so that the rules may use pile_policy.c's helpers
 * without a circle.
 */
#include "pile_policy.h"

const struct pile_policy_ops *pile_policy_ops(enum pile_policy p)
{
	return p == PILE_WORKPILE ? &pile_workpile_ops : p == PILE_ROC ? &pile_roc_ops : NULL;
}
