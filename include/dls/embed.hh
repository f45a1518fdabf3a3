// embed.hh - the C++ side of dls/embed.h: lend the program's own ORB.
#ifndef DLS_EMBED_HH
#define DLS_EMBED_HH

#include <omniORB4/CORBA.h>

#include "dls/embed.h"

// DLS uses the program's ORB and this POA (activated by the program) for
// every slave or master it starts; it never calls ORB_init, never changes a
// process-wide setting, never destroys them.  Call once, before any
// dls_embed_* start.  DLS_OK, DLS_EINVAL (nil) or DLS_ESTATE (an ORB is
// already in use).
int dls_embed_use_orb(CORBA::ORB_ptr orb, PortableServer::POA_ptr poa);

#endif
