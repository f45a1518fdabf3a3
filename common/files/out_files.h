/*
 * out_files.h - a run's output files, opened when the program starts and
 * held until the results are written into them: a server that strangers'
 * idle connections drive to its descriptor limit during the run still has
 * the descriptors its outputs need at the end, so that no computed result
 * is lost to "Too many open files".
 *
 * A held file exists from the start (empty); a program that ends without
 * writing it removes it again if it made it.  Not for concurrent use: the
 * program's main thread holds, the writers open once each at the end.
 */
#ifndef DLS_OUT_FILES_H
#define DLS_OUT_FILES_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many files are held; later ones are opened when written. */
#define OUT_FILES_MAX 8

/*
 * Opens path for writing (made if missing, not truncated) and holds its
 * descriptor.  0, or an errno (nothing held).
 */
int out_files_hold(const char *path);

/*
 * The file to write path's output into: the held descriptor, emptied, as
 * a stream (it is held no more), or else fopen(path, mode).  NULL with
 * errno set, as fopen.
 */
FILE *out_file_open(const char *path, const char *mode);

#ifdef __cplusplus
}
#endif
#endif
