#include "dls_time.h"

#include <errno.h>
#include <math.h>
#include <sys/prctl.h>

double dls_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct timespec to_timespec(double t)
{
	struct timespec ts;
	double whole = floor(t);

	ts.tv_sec = (time_t)whole;
	ts.tv_nsec = (long)((t - whole) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

double dls_sleep_until(double deadline)
{
	struct timespec ts = to_timespec(deadline);
	double late;

	if (dls_now() >= deadline)
		return 0;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	late = dls_now() - deadline;
	return late > 0 ? late : 0;
}

void dls_sleep_aimed(double end, double *lag)
{
	*lag += (dls_sleep_until(end - *lag) - *lag) / 8;
}

void dls_sleep_emulated(double seconds)
{
	static __thread double wake_lag;

	if (seconds > 0)
		dls_sleep_aimed(dls_now() + seconds, &wake_lag);
}

void dls_sleep_ms(int ms)
{
	dls_sleep_until(dls_now() + ms / 1000.0);
}

int dls_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int rc;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	rc = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return rc;
}

int dls_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m, double deadline)
{
	struct timespec ts;

	if (deadline >= DLS_NEVER) /* no deadline: beyond what a timespec holds */
		return pthread_cond_wait(c, m);
	ts = to_timespec(deadline);
	return pthread_cond_timedwait(c, m, &ts);
}

int dls_precise_timers(void)
{
	/* the default 50 us slack is added to every emulated chunk's sleep */
	return prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}
