#define _POSIX_C_SOURCE 200809L
#include "slurm_hosts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opt.h"

/* The lines a fixed Slurm command prints, one call per line; 0 or -1. */
static int each_line(const char *cmd, void (*fn)(void *, char *), void *ctx)
{
	FILE *p = popen(cmd, "r");
	char line[1024];

	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\r\n")] = 0;
		if (*line)
			fn(ctx, line);
	}
	return pclose(p) == 0 ? 0 : -1;
}

static void add_node(void *ctx, char *name)
{
	struct hostfile *hf = ctx;
	struct host *h;

	if (hf->n == HOSTFILE_MAX || strlen(name) >= HOST_NAME_LEN)
		return;
	h = &hf->host[hf->n++];
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	snprintf(h->addr, sizeof(h->addr), "%s", name);
	h->speed = 1;
	emul_steps_const(&h->load, 1);
}

/* "NAME ADDR" of sinfo: the address of a node of the allocation. */
static void set_addr(void *ctx, char *line)
{
	struct hostfile *hf = ctx;
	char *save = NULL, *name = strtok_r(line, " ", &save), *addr = strtok_r(NULL, " ", &save);

	for (int i = 0; name && addr && i < hf->n; i++)
		if (!strcmp(hf->host[i].name, name) && strlen(addr) < HOST_ADDR_LEN)
			snprintf(hf->host[i].addr, HOST_ADDR_LEN, "%s", addr);
}

/* SLURM_TASKS_PER_NODE, "2(x3),1": the slots of the nodes in order. */
static const char *set_slots(struct hostfile *hf, const char *tasks)
{
	char *copy = strdup(tasks), *save = NULL, *tok;
	const char *cause = NULL;
	int h = 0;

	if (!copy)
		return "out of memory";
	for (tok = strtok_r(copy, ",", &save); tok && !cause; tok = strtok_r(NULL, ",", &save)) {
		char *x = strstr(tok, "(x");
		int64_t n, times = 1;

		if (x) {
			*x = 0;
			x[strcspn(x + 2, ")") + 2] = 0;
			cause = cli_parse_i64(x + 2, 1, HOSTFILE_MAX, &times);
		}
		if (!cause)
			cause = cli_parse_i64(tok, 1, 4096, &n);
		for (int64_t k = 0; !cause && k < times; k++, h++) {
			if (h >= hf->n) {
				cause = "more nodes than SLURM_JOB_NODELIST names";
				break;
			}
			hf->host[h].slots = (int)n;
		}
	}
	free(copy);
	if (!cause && h != hf->n)
		cause = "fewer nodes than SLURM_JOB_NODELIST names";
	return cause;
}

int slurm_hosts(struct hostfile *hf, char *why, size_t len)
{
	const char *nodes = getenv("SLURM_JOB_NODELIST"), *tasks = getenv("SLURM_TASKS_PER_NODE");
	const char *cause;

	hf->n = 0;
	if (!nodes || !tasks) {
		snprintf(why, len, "not inside a Slurm allocation (SLURM_JOB_NODELIST or "
			 "SLURM_TASKS_PER_NODE is not set): run it under salloc or sbatch");
		return -1;
	}
	/* fixed command lines: the node list reaches scontrol through the
	 * environment, never through the shell's parsing */
	if (each_line("scontrol show hostnames \"$SLURM_JOB_NODELIST\"", add_node, hf) ||
	    hf->n == 0) {
		snprintf(why, len, "'scontrol show hostnames' failed on SLURM_JOB_NODELIST '%s'",
			 nodes);
		return -1;
	}
	if (each_line("sinfo -h -N -o '%N %o'", set_addr, hf)) {
		snprintf(why, len, "'sinfo' could not list the nodes' addresses");
		return -1;
	}
	cause = set_slots(hf, tasks);
	if (cause) {
		snprintf(why, len, "SLURM_TASKS_PER_NODE '%s': %s", tasks, cause);
		return -1;
	}
	return 0;
}
