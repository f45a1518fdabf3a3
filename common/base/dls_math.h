/*
 * dls_math.h - exact integer rounding (docs/schemes.md 0).
 *
 * The schemes are rational formulas; we never use floating point where the
 * spec says integer.  Every helper takes d > 0 and works on 128-bit values so
 * that products such as 2*I*... cannot overflow for I up to 2^62.
 */
#ifndef DLS_MATH_H
#define DLS_MATH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef __int128 dls_i128;

/* floor(n/d) for d > 0. */
static inline dls_i128 dls_floor_div(dls_i128 n, dls_i128 d)
{
	return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* ceil(n/d) for d > 0. */
static inline dls_i128 dls_ceil_div(dls_i128 n, dls_i128 d)
{
	return -dls_floor_div(-n, d);
}

/* n/d rounded half to even, for d > 0 (C rint() in the default mode). */
static inline dls_i128 dls_rne_div(dls_i128 n, dls_i128 d)
{
	dls_i128 q = dls_floor_div(n, d);
	dls_i128 r = n - q * d;

	if (2 * r > d || (2 * r == d && (q & 1)))
		q++;
	return q;
}

static inline int64_t dls_max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static inline int64_t dls_min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* splitmix64: the next 64 random bits of the stream whose state is *x. */
static inline uint64_t dls_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#ifdef __cplusplus
}
#endif
#endif
