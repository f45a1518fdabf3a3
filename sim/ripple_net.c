/*
 * ripple_net.c - Melhem et al. 1991's Tortoise on a line and its hypercube spanning
 * trees (see ripple_net.h).  A PE's schedule is a circular table per link
 * direction: the line needs n slots (S1 schedules up to n - 1 steps ahead),
 * the cube two (every pass goes at the next step).
 */
#include "ripple_net.h"

#include <stdint.h>
#include <stdlib.h>

#include "dls/err.h"

struct ripple_net {
	enum ripple_topology topology;
	int n, d;	 /* PEs; cube dimension (line: 2 sides) */
	int nlinks, slots;
	int64_t step_no; /* steps done */
	int *la, *lb;	 /* link endpoints */
	double *load;
	/* table[(pe * d + side) * slots + slot]: the line's side 0 is left,
	 * 1 right; the cube's side u - 1 is dimension u */
	double *table;
	double *sent; /* this step's sends, by (pe, side) */
};

static double *slot(struct ripple_net *net, int pe, int side, int64_t step)
{
	return &net->table[((size_t)pe * net->d + side) * net->slots + step % net->slots];
}

int ripple_net_create(enum ripple_topology topology, int n, struct ripple_net **out)
{
	struct ripple_net *net;
	int d = 2, nlinks = n - 1, slots = n;

	*out = NULL;
	if (n < 1 || (topology != RIPPLE_LINE && topology != RIPPLE_CUBE))
		return DLS_EINVAL;
	if (topology == RIPPLE_CUBE) {
		if (n & (n - 1))
			return DLS_EINVAL;
		for (d = 0; (1 << d) < n; d++)
			;
		nlinks = n / 2 * d;
		slots = 2;
	}
	net = calloc(1, sizeof(*net));
	if (!net)
		return DLS_ENOMEM;
	net->topology = topology;
	net->n = n;
	net->d = d;
	net->nlinks = nlinks;
	net->slots = slots;
	net->la = calloc((size_t)nlinks + 1, sizeof(int));
	net->lb = calloc((size_t)nlinks + 1, sizeof(int));
	net->load = calloc((size_t)n, sizeof(double));
	net->table = calloc((size_t)n * (d ? d : 1) * slots, sizeof(double));
	net->sent = calloc((size_t)n * (d ? d : 1), sizeof(double));
	if (!net->la || !net->lb || !net->load || !net->table || !net->sent) {
		ripple_net_destroy(net);
		return DLS_ENOMEM;
	}
	if (topology == RIPPLE_LINE) {
		for (int l = 0; l < nlinks; l++) {
			net->la[l] = l;
			net->lb[l] = l + 1;
		}
	} else {
		int l = 0;

		for (int pe = 0; pe < n; pe++)
			for (int u = 0; u < d; u++)
				if (!(pe & (1 << u))) {
					net->la[l] = pe;
					net->lb[l++] = pe | (1 << u);
				}
	}
	*out = net;
	return DLS_OK;
}

void ripple_net_destroy(struct ripple_net *net)
{
	if (!net)
		return;
	free(net->la);
	free(net->lb);
	free(net->load);
	free(net->table);
	free(net->sent);
	free(net);
}

int ripple_net_links(const struct ripple_net *net, const int **a, const int **b)
{
	*a = net->la;
	*b = net->lb;
	return net->nlinks;
}

const double *ripple_net_loads(const struct ripple_net *net)
{
	return net->load;
}

void ripple_net_add(struct ripple_net *net, int pe, double f)
{
	int64_t t = net->step_no;
	int n = net->n;

	if (pe < 0 || pe >= n || f == 0)
		return;
	net->load[pe] += f;
	if (net->topology == RIPPLE_LINE) {
		int i = pe + 1; /* the paper's 1-based P_i */

		for (int a = 0; a <= i - 2; a++)
			*slot(net, pe, 0, t + a) += f / n;
		for (int a = 0; a <= n - i - 1; a++)
			*slot(net, pe, 1, t + a) += f / n;
		return;
	}
	for (int u = 1; u <= net->d; u++) /* subtree across u: 2^(u-1) PEs */
		*slot(net, pe, u - 1, t) += f * (double)(1 << (u - 1)) / n;
}

/* The PE at the other end of side `side` of pe, or -1. */
static int across(const struct ripple_net *net, int pe, int side)
{
	if (net->topology == RIPPLE_CUBE)
		return pe ^ (1 << side);
	if (side == 0)
		return pe > 0 ? pe - 1 : -1;
	return pe + 1 < net->n ? pe + 1 : -1;
}

/* S3 at PE `to` for rho that came over the link on its side `side`. */
static void receive(struct ripple_net *net, int to, int side, double rho)
{
	int64_t next = net->step_no + 1;

	net->load[to] += rho;
	if (net->topology == RIPPLE_LINE) {
		int j = to + 1, n = net->n;

		if (side == 1) /* from the right: on to the left */
			*slot(net, to, 0, next) += rho * (j - 1) / j;
		else /* from the left: on to the right */
			*slot(net, to, 1, next) += rho * (n - j) / (n - j + 1);
		return;
	}
	/* across dimension k = side + 1: keep 1/2^(k-1), pass 2^(u-1)/2^(k-1) */
	for (int u = 1; u <= side; u++)
		*slot(net, to, u - 1, next) += rho * (double)(1 << (u - 1)) / (double)(1 << side);
}

void ripple_net_step(struct ripple_net *net, double *flow)
{
	int n = net->n, d = net->d;

	/* S2: every PE sends this step's entries, all at once */
	for (int pe = 0; pe < n; pe++)
		for (int side = 0; side < d; side++) {
			double *v = slot(net, pe, side, net->step_no);

			net->sent[pe * d + side] = across(net, pe, side) >= 0 ? *v : 0;
			*v = 0;
		}
	for (int pe = 0; pe < n; pe++)
		for (int side = 0; side < d; side++) {
			double rho = net->sent[pe * d + side];
			int to = across(net, pe, side);

			if (to < 0 || rho == 0)
				continue;
			net->load[pe] -= rho;
			/* the receiver sees it on its opposite side (line) or
			 * across the same dimension (cube) */
			receive(net, to, net->topology == RIPPLE_LINE ? 1 - side : side, rho);
		}
	if (flow) {
		for (int l = 0; l < net->nlinks; l++) {
			int a = net->la[l], b = net->lb[l], sa, sb;

			if (net->topology == RIPPLE_LINE) {
				sa = 1;
				sb = 0;
			} else {
				for (sa = 0; (a ^ b) != (1 << sa); sa++)
					;
				sb = sa;
			}
			flow[l] = net->sent[a * d + sa] - net->sent[b * d + sb];
		}
	}
	net->step_no++;
}
