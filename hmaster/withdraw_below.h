/*
 * withdraw_below.h - an hmaster of either mode counting one slave fewer
 * below it: the launcher saw that slave exit before it registered
 * (HMaster::withdraw), so the hmaster registers with its parent once the
 * others are in.  The owner holds its lock.
 */
#ifndef DLS_WITHDRAW_BELOW_H
#define DLS_WITHDRAW_BELOW_H

/*
 * *expected slaves are awaited below, `registered` of them are in, `over`
 * says that the registration went up already (or the hmaster resumed),
 * `in` that `name` is among those registered (roster_names_match).
 * DLS_OK with *expected one smaller (logged); DLS_ESTATE with why
 * (HMASTER_WHY_LEN) when it is over, the slave registered, or every other
 * slave awaited is in.
 */
int withdraw_below(int *expected, int registered, int over, int in, const char *name, char *why);

#endif
