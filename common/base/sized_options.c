/*
 * sized_options.c - options structs that may grow (sized_options.h).
 */
#include "sized_options.h"

#include <string.h>

void sized_options_init(void *opts, size_t size, const void *defaults, size_t full_size)
{
	memset(opts, 0, size);
	memcpy(opts, defaults, size < full_size ? size : full_size);
	memcpy(opts, &size, sizeof(size));
}

int sized_options_merge(void *full, size_t full_size, const void *given)
{
	size_t size;

	memcpy(&size, given, sizeof(size));
	/* an init function writes at least the size field and a pointer; a
	 * struct of an absurd size was never initialized */
	if (size < sizeof(size) + sizeof(void *) || size > (size_t)1 << 16)
		return -1;
	memcpy(full, given, size < full_size ? size : full_size);
	memcpy(full, &full_size, sizeof(full_size));
	return 0;
}
