/*
 * image_file.c - PNG and 16-bit PGM files of an image (see image_file.h).
 */
#include "image_file.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "out_files.h"

/* A gradient people like to look at (deep blue, white, amber, dark). */
static const unsigned char stops[][3] = {
	{0, 7, 100}, {32, 107, 203}, {237, 255, 255}, {255, 170, 0}, {0, 2, 0}};

static void colour(uint16_t n, int32_t maxit, unsigned char *rgb)
{
	double t, f;
	int k;

	if (n >= maxit) {
		rgb[0] = rgb[1] = rgb[2] = 0; /* inside the set */
		return;
	}
	t = sqrt((double)n / maxit) * 4.0; /* sqrt spreads the many small counts */
	k = (int)t;
	if (k > 3)
		k = 3;
	f = t - k;
	for (int c = 0; c < 3; c++)
		rgb[c] = (unsigned char)lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c]));
}

int image_file_write_png(const char *path, const uint16_t *counts, int32_t width, int32_t height,
		    int32_t maxit)
{
	FILE *f = out_file_open(path, "wb");
	png_structp png = NULL;
	png_infop info = NULL;
	unsigned char *row = NULL;
	int rc = DLS_EIO;

	if (!f) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		return DLS_EIO;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	row = malloc((size_t)width * 3);
	if (!png || !info || !row)
		goto out;
	if (setjmp(png_jmpbuf(png)))
		goto out;
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int32_t y = 0; y < height; y++) {
		for (int32_t x = 0; x < width; x++)
			colour(counts[(size_t)x * height + y], maxit, row + 3 * x);
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	rc = DLS_OK;
out:
	png_destroy_write_struct(&png, &info);
	free(row);
	if (fclose(f) != 0 && rc == DLS_OK) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		rc = DLS_EIO;
	}
	if (rc)
		remove(path);
	return rc;
}

int image_file_write_pgm16(const char *path, const uint16_t *counts, int32_t width, int32_t height)
{
	FILE *f = out_file_open(path, "wb");
	unsigned char *row;
	int rc = DLS_OK;

	if (!f) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		return DLS_EIO;
	}
	row = malloc((size_t)width * 2);
	if (!row) {
		fclose(f);
		return DLS_ENOMEM;
	}
	fprintf(f, "P5\n%d %d\n65535\n", width, height);
	for (int32_t y = 0; y < height && rc == DLS_OK; y++) {
		for (int32_t x = 0; x < width; x++) {
			uint16_t v = counts[(size_t)x * height + y];

			row[2 * x] = (unsigned char)(v >> 8);
			row[2 * x + 1] = (unsigned char)(v & 0xff);
		}
		if (fwrite(row, 2, (size_t)width, f) != (size_t)width)
			rc = DLS_EIO;
	}
	free(row);
	if (fclose(f) != 0)
		rc = DLS_EIO;
	if (rc) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		remove(path);
	}
	return rc;
}

int image_file_read_pgm16(const char *path, uint16_t **counts, int32_t *width, int32_t *height)
{
	FILE *f = fopen(path, "rb");
	int w, h, maxval, rc = DLS_OK;
	uint16_t *img;

	*counts = NULL;
	if (!f)
		return DLS_EIO;
	if (fscanf(f, "P5 %d %d %d", &w, &h, &maxval) != 3 || w < 1 || h < 1 || maxval != 65535 ||
	    fgetc(f) == EOF) {
		fclose(f);
		return DLS_EINVAL;
	}
	img = malloc((size_t)w * h * sizeof(*img));
	if (!img) {
		fclose(f);
		return DLS_ENOMEM;
	}
	for (int y = 0; y < h && rc == DLS_OK; y++) {
		for (int x = 0; x < w; x++) {
			int hi = fgetc(f), lo = fgetc(f);

			if (hi == EOF || lo == EOF) {
				rc = DLS_EINVAL;
				break;
			}
			img[(size_t)x * h + y] = (uint16_t)(hi << 8 | lo);
		}
	}
	fclose(f);
	if (rc) {
		free(img);
		return rc;
	}
	*counts = img;
	*width = w;
	*height = h;
	return DLS_OK;
}
