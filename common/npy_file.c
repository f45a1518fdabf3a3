/*
 * npy_file.c - NumPy .npy format 1.0 writer (see npy_file.h).
 */
#include "npy_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls/log.h"
#include "out_files.h"

size_t npy_dtype_size(const char *dtype)
{
	int n = 0;

	if ((dtype[0] == '<' || dtype[0] == '|') && dtype[1] && strchr("uif", dtype[1]) &&
	    sscanf(dtype + 2, "%d", &n) == 1 && n > 0 && n <= 16)
		return (size_t)n;
	return 0;
}

int npy_file_write(const char *path, const char *dtype, const void *data, int64_t rows,
		   size_t row_bytes)
{
	char head[256];
	size_t vsize = npy_dtype_size(dtype), total;
	int n, ok;
	FILE *f;

	if (!vsize || row_bytes % vsize)
		return DLS_EINVAL;
	/* magic, version 1.0, header length; the header pads to 64 octets with a newline */
	n = snprintf(head + 10, sizeof(head) - 10,
		     "{'descr': '%s', 'fortran_order': False, 'shape': (%lld, %zu), }", dtype,
		     (long long)rows, row_bytes / vsize);
	total = ((size_t)n + 10 + 1 + 63) / 64 * 64;
	memset(head + 10 + n, ' ', total - 10 - (size_t)n - 1);
	head[total - 1] = '\n';
	memcpy(head, "\x93NUMPY\x01\x00", 8);
	head[8] = (char)((total - 10) & 0xff);
	head[9] = (char)((total - 10) >> 8);
	f = out_file_open(path, "wb");
	if (!f) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		return DLS_EIO;
	}
	ok = fwrite(head, 1, total, f) == total &&
	     (rows == 0 || fwrite(data, row_bytes, (size_t)rows, f) == (size_t)rows);
	if (fclose(f))
		ok = 0;
	if (!ok) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		unlink(path);
		return DLS_EIO;
	}
	return DLS_OK;
}
