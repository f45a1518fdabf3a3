/*
 * sized_options.h - options structs that may grow: the public options of
 * dls/embed.h begin with `size_t size`, the size of the struct the program
 * was built with, which its init function records.  A library with a
 * longer struct reads the fields the program knows and keeps its own
 * defaults for the rest.
 */
#ifndef DLS_SIZED_OPTIONS_H
#define DLS_SIZED_OPTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * An init function's work: opts (size octets, as the program was built)
 * takes the defaults (full_size octets, this library's struct) for the
 * fields both know, zero beyond, and records size in its size field.
 */
void sized_options_init(void *opts, size_t size, const void *defaults, size_t full_size);

/*
 * full (full_size octets, holding this library's defaults) takes the
 * fields of given that the program knew: the first given->size octets, at
 * most full_size; full's size becomes full_size.  0, or -1 when given's
 * size is not a size its init function wrote (the options were not made
 * by it), full then unchanged.
 */
int sized_options_merge(void *full, size_t full_size, const void *given);

#ifdef __cplusplus
}
#endif
#endif
