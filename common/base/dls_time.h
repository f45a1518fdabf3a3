/*
 * dls_time.h - monotonic time in seconds, absolute sleeps, and the time base
 * of condition-variable waits.  Thread-safe.
 */
#ifndef DLS_TIME_H
#define DLS_TIME_H

#include <pthread.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CLOCK_MONOTONIC in seconds. */
double dls_now(void);

/*
 * Sleeps until the monotonic time `deadline` (clock_nanosleep with
 * TIMER_ABSTIME, so that overshoots do not accumulate) and returns the
 * overshoot in seconds (0 when the deadline had already passed).
 */
double dls_sleep_until(double deadline);

/*
 * Asks the kernel for the smallest timer slack for this thread (and the
 * threads it creates later), so that absolute sleeps end on time.  0 or -1.
 */
int dls_precise_timers(void);

/*
 * Sleeps until `end`, aimed *lag earlier, and learns *lag (a running mean
 * of how late such sleeps wake, the machine's wake-up latency) from this
 * one, so that sleeps aimed this way end at their `end` on average.  A
 * target already past is not slept and counts as on time, so that a lag
 * learnt in a stall decays instead of cutting every later sleep short.
 * The emulation's one mechanism: link delays, chunks' emulated ends.
 */
void dls_sleep_aimed(double end, double *lag);

/*
 * Sleeps for `seconds` as an emulated delay (a link's latency): aimed
 * earlier by the wake-up latency this thread's earlier calls measured (a
 * running mean), so that the delays last what they say on average instead
 * of each ending late by the machine's wake-up latency (about 70 us here):
 * dls_sleep_aimed with a lag of the calling thread's own.  Nothing for
 * seconds <= 0.
 */
void dls_sleep_emulated(double seconds);

/* Sleeps for ms milliseconds. */
void dls_sleep_ms(int ms);

/* Initialises a condition variable that waits on CLOCK_MONOTONIC. */
int dls_cond_init(pthread_cond_t *c);

/* A deadline that never comes: dls_cond_wait_until then waits for a signal only. */
#define DLS_NEVER 1e15

/*
 * Waits on c for at most until the monotonic time `deadline` (seconds).
 * Returns 0 or ETIMEDOUT.
 */
int dls_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m, double deadline);

#ifdef __cplusplus
}
#endif
#endif
