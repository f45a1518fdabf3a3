#include "iter_order.h"

#include <string.h>

#include "dls/err.h"

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

void iter_order_init(struct iter_order *o, enum iter_order_mode mode, int64_t width)
{
	/* width * (sqrt(5) - 1) / 2 in integers: 0.6180339887... */
	int64_t s = (int64_t)((__int128)width * 6180339887LL / 10000000000LL);

	o->mode = mode;
	o->width = width;
	if (s < 1)
		s = 1;
	while (gcd64(s, width) != 1)
		s++;
	o->stride = s % width ? s % width : 1;
}

int iter_order_parse(const char *name, enum iter_order_mode *out)
{
	if (!strcmp(name, "natural"))
		*out = ITER_ORDER_NATURAL;
	else if (!strcmp(name, "interleaved"))
		*out = ITER_ORDER_INTERLEAVED;
	else
		return DLS_ENOENT;
	return DLS_OK;
}

const char *iter_order_name(enum iter_order_mode mode)
{
	return mode == ITER_ORDER_INTERLEAVED ? "interleaved" : "natural";
}
