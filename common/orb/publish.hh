// publish.hh - a serving role's servant made reachable under its name in
// the naming service, and the name kept its own (PROTOCOL.md 14): a name
// held by an object that cannot prove the run's secret is taken over, and
// one rebound to another object mid-run is bound back.
#ifndef DLS_PUBLISH_HH
#define DLS_PUBLISH_HH

#include <stddef.h>

#include "orb_util.hh"
#include "run_auth.h"

// May this server take path?  Asks the object bound there, if it answers
// within DLS_NAME_HELD_MS, to prove the run's secret (Master::prove_name
// over a fresh nonce).  0: the name is free (not bound, bound to an object
// that is gone, unreachable or silent, a crashed predecessor's), or held by
// one that cannot prove the secret (a squatter, said in a line: the caller
// binds over it).  1: a servant of this run holds it (in an open run,
// secret NULL or unset: any servant that answers), said on stderr after
// "prog: ": a second one would share its name.
int dls_name_take(const char *path, const struct run_secret *secret, const char *prog);

// Makes servant reachable: refuses a path that a servant of the run holds,
// takes it over from one that cannot prove the run's secret (said in a
// line), activates the servant in the root POA, writes its IOR to ior_file
// (unless NULL) and binds it at path.  0, or 1 with the reason on stderr
// after "prog: ", the servant then not active (the caller's reference is
// the last).
int dls_publish(PortableServer::ServantBase *servant, const char *ior_file, const char *path,
		const struct run_secret *secret, const char *prog);

// Deactivates a servant dls_publish activated and deletes it in this
// thread: the POA lets go of it when the last call on it has returned, and
// this waits for that (at most 10 s, logged), so that its deletion never
// falls to an ORB thread, maybe while the ORB is being destroyed.  Past
// that, it is left to the ORB, as any servant is.
void dls_unpublish(PortableServer::ServantBase *servant);

// Keeps path bound to self while it runs: looks once every period_ms, and
// a name found unbound or bound to another object is bound back, with a
// line that says so.  NULL when the thread cannot start (logged).
struct dls_name_guard *dls_name_guard_start(const char *path, CORBA::Object_ptr self,
					    int period_ms);

// Stops the guard (NULL: nothing) before the name is unbound.
void dls_name_guard_stop(struct dls_name_guard *g);

// How often a serving role looks at its name.
#define DLS_NAME_GUARD_MS 1000

struct run_loop_ops;

// A serving role's whole life: publishes servant as DLS/<run>/<leaf> under
// the run's secret (dls_publish), guards the name, runs the run loop
// (run_loop.h) for nslaves children, then unbinds and unpublishes.
// Returns the exit status.
int dls_serve(PortableServer::ServantBase *servant, const char *ior_file, const char *run,
	      const char *leaf, int nslaves, const struct run_secret *secret,
	      const struct run_loop_ops *ops, int ping_ms, int progress);

#endif
