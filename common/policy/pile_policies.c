/*
 * pile_policies.c - which per-PE rules each policy has (see pile_policy.h);
 * a file of its own so that the rules may use pile_policy.c's helpers
 * without a circle.
 */
#include "pile_policy.h"

const struct pile_policy_ops *pile_policy_ops(enum pile_policy p)
{
	switch (p) {
	case PILE_WORKPILE:
		return &pile_workpile_ops;
	case PILE_ROC:
		return &pile_roc_ops;
	case PILE_RIPPLE:
		return &pile_ripple_ops;
	default:
		return NULL;
	}
}
