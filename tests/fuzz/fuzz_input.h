/*
 * fuzz_input.h - reads a fuzzer's bytes as the fields of hostile calls.
 * Each reader takes what it needs from the front and returns 0 (or the
 * first choice) once the input is spent, so every input is a valid script.
 * Integers and doubles come half of the time from a table of values that
 * break careless code (0, -1, extremes, 2^62, NaN, ...).
 */
#ifndef DLS_FUZZ_INPUT_H
#define DLS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct fz {
	const uint8_t *p;
	size_t n;
};

/* Non-zero while bytes are left. */
int fz_left(const struct fz *f);

/* One byte (0 once spent). */
uint8_t fz_u8(struct fz *f);

/* A value in 0 .. n - 1 (n >= 1). */
uint32_t fz_pick(struct fz *f, uint32_t n);

/* Any 32- or 64-bit value, often a hostile one. */
uint32_t fz_u32(struct fz *f);
int64_t fz_i64(struct fz *f);

/* A value near `near` (near - 2 .. near + 2) one time in two, else fz_i64. */
int64_t fz_i64_near(struct fz *f, int64_t near);

/* A double: often 0, negative, tiny, huge, NaN or infinite. */
double fz_double(struct fz *f);

/* A slave id: mostly one of the n real ones (0 .. n - 1), else any int. */
int fz_id(struct fz *f, int n);

/*
 * A capability for slave id: mostly the one issued to it (key(ctx, id)),
 * else another slave's, else any value.
 */
uint64_t fz_key(struct fz *f, uint64_t (*key)(void *ctx, int id), void *ctx, int id, int n);

/* Copies up to n bytes into out, zero-filling what the input lacks. */
void fz_bytes(struct fz *f, void *out, size_t n);

/* A broken invariant: says which, and aborts (the fuzzer keeps the input). */
#define FZ_ASSERT(cond)                                                                    \
	do {                                                                               \
		if (!(cond))                                                               \
			fz_fail(__FILE__, __LINE__, #cond);                                \
	} while (0)
void fz_fail(const char *file, int line, const char *what) __attribute__((noreturn));

/* With FZ_TRACE set in the environment: prints to stderr (a harness's
 * calls and answers, to read why an input breaks an invariant). */
void fz_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Once per process: the cores' refusals logged at warning level are the
 * point of fuzzing, so only errors are printed. */
void fz_setup(void);

/* LLVMFuzzerTestOneInput: every harness defines it (libFuzzer's entry). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
