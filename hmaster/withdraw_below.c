/*
 * withdraw_below.c - one slave fewer awaited below an hmaster (withdraw_below.h).
 */
#include "withdraw_below.h"

#include <stdio.h>

#include "dls/err.h"
#include "dls_log.h"
#include "hmaster.h"

int withdraw_below(int *expected, int registered, int over, int in, const char *name, char *why)
{
	if (over) {
		snprintf(why, HMASTER_WHY_LEN, "withdraw '%s': registration is over", name);
		return DLS_ESTATE;
	}
	if (in) {
		snprintf(why, HMASTER_WHY_LEN, "withdraw '%s': it registered below this hmaster",
			 name);
		return DLS_ESTATE;
	}
	if (*expected - 1 < 1 || *expected - 1 < registered) {
		snprintf(why, HMASTER_WHY_LEN,
			 "withdraw '%s': %d of the %d slaves expected below registered", name,
			 registered, *expected);
		return DLS_ESTATE;
	}
	(*expected)--;
	log_warn("'%s' withdrawn below this hmaster: %d of %d expected are in", name, registered,
		 *expected);
	return DLS_OK;
}
