#define _POSIX_C_SOURCE 200809L
#include "dls/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int dls_log_level = DLS_LOG_WARN;
static char role_name[32] = "dls";

void dls_log_set_role(const char *role)
{
	snprintf(role_name, sizeof(role_name), "%s", role);
}

void dls_log_set_level(int level)
{
	const char *env;

	if (level >= 0) {
		dls_log_level = level;
		return;
	}
	env = getenv("DLS_LOG_LEVEL");
	if (!env)
		return;
	if (!strcmp(env, "err"))
		dls_log_level = DLS_LOG_ERR;
	else if (!strcmp(env, "warn"))
		dls_log_level = DLS_LOG_WARN;
	else if (!strcmp(env, "info"))
		dls_log_level = DLS_LOG_INFO;
	else if (!strcmp(env, "debug"))
		dls_log_level = DLS_LOG_DEBUG;
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
	fprintf(stderr, "%02d:%02d:%02d.%03ld %s[%ld] %s: %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
		ts.tv_nsec / 1000000L, role_name, (long)getpid(),
		names[level < 0 ? 0 : level > 3 ? 3 : level], msg);
}
