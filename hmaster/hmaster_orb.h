/*
 * hmaster_orb.h - the hmaster process: finds its parent by name, binds
 * itself as DLS/<run>/<name>, relays (or, two-level, schedules its slaves)
 * until every slave below heard DONE
 * (or was lost), pinging the children that hold work.
 */
#ifndef DLS_HMASTER_ORB_H
#define DLS_HMASTER_ORB_H

#ifdef __cplusplus
extern "C" {
#endif

struct run_secret;

struct hmaster_orb_opts {
	const char *run_name;
	const char *name;	 /* its own leaf name, e.g. hmaster.0 */
	const char *parent;	 /* the parent's leaf name, e.g. master */
	int nslaves;		 /* slaves below it, all levels */
	int connect_timeout_ms;	 /* look for the parent this long */
	int register_timeout_ms; /* registration may block this long */
	int window_ms;		 /* its slaves register within this long of the first
				    (then it registers what it has); 0: the above */
	int ping_ms, ping_timeout_ms;
	double link_latency_us;	 /* emulated one-way latency to the parent */
	int twolevel;		 /* 1: two-level mode, 0: relay */
	int rejoin_ms;		 /* a parent that cannot be reached: rejoin it (resumed
				    from its journal) for this long; 0: give up */
	const struct run_secret *secret; /* the run's (NULL: an open run) */
	int patience_ms; /* a parent that takes calls but does not answer them in
			    time is asked again this long before it counts as gone */
	int resume;	 /* succeed one of this name that died (hmaster_resume) */
	const char *record; /* two-level: the record kept for a resume (NULL: none) */
	int relay_grace_ms; /* a relay hmaster below that stopped answering: its
			       slaves are lost this much later unless they rejoin */
};

/* Needs dls_orb_init().  Returns the exit status. */
int hmaster_orb_run(const struct hmaster_orb_opts *o);

#ifdef __cplusplus
}
#endif
#endif
