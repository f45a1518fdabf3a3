/*
 * fuzz_input.c - see fuzz_input.h.
 */
#include "fuzz_input.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dls_log.h"

int fz_left(const struct fz *f)
{
	return f->n > 0;
}

uint8_t fz_u8(struct fz *f)
{
	uint8_t b;

	if (!f->n)
		return 0;
	b = *f->p++;
	f->n--;
	return b;
}

uint32_t fz_pick(struct fz *f, uint32_t n)
{
	uint32_t v = fz_u8(f);

	if (n > 256)
		v = v << 8 | fz_u8(f);
	return v % n;
}

static uint64_t raw(struct fz *f, size_t bytes)
{
	uint64_t v = 0;

	for (size_t i = 0; i < bytes; i++)
		v = v << 8 | fz_u8(f);
	return v;
}

uint32_t fz_u32(struct fz *f)
{
	static const uint32_t hostile[] = {0, 1, 2, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu,
					   65535};
	uint8_t sel = fz_u8(f);

	if (sel < 128)
		return hostile[sel % (sizeof(hostile) / sizeof(*hostile))];
	return (uint32_t)raw(f, 4);
}

int64_t fz_i64(struct fz *f)
{
	static const int64_t hostile[] = {0,	     1,		 -1,	     2,
					  INT64_MAX, INT64_MIN,	 INT64_MAX - 1, (int64_t)1 << 62,
					  ((int64_t)1 << 62) + 1, INT32_MAX, INT32_MIN,   (int64_t)1 << 32,
					  -((int64_t)1 << 62), 3, 7, 100};
	uint8_t sel = fz_u8(f);

	if (sel < 128)
		return hostile[sel % (sizeof(hostile) / sizeof(*hostile))];
	if (sel < 192)
		return (int64_t)(int8_t)fz_u8(f); /* small, either sign */
	return (int64_t)raw(f, 8);
}

int64_t fz_i64_near(struct fz *f, int64_t near)
{
	uint8_t sel = fz_u8(f);

	if (sel & 1)
		return fz_i64(f);
	return near + (int64_t)(sel >> 1) % 5 - 2;
}

double fz_double(struct fz *f)
{
	static const double hostile[] = {0.0,	 -0.0,	  -1.0,	   1.0,	   1e-300, 1e300,
					 1e-10,	 1e10,	  NAN,	   INFINITY, -INFINITY, 5e-324,
					 2.0,	 0.5,	  4096.0,  1e6};
	uint8_t sel = fz_u8(f);
	uint64_t bits;
	double d;

	if (sel < 160)
		return hostile[sel % (sizeof(hostile) / sizeof(*hostile))];
	bits = raw(f, 8);
	memcpy(&d, &bits, sizeof(d));
	return d;
}

int fz_id(struct fz *f, int n)
{
	if (fz_u8(f) < 220)
		return (int)fz_pick(f, (uint32_t)n);
	return (int)fz_i64(f);
}

uint64_t fz_key(struct fz *f, uint64_t (*key)(void *ctx, int id), void *ctx, int id, int n)
{
	uint8_t sel = fz_u8(f);

	if (sel < 220)
		return key(ctx, id);
	if (sel < 240)
		return key(ctx, (int)fz_pick(f, (uint32_t)n)); /* another's */
	return (uint64_t)fz_i64(f);
}

void fz_bytes(struct fz *f, void *out, size_t n)
{
	size_t k = n < f->n ? n : f->n;

	memcpy(out, f->p, k);
	memset((uint8_t *)out + k, 0, n - k);
	f->p += k;
	f->n -= k;
}

void fz_setup(void)
{
	static int done;

	if (!done) {
		dls_log_set_level(DLS_LOG_ERR);
		done = 1;
	}
}

void fz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: broken invariant: %s\n", file, line, what);
	abort();
}

void fz_trace(const char *fmt, ...)
{
	static int on = -1;
	va_list ap;

	if (on < 0)
		on = getenv("FZ_TRACE") != NULL;
	if (!on)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
