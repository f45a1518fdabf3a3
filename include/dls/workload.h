/*
 * workload.h - loop bodies, looked up by name.
 *
 * A workload turns a job's parameters (name = value text, PROTOCOL.md 3)
 * into a loop: how many iterations, how many result octets each, and the
 * numpy type of its values; then it computes any range of its loop indices.
 * The master opens the job's workload to size, check and store the results;
 * each slave opens it to compute.  DLS ships "mandelbrot" (docs/emulation.md) and
 * "pendulum" (a parameter sweep of a pendulum near its separatrix, results
 * as doubles); a host program registers its own loop body under a name of
 * its choice and runs a job naming it.
 *
 * Results are little-endian (DLS runs on little-endian hosts only).
 * Registration is not thread-safe: register before starting a master or a
 * slave.
 */
#ifndef DLS_WORKLOAD_H
#define DLS_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "dls/job.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DLS_WORKLOAD_NAME_LEN 32

/* The loop a job describes. */
struct dls_loop {
	int64_t iterations;    /* loop indices 0 .. iterations - 1, >= 1 */
	uint32_t result_bytes; /* octets of result per iteration, 1 .. DLS_MAX_RESULT_BYTES */
	char dtype[8];	       /* numpy type of one value ("<u2", "<f8", "|u1"); result_bytes
				  is a whole number of them */
	/* Set before open is called, for open to read: the loop's number in
	 * its run, 0 first (the job's reserved parameter dls.loop; a run of
	 * many loops runs the loop once per number).  A workload whose loop
	 * changes from one loop of a run to the next reads it here. */
	uint32_t number;
};

struct dls_workload {
	const char *name; /* < DLS_WORKLOAD_NAME_LEN characters; copied at registration */
	void *user;	  /* handed to open */
	/*
	 * Reads the job's parameters into *loop and, if it needs one, a state
	 * for the other calls (*state starts NULL).  An unknown parameter or a
	 * bad value: DLS_EINVAL with why naming it.  Required.
	 */
	int (*open)(void *user, const struct dls_param *params, size_t n, struct dls_loop *loop,
		    void **state, char *why, size_t len);
	/* Frees what open made.  Optional. */
	void (*close)(void *state);
	/*
	 * Computes loop indices first .. first + count - 1 into out
	 * (count * result_bytes octets, index by index) and adds their cost in
	 * unit iterations to *cost (an emulated slave sleeps cost x t_iter).
	 * DLS_OK, or an error code with why.  Called from several threads at
	 * once.  Required.
	 */
	int (*body)(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		    char *why, size_t len);
	/*
	 * Could data (result_bytes octets) be loop index `index`'s result?
	 * DLS_OK, or DLS_EINVAL with why naming the bad value: the master then
	 * refuses the whole message.  Optional (NULL: any octets are accepted).
	 */
	int (*check)(void *state, int64_t index, const void *data, char *why, size_t len);
	/*
	 * The cost of index's result in unit iterations, read from the result
	 * itself, so that the master knows the loop's work (T_ideal, E).
	 * Optional (NULL: the report shows no E).
	 */
	uint64_t (*cost)(void *state, int64_t index, const void *data);
};

/*
 * Adds a workload or replaces the one of the same name (*w is copied).
 * DLS_OK, DLS_EINVAL (no name, name too long, no open or body), DLS_ENOMEM
 * (the table of 32 is full).
 */
int dls_workload_register(const struct dls_workload *w);

/* The workload registered under name ("mandelbrot" and "pendulum" are built in), or NULL. */
const struct dls_workload *dls_workload_find(const char *name);

/* The names of the registered workloads, comma-separated, for a usage line. */
const char *dls_workload_names(void);

/*
 * Parameter helpers for open functions.  Each looks `name` up in params and
 * reads it whole (a decimal integer, or a C-locale double) into *out, or
 * leaves the default in *out when absent.  DLS_OK, or DLS_EINVAL with why
 * ("parameter NAME: VALUE is not ...") for a bad or out-of-range value.
 */
int dls_param_int(const struct dls_param *params, size_t n, const char *name, int64_t lo,
		  int64_t hi, int64_t *out, char *why, size_t len);
int dls_param_double(const struct dls_param *params, size_t n, const char *name, double lo,
		     double hi, double *out, char *why, size_t len);

/*
 * DLS_OK when every parameter's name is in known (NULL-terminated), else
 * DLS_EINVAL with why naming the first stranger and the known names.
 */
int dls_params_known(const struct dls_param *params, size_t n, const char *const *known,
		     char *why, size_t len);

/*
 * Sets name = value in params (replacing an earlier value) where *n counts
 * the entries in use.  DLS_OK, DLS_EINVAL (name or value too long, or
 * empty name), DLS_ENOMEM (DLS_MAX_PARAMS in use).
 */
int dls_params_set(struct dls_param *params, int *n, const char *name, const char *value);

#ifdef __cplusplus
}
#endif
#endif
