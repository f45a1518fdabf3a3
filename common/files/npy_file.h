/*
 * npy_file.h - writes a run's results as a NumPy .npy file (format 1.0,
 * numpy.org/neps/nep-0001-npy-format): a 2-D array of shape
 * (iterations, values per iteration), C order, one row per loop index,
 * so that `numpy.load(path)` reads it in one line.
 */
#ifndef DLS_NPY_FILE_H
#define DLS_NPY_FILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The octets of one value of a numpy type string such as "<f8", "<u2" or
 * "|u1" (little-endian or byte-sized; kinds u, i, f; 1..16 octets), or 0
 * for anything else.
 */
size_t npy_dtype_size(const char *dtype);

/*
 * Writes rows x row_bytes octets of data whose values are of numpy type
 * dtype ("<u2", "<f8", ...; row_bytes a multiple of its size).  DLS_OK, or
 * DLS_EIO (errno logged, the partial file removed), DLS_EINVAL (a bad dtype).
 */
int npy_file_write(const char *path, const char *dtype, const void *data, int64_t rows,
		   size_t row_bytes);

/*
 * The same, written as it comes: a file of shape (planes, rows, values),
 * or (rows, values) for planes 0, that takes one plane of rows x row_bytes
 * octets per npy_stream_append (a run of many loops: one per loop).
 * open: DLS_OK with *s, DLS_EINVAL (a bad dtype), DLS_ENOMEM, DLS_EIO
 * (logged).  append: DLS_OK or DLS_EIO (logged).  close: DLS_OK when every
 * plane was written, else DLS_EIO and the file removed; NULL is a no-op.
 */
struct npy_stream;
int npy_stream_open(struct npy_stream **s, const char *path, const char *dtype, int64_t planes,
		    int64_t rows, size_t row_bytes);
int npy_stream_append(struct npy_stream *s, const void *data);
/*
 * Goes on with a file npy_stream_open began (of the same shape, planes >=
 * 1) whose planes before `next` were written: the next append writes
 * plane `next`.  DLS_OK; DLS_EIO (logged: no such file, or another shape);
 * DLS_EINVAL; DLS_ENOMEM.
 */
int npy_stream_reopen(struct npy_stream **s, const char *path, const char *dtype,
		      int64_t planes, int64_t rows, size_t row_bytes, int64_t next);
int npy_stream_close(struct npy_stream *s);

#ifdef __cplusplus
}
#endif
#endif
