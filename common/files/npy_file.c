/*
 * npy_file.c - NumPy .npy format 1.0 writer (see npy_file.h).
 */
#include "npy_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_log.h"
#include "out_files.h"

size_t npy_dtype_size(const char *dtype)
{
	int n = 0;

	if ((dtype[0] == '<' || dtype[0] == '|') && dtype[1] && strchr("uif", dtype[1]) &&
	    sscanf(dtype + 2, "%d", &n) == 1 && n > 0 && n <= 16)
		return (size_t)n;
	return 0;
}

/* The magic, version 1.0, the header length and the header for a C-order
 * array of shape "dims" (written as numpy's tuple, e.g. "3, 400, 12"), padded
 * with spaces and a newline to a multiple of 64 octets: its length. */
static size_t npy_head(char head[256], const char *dtype, const char *dims)
{
	int n = snprintf(head + 10, 246, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
			 dtype, dims);
	size_t total = ((size_t)n + 10 + 1 + 63) / 64 * 64;

	memset(head + 10 + n, ' ', total - 10 - (size_t)n - 1);
	head[total - 1] = '\n';
	memcpy(head, "\x93NUMPY\x01\x00", 8);
	head[8] = (char)((total - 10) & 0xff);
	head[9] = (char)((total - 10) >> 8);
	return total;
}

int npy_file_write(const char *path, const char *dtype, const void *data, int64_t rows,
		   size_t row_bytes)
{
	struct npy_stream *s;
	int rc;

	rc = npy_stream_open(&s, path, dtype, 0, rows, row_bytes);
	if (!rc)
		rc = npy_stream_append(s, data);
	return rc ? rc : npy_stream_close(s);
}

struct npy_stream {
	FILE *f;
	char *path;
	int64_t planes, written, rows;
	size_t row_bytes;
	int failed;
};

int npy_stream_open(struct npy_stream **out, const char *path, const char *dtype, int64_t planes,
		    int64_t rows, size_t row_bytes)
{
	char head[256], dims[96];
	size_t vsize = npy_dtype_size(dtype), total;
	struct npy_stream *s;

	*out = NULL;
	if (!vsize || row_bytes % vsize || planes < 0 || rows < 0)
		return DLS_EINVAL;
	if (planes)
		snprintf(dims, sizeof(dims), "%lld, %lld, %zu", (long long)planes, (long long)rows,
			 row_bytes / vsize);
	else
		snprintf(dims, sizeof(dims), "%lld, %zu", (long long)rows, row_bytes / vsize);
	total = npy_head(head, dtype, dims);
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return DLS_ENOMEM;
	}
	s->planes = planes ? planes : 1;
	s->rows = rows;
	s->row_bytes = row_bytes;
	s->f = out_file_open(path, "wb");
	if (!s->f || fwrite(head, 1, total, s->f) != total) {
		log_err("cannot write '%s': %s", path, strerror(errno));
		if (s->f)
			fclose(s->f);
		unlink(path);
		free(s->path);
		free(s);
		return DLS_EIO;
	}
	*out = s;
	return DLS_OK;
}

int npy_stream_reopen(struct npy_stream **out, const char *path, const char *dtype, int64_t planes,
		      int64_t rows, size_t row_bytes, int64_t next)
{
	char head[256], dims[96], was[256];
	size_t vsize = npy_dtype_size(dtype), total;
	struct npy_stream *s;

	*out = NULL;
	if (!vsize || row_bytes % vsize || planes < 1 || rows < 0 || next < 0 || next > planes)
		return DLS_EINVAL;
	snprintf(dims, sizeof(dims), "%lld, %lld, %zu", (long long)planes, (long long)rows,
		 row_bytes / vsize);
	total = npy_head(head, dtype, dims);
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return DLS_ENOMEM;
	}
	s->planes = planes;
	s->rows = rows;
	s->row_bytes = row_bytes;
	s->written = next;
	s->f = fopen(path, "r+b");
	if (!s->f || fread(was, 1, total, s->f) != total || memcmp(was, head, total) ||
	    fseeko(s->f, (off_t)total + (off_t)next * rows * (off_t)row_bytes, SEEK_SET)) {
		log_err("cannot go on writing '%s': %s", path,
			s->f ? "not the file of this run's shape, or shorter" : strerror(errno));
		if (s->f)
			fclose(s->f);
		free(s->path);
		free(s);
		return DLS_EIO;
	}
	*out = s;
	return DLS_OK;
}

int npy_stream_append(struct npy_stream *s, const void *data)
{
	if (s->failed || s->written == s->planes)
		return DLS_EIO;
	/* each plane reaches the OS at once: a process that resumes this
	 * run after a crash goes on from the next plane */
	if ((s->rows && fwrite(data, s->row_bytes, (size_t)s->rows, s->f) != (size_t)s->rows) ||
	    fflush(s->f)) {
		log_err("cannot write '%s': %s", s->path, strerror(errno));
		s->failed = 1;
		return DLS_EIO;
	}
	s->written++;
	return DLS_OK;
}

int npy_stream_close(struct npy_stream *s)
{
	int ok;

	if (!s)
		return DLS_OK;
	ok = !s->failed && s->written == s->planes;
	if (fclose(s->f))
		ok = 0;
	if (!ok) {
		if (!s->failed)
			log_err("cannot write '%s': %s", s->path,
				s->written == s->planes ? strerror(errno)
							: "the run ended before its last loop");
		unlink(s->path);
	}
	free(s->path);
	free(s);
	return ok ? DLS_OK : DLS_EIO;
}
