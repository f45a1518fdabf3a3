/*
 * err.h - the one error code space of DLS.
 *
 * Functions return int: DLS_OK (0) or a positive enum dls_err; results go in
 * out-parameters.  dls_strerror() gives the text.  Thread-safe.
 */
#ifndef DLS_ERR_H
#define DLS_ERR_H

#ifdef __cplusplus
extern "C" {
#endif

enum dls_err {
	DLS_OK = 0,
	DLS_EINVAL,	/* an argument is out of range */
	DLS_ENOMEM,	/* memory ran out */
	DLS_EDONE,	/* the loop is exhausted: nothing left to hand out */
	DLS_ENOPOWER,	/* every A_i is 0: nothing can be scheduled */
	DLS_EOVERFLOW,	/* a value does not fit in 64 bits */
	DLS_ENOENT,	/* unknown name or id */
	DLS_ESTATE,	/* the request does not fit the current state */
	DLS_EIO,	/* an input/output error; errno was logged */
	DLS_ETIMEDOUT,	/* a peer did not answer in time */
	DLS_EREMOTE,	/* a remote call failed */
	DLS_ESTOPPED,	/* stopped on request before the run ended */
	DLS_ECOUNT	/* number of codes; not an error */
};

/* Returns a static, lower-case description of rc; never NULL. */
const char *dls_strerror(int rc);

#ifdef __cplusplus
}
#endif
#endif
