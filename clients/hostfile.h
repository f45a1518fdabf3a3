/*
 * hostfile.h - the machines of a run (dls run --hostfile, dls tls init
 * --hostfile), in the spirit of MPI's hostfiles: one line per host,
 *
 *     NAME [addr=ADDR] [slots=N] [speed=V] [load=Q|t:Q,t:Q...]
 *
 * `#` starts a comment.  NAME is what the launch template gets as {host}
 * (ssh's host, a network namespace, a Slurm node); ADDR, the address the
 * host's programs listen on and advertise ({addr}; default NAME); slots, how
 * many slaves it runs (default 1); speed and load, the emulated V_i and
 * Q_i(t) of its slaves (default 1 and 1).  The first host also runs the
 * naming service and the master (or Tree Scheduling's coordinator).
 */
#ifndef DLS_HOSTFILE_H
#define DLS_HOSTFILE_H

#include <stddef.h>

#include "emul.h"

#define HOSTFILE_MAX 1024
#define HOST_NAME_LEN 64
#define HOST_ADDR_LEN 256

struct host {
	char name[HOST_NAME_LEN], addr[HOST_ADDR_LEN];
	int slots;
	double speed;
	struct emul_steps load;
	int has_speed, has_load; /* given in the file */
};

struct hostfile {
	int n;
	struct host host[HOSTFILE_MAX];
};

/*
 * Reads path into *hf.  0, or -1 with why filled: "PATH:LINE: what, the
 * value, the cause" (an unknown key, a bad number, a duplicate name, no
 * host at all, too many).
 */
int hostfile_read(const char *path, struct hostfile *hf, char *why, size_t len);

/* The slots of every host together. */
int hostfile_slots(const struct hostfile *hf);

/* The host of slave i when slaves fill the hosts' slots in order (MPI's
 * "by slot"): its index, or -1 when i is beyond every slot. */
int hostfile_host_of(const struct hostfile *hf, int i);

#endif
