/*
 * slurm_hosts.h - the hosts of the Slurm allocation this process runs in
 * (dls run --slurm): its nodes, in the allocation's order, each with the
 * address Slurm knows it by and one slot per task Slurm gave it.
 */
#ifndef DLS_SLURM_HOSTS_H
#define DLS_SLURM_HOSTS_H

#include <stddef.h>

#include "hostfile.h"

/*
 * Fills *hf from the environment Slurm sets in an allocation
 * (SLURM_JOB_NODELIST, SLURM_TASKS_PER_NODE), expanded by `scontrol show
 * hostnames`, with each node's NodeAddr from `sinfo`.  0, or -1 with why
 * filled (not in an allocation, a Slurm command failed, a value it set
 * that does not parse).
 */
int slurm_hosts(struct hostfile *hf, char *why, size_t len);

/* The launch template of a Slurm run: one task of a step on one node,
 * sharing the allocation's CPUs with the other steps. */
#define SLURM_LAUNCH "srun --nodes=1 --ntasks=1 --overlap --quiet --nodelist={host}"

#endif
