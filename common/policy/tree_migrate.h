/*
 * tree_migrate.h - Kim and Purtilo's migration rules (docs/schemes.md 6.4), the
 * one place that says how much work a demand moves: the simulator and the
 * slaves in tree mode both call it.
 */
#ifndef DLS_TREE_MIGRATE_H
#define DLS_TREE_MIGRATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum tree_gamma {
	TREE_GAMMA_HALF,	 /* 1/2 (default) */
	TREE_GAMMA_PROPORTIONAL, /* tau_receiver / (tau_sender + tau_receiver) */
	TREE_GAMMA_RATIO	 /* tau_sender / tau_receiver, the literal text (discouraged) */
};

/*
 * How many of the sender's r unstarted iterations a demand moves:
 * n = min(r, max(1, ceil(gamma r))), 0 when r = 0.  Exact for half and for
 * throughputs that are small integers; the throughputs are the endpoints'
 * own (docs/schemes.md 7.18); half when they make gamma no number.
 */
int64_t tree_migrate_count(enum tree_gamma g, double tau_sender, double tau_receiver, int64_t r);

/* How often a migration of a given size occurred (Kim and Purtilo 1996 Table 2). */
struct tree_unit {
	int64_t size, count;
};

/*
 * Counts one migration of `size` in the table *units of *n entries, kept
 * by increasing size: DLS_OK or DLS_ENOMEM.
 */
int tree_migrate_units_count(struct tree_unit **units, size_t *n, int64_t size);

/* "half", "proportional", "ratio"; "?" otherwise. */
const char *tree_migrate_gamma_name(enum tree_gamma g);
/* DLS_OK or DLS_ENOENT. */
int tree_migrate_gamma_parse(const char *name, enum tree_gamma *out);

/*
 * Non-zero when start, start + stride, ... (count of them) all lie in the
 * loop [0, iterations), with count, stride >= 1: what a migration or a
 * transfer may name.  Checked without overflow, whatever the values.
 */
int tree_migrate_range_ok(int64_t start, int64_t count, int64_t stride, int64_t iterations);

#ifdef __cplusplus
}
#endif
#endif
