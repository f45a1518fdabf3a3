/*
 * The Mandelbrot kernel, exactly as docs/emulation.md 1 writes it.  Built
 * with -ffp-contract=off so that no fused multiply-add changes a count: every
 * implementation and every test oracle gets bit-identical results.
 */
#include "mandel.h"

uint64_t mandel_column(const struct mandel_params *m, int32_t x, uint16_t *counts)
{
	const double xmin = -2.0, xmax = 2.0, ymin = -1.0, ymax = 1.0;
	const double cr = xmin + (x + 0.5) * (xmax - xmin) / m->width;
	uint64_t sum = 0;

	for (int32_t y = 0; y < m->height; y++) {
		const double ci = ymin + (y + 0.5) * (ymax - ymin) / m->height;
		double zr = 0.0, zi = 0.0;
		int32_t n = 0;

		while (n < m->maxit) {
			double zr2 = zr * zr, zi2 = zi * zi;

			if (zr2 + zi2 > 4.0)
				break;
			zi = 2.0 * zr * zi + ci;
			zr = zr2 - zi2 + cr;
			n++;
		}
		counts[y] = (uint16_t)n;
		sum += (uint64_t)n;
	}
	return sum;
}
