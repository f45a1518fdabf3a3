/*
 * image_file.h - writes a computed image: PNG with a colour map (libpng) and
 * the raw counts as a 16-bit PGM.  The image is column-major: the counts of
 * column x are at counts[x * height .. x * height + height - 1], which is
 * how results arrive (one column per iteration).
 */
#ifndef DLS_IMAGE_FILE_H
#define DLS_IMAGE_FILE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DLS_OK or DLS_EIO (errno logged, the partial file removed). */
int image_file_write_png(const char *path, const uint16_t *counts, int32_t width, int32_t height,
		    int32_t maxit);

/* Binary PGM (P5), maxval 65535, big-endian samples: the raw counts. */
int image_file_write_pgm16(const char *path, const uint16_t *counts, int32_t width, int32_t height);

/*
 * Reads a PGM written by image_file_write_pgm16 into a new column-major array
 * (*counts, caller frees).  DLS_OK, DLS_EIO, DLS_EINVAL (not such a file).
 */
int image_file_read_pgm16(const char *path, uint16_t **counts, int32_t *width, int32_t *height);

#ifdef __cplusplus
}
#endif
#endif
