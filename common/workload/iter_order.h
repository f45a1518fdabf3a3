/*
 * iter_order.h - which column a loop iteration computes.
 *
 * natural: iteration i is column i (Chronopoulos et al. 2002).  interleaved: iteration i is
 * column (i * stride) mod width, stride coprime to width and close to
 * width / golden ratio, so consecutive iterations land far apart and a large
 * early chunk samples the whole image instead of its expensive middle
 * (docs/emulation.md 4).  Either way every column is computed exactly once.
 */
#ifndef DLS_ITER_ORDER_H
#define DLS_ITER_ORDER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum iter_order_mode { ITER_ORDER_NATURAL, ITER_ORDER_INTERLEAVED };

struct iter_order {
	enum iter_order_mode mode;
	int64_t width;
	int64_t stride;
};

/* Sets up the map for width >= 1 columns. */
void iter_order_init(struct iter_order *o, enum iter_order_mode mode, int64_t width);

/* The column of iteration i (0 <= i < width). */
static inline int64_t iter_order_column(const struct iter_order *o, int64_t i)
{
	return o->mode == ITER_ORDER_NATURAL ? i
					     : (int64_t)(((__int128)i * o->stride) % o->width);
}

/* "natural" / "interleaved" -> mode; DLS_OK or DLS_ENOENT. */
int iter_order_parse(const char *name, enum iter_order_mode *out);
const char *iter_order_name(enum iter_order_mode mode);

#ifdef __cplusplus
}
#endif
#endif
