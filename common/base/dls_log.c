#define _POSIX_C_SOURCE 200809L
#include "dls_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int dls_log_level = DLS_LOG_WARN;
static char role_name[32] = "dls";
static _Thread_local char thread_label[64];

/* The level DLS_LOG_LEVEL names, or -1 (unset, or not a level). */
static int level_from_env(const char **value)
{
	static const char *const names[] = {"err", "warn", "info", "debug"};
	const char *env = getenv("DLS_LOG_LEVEL");

	*value = env;
	if (env && !strcmp(env, "error"))
		return DLS_LOG_ERR;
	for (int i = 0; env && i < 4; i++)
		if (!strcmp(env, names[i]))
			return i;
	return -1;
}

/* DLS_LOG_LEVEL holds from the start, in a program that never sets a level
 * (a host of embedded slaves) too; a value that is not a level is said once. */
__attribute__((constructor)) static void log_level_from_env(void)
{
	const char *env;
	int level = level_from_env(&env);

	if (level >= 0)
		dls_log_level = level;
	else if (env)
		fprintf(stderr, "dls: DLS_LOG_LEVEL '%s': not one of err, warn, info, debug; "
				"the level stays warn\n",
			env);
}

void dls_log_set_role(const char *role)
{
	snprintf(role_name, sizeof(role_name), "%s", role);
}

void dls_log_set_level(int level)
{
	const char *env;

	if (level < 0)
		level = level_from_env(&env);
	if (level >= 0)
		dls_log_level = level > DLS_LOG_DEBUG ? DLS_LOG_DEBUG : level;
}

void dls_log_set_thread_label(const char *label)
{
	snprintf(thread_label, sizeof(thread_label), "%s", label ? label : "");
}

const char *dls_log_thread_label(void)
{
	return thread_label;
}

void dls_log_write(int level, const char *fmt, ...)
{
	static const char *const names[] = {"error", "warn", "info", "debug"};
	char msg[1024];
	struct timespec ts;
	struct tm tm;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	fprintf(stderr, "%02d:%02d:%02d.%03ld %s[%ld]%s%s %s: %s\n", tm.tm_hour, tm.tm_min,
		tm.tm_sec, ts.tv_nsec / 1000000L, role_name, (long)getpid(),
		thread_label[0] ? " " : "", thread_label,
		names[level < 0 ? 0 : level > 3 ? 3 : level], msg);
}
