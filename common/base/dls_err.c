#include "dls/err.h"

static const char *const texts[DLS_ECOUNT] = {
	[DLS_OK] = "success",
	[DLS_EINVAL] = "argument out of range",
	[DLS_ENOMEM] = "out of memory",
	[DLS_EDONE] = "loop exhausted",
	[DLS_ENOPOWER] = "no slave has available computing power (every A_i is 0)",
	[DLS_EOVERFLOW] = "value does not fit in 64 bits",
	[DLS_ENOENT] = "no such name or id",
	[DLS_ESTATE] = "request does not fit the current state",
	[DLS_EIO] = "input/output error",
	[DLS_ETIMEDOUT] = "timed out",
	[DLS_EREMOTE] = "remote call failed",
	[DLS_ESTOPPED] = "stopped on request before the run ended",
};

const char *dls_strerror(int rc)
{
	if (rc < 0 || rc >= DLS_ECOUNT || !texts[rc])
		return "unknown error";
	return texts[rc];
}
