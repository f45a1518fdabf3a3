// hmaster_parent.hh - an hmaster's calls to its parent (a master or an
// hmaster above it): the struct hmaster_parent operations of the hmaster
// core, made on a DLS::Master reference.  A parent that cannot be reached
// (it died, and a resumed one took its name) is found again by name and
// rejoined (Master::rejoin, PROTOCOL.md 15) with every id and capability
// this hmaster was issued, for up to rejoin_ms; then the call that failed
// is made again.  A registration that the parent cannot be reached for
// (it died before it answered, or its successor has not bound the name
// yet) is made again on the parent found by name, for up to rejoin_ms.
#ifndef DLS_HMASTER_PARENT_HH
#define DLS_HMASTER_PARENT_HH

#include "dls.hh"
#include "hmaster.h"
#include "run_auth.h"

struct hmaster_parent_opts {
	const char *name;	 // this hmaster's name, which prefixes its slaves'
	const char *parent_path; // the parent's naming-service path, to find it again
	int rejoin_ms;		 // how long to try to rejoin a lost parent (0: never)
	const struct run_secret *secret; // proves this hmaster; checks the parent's proof
	int patience_ms; // a parent that took a call and did not answer in time
			 // (CORBA TIMEOUT) is asked again this long before it
			 // counts as gone
	int register_timeout_ms; // the registration's timeout, on a parent found again
};

// The parent's operations, made on `parent` (`parent_register`: the same
// object with the registration's long timeout).  `self` answers the
// parent's pings for every slave below.  The options are copied.
struct hmaster_parent hmaster_parent_ops(const struct hmaster_parent_opts *o,
					 DLS::Master_ptr parent, DLS::Master_ptr parent_register,
					 DLS::Slave_ptr self);

// Frees what hmaster_parent_ops made (the references it holds, the ids and
// keys it was issued); after the hmaster core that used ops is destroyed.
void hmaster_parent_free(struct hmaster_parent *ops);

#endif
