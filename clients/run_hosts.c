#include "run_hosts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>

#include "proc.h"
#include "slurm_hosts.h"

#define MAX_WORDS 512

/* The template's text with {host} and {addr} replaced for host h. */
static int expand(const char *tmpl, const struct host *h, char *out, size_t len)
{
	size_t used = 0;

	for (const char *p = tmpl; *p; p++) {
		const char *with = NULL;
		size_t skip = 0;

		if (!strncmp(p, "{host}", 6))
			with = h->name, skip = 5;
		else if (!strncmp(p, "{addr}", 6))
			with = h->addr, skip = 5;
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s",
					 with ? with : (char[]){*p, 0});
		p += skip;
	}
	return used < len ? 0 : -1;
}

/* The template's words for host h (a shell's splitting and quoting, no
 * command substitution), in *we.  0, or -1 with why filled. */
static int template_words(const char *tmpl, const struct host *h, wordexp_t *we, char *why,
			  size_t len)
{
	char text[4096];
	int rc;

	if (expand(tmpl, h, text, sizeof(text))) {
		snprintf(why, len, "--launch '%s': too long for host '%s'", tmpl, h->name);
		return -1;
	}
	rc = wordexp(text, we, WRDE_NOCMD);
	if (rc || we->we_wordc == 0) {
		if (!rc)
			wordfree(we);
		snprintf(why, len, "--launch '%s': %s", tmpl,
			 rc == WRDE_CMDSUB ? "no command substitution ($(...) or `...`)"
			 : rc	   ? "cannot be split into words (unbalanced quotes or a "
				     "character such as | & ; < > in it)"
				   : "is empty");
		return -1;
	}
	return 0;
}

/* A loopback address literal (127.0.0.0/8, ::1)?  Names are not resolved:
 * a name means whatever it means on its own host. */
static int is_loopback(const char *addr)
{
	struct in_addr v4;
	struct in6_addr v6;

	if (inet_pton(AF_INET, addr, &v4) == 1)
		return (ntohl(v4.s_addr) >> 24) == 127;
	return inet_pton(AF_INET6, addr, &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

int run_hosts_init(struct run_hosts *rh, const char *hostfile, int slurm, const char *launch,
		   char *why, size_t len)
{
	memset(rh, 0, sizeof(*rh));
	rh->lifeline = -1;
	if (slurm) {
		if (slurm_hosts(&rh->hf, why, len))
			return -1;
		rh->from_file = 1;
		rh->launch = launch ? launch : SLURM_LAUNCH;
	} else if (!hostfile) {
		rh->hf.n = 1;
		snprintf(rh->hf.host[0].name, HOST_NAME_LEN, "localhost");
		snprintf(rh->hf.host[0].addr, HOST_ADDR_LEN, "127.0.0.1");
		rh->hf.host[0].slots = CLUSTER_MAX;
		rh->launch = launch;
	} else {
		if (hostfile_read(hostfile, &rh->hf, why, len))
			return -1;
		rh->from_file = 1;
		rh->launch = launch ? launch : "ssh {host}";
	}
	for (int h = 0; rh->hf.n > 1 && h < rh->hf.n; h++)
		if (is_loopback(rh->hf.host[h].addr)) {
			snprintf(why, len, "host '%s' has the loopback address %s, which the other "
				 "hosts cannot reach: give addr= an address of its network",
				 rh->hf.host[h].name, rh->hf.host[h].addr);
			return -1;
		}
	if (rh->launch) {
		wordexp_t we;
		char *first;

		if (template_words(rh->launch, &rh->hf.host[0], &we, why, len))
			return -1;
		first = basename(we.we_wordv[0]);
		rh->remote_shell = !strcmp(first, "ssh") || !strcmp(first, "rsh");
		wordfree(&we);
	}
	return 0;
}

int run_hosts_place(struct run_hosts *rh, struct cluster *c, int use_hosts, char *why,
		    size_t len)
{
	int slots = hostfile_slots(&rh->hf);

	if (use_hosts) {
		c->n = 0;
		for (int h = 0; h < rh->hf.n; h++)
			for (int k = 0; k < rh->hf.host[h].slots && c->n < CLUSTER_MAX; k++) {
				c->speed[c->n] = rh->hf.host[h].speed;
				c->load[c->n++] = rh->hf.host[h].load;
			}
	} else if (rh->from_file) {
		for (int h = 0; h < rh->hf.n; h++)
			if (rh->hf.host[h].has_speed || rh->hf.host[h].has_load) {
				snprintf(why, len, "host '%s' has speed= or load=, and the "
					 "cluster's speeds come from the command line: one or "
					 "the other", rh->hf.host[h].name);
				return -1;
			}
	}
	if (c->n > slots) {
		snprintf(why, len, "%d slaves, but the hosts have %d slots in all", c->n, slots);
		return -1;
	}
	if (c->n == 0) {
		snprintf(why, len, "no slot on any host");
		return -1;
	}
	for (int h = 0; h < rh->hf.n; h++)
		rh->used_index[h] = -1;
	rh->nused = 0;
	for (int i = 0; i < c->n; i++) {
		int h = rh->slave_host[i] = hostfile_host_of(&rh->hf, i);

		if (rh->used_index[h] < 0) { /* slaves fill the hosts in order */
			rh->used_index[h] = rh->nused;
			rh->used_host[rh->nused++] = h;
		}
	}
	return 0;
}

const char *run_hosts_addr(const struct run_hosts *rh, int h)
{
	return rh->hf.host[h].addr;
}

/* arg in single quotes for a remote shell ('\'' for a quote), new string. */
static char *shell_quote(const char *arg)
{
	size_t n = 3;
	char *q, *o;

	for (const char *p = arg; *p; p++)
		n += *p == '\'' ? 4 : 1;
	q = o = malloc(n);
	if (!q)
		return NULL;
	*o++ = '\'';
	for (const char *p = arg; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

pid_t run_hosts_spawn(const struct run_hosts *rh, int h, char *const argv[],
		      const char *out_path, const char *err_path)
{
	char *words[MAX_WORDS], why[512];
	int n = 0, quoted_from;
	wordexp_t we;
	pid_t pid;

	if (!rh->launch)
		return proc_spawn_in(argv, rh->lifeline, out_path, err_path);
	if (template_words(rh->launch, &rh->hf.host[h], &we, why, sizeof(why))) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < we.we_wordc && n < MAX_WORDS - 1; i++)
		words[n++] = we.we_wordv[i];
	quoted_from = n;
	for (int i = 0; argv[i] && n < MAX_WORDS - 1; i++) {
		words[n] = rh->remote_shell ? shell_quote(argv[i]) : argv[i];
		if (!words[n])
			break;
		n++;
	}
	words[n] = NULL;
	if (argv[n - quoted_from]) { /* out of memory or of words: start nothing */
		errno = n < MAX_WORDS - 1 ? ENOMEM : E2BIG;
		pid = -1;
	} else {
		pid = proc_spawn_in(words, rh->lifeline, out_path, err_path);
	}
	if (rh->remote_shell)
		for (int i = quoted_from; i < n; i++)
			free(words[i]);
	wordfree(&we);
	return pid;
}

int run_hosts_lifeline(struct run_hosts *rh)
{
	int fds[2];

	/* both ends close on exec: a child gets the read end as its stdin only,
	 * and no child holds the write end */
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	rh->lifeline = fds[0];
	return 0;
}

int run_hosts_guard(char *const argv[], char **out, int max)
{
	/* a background job's stdin is /dev/null unless saved first (fd 3) */
	static char script[] = "exec 3<&0; \"$@\" </dev/null & p=$!; "
			       "trap 'kill $p 2>/dev/null; exit 143' TERM HUP INT; "
			       "cat <&3 >/dev/null & c=$!; "
			       "while kill -0 $p 2>/dev/null && kill -0 $c 2>/dev/null; do "
			       "sleep 0.2; done; kill $p $c 2>/dev/null; wait $p";
	int n = 0;

	out[n++] = "sh";
	out[n++] = "-c";
	out[n++] = script;
	out[n++] = "sh";
	for (int i = 0; argv[i]; i++) {
		if (n >= max - 1)
			return -1;
		out[n++] = argv[i];
	}
	out[n] = NULL;
	return n;
}
