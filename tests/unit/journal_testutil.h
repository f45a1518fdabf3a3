/*
 * journal_testutil.h - what a forger who knows a journal's key does after
 * editing it: computes its chain of MACs again, so that the tests reach
 * the checks of a replay that come after the MACs' (a run without a
 * secret has the empty key, which anyone knows).
 */
#ifndef DLS_JOURNAL_TESTUTIL_H
#define DLS_JOURNAL_TESTUTIL_H

#include "journal_mac.h"

/* Rewrites every MAC of the journal at path under key (NULL: the empty
 * key), in order.  0, or -1 when the database cannot be read or written. */
int tu_journal_rechain(const char *path, const struct journal_key *key);

#endif
