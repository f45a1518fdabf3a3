/*
 * slave_embed.h - what the step API (slave_steps.c) needs of the embedded
 * slave (slave_embed.cc): a slave thread that calls back when its run ends.
 */
#ifndef DLS_SLAVE_EMBED_H
#define DLS_SLAVE_EMBED_H

#include "dls/embed.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The program's options (as its init function sized them) completed with
 * this library's defaults in *full: DLS_OK, or DLS_EINVAL with why when
 * they were not made by dls_embed_slave_options_init.
 */
int slave_embed_options(const struct dls_embed_slave_options *given,
			struct dls_embed_slave_options *full, char *why, size_t len);

/* dls_embed_slave_start, with on_end(ctx) called in the slave's thread as its run ends. */
int slave_embed_start(const struct dls_embed_slave_options *o, void (*on_end)(void *ctx),
		      void *end_ctx, struct dls_embed_slave **out, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
