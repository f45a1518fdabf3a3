/*
 * log_limit.c - rate-limited warnings (see log_limit.h).
 */
#include "log_limit.h"

#include <stdarg.h>
#include <stdio.h>

#include "dls_log.h"
#include "dls_time.h"

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct log_limit *list;

/* The summary line of l's window, if anything was counted; l->lock held. */
static void summarise(struct log_limit *l, double now)
{
	char who[200] = "";
	int at = 0;

	if (l->suppressed) {
		if (l->nfrom)
			at = snprintf(who, sizeof(who), " (from");
		for (int i = 0; i < l->nfrom && at < (int)sizeof(who); i++)
			at += l->from[i] >= 0
				  ? snprintf(who + at, sizeof(who) - (size_t)at, "%s slave %d",
					     i ? "," : "", l->from[i])
				  : snprintf(who + at, sizeof(who) - (size_t)at, "%s no slave",
					     i ? "," : "");
		if (l->more_from && at < (int)sizeof(who))
			at += snprintf(who + at, sizeof(who) - (size_t)at, " and %d others",
				       l->more_from);
		if (l->nfrom && at < (int)sizeof(who))
			snprintf(who + at, sizeof(who) - (size_t)at, ")");
		log_warn("%s: %ld more in the last %.0f s%s", l->kind, l->suppressed,
			 now - l->window_start, who);
	}
	l->window_start = now;
	l->written = 0;
	l->suppressed = 0;
	l->nfrom = l->more_from = 0;
}

static void note_from(struct log_limit *l, int from)
{
	for (int i = 0; i < l->nfrom; i++)
		if (l->from[i] == from)
			return;
	if (l->nfrom < LOG_LIMIT_FROM)
		l->from[l->nfrom++] = from;
	else
		l->more_from++;
}

void log_limited(struct log_limit *l, int from, const char *fmt, ...)
{
	double now = dls_now();
	char line[1024];
	va_list ap;
	int write;

	if (DLS_LOG_WARN > dls_log_level)
		return;
	pthread_mutex_lock(&l->lock);
	if (!l->listed) {
		pthread_mutex_lock(&list_lock);
		l->next = list;
		list = l;
		pthread_mutex_unlock(&list_lock);
		l->listed = 1;
		l->window_start = now;
	}
	if (now - l->window_start >= LOG_LIMIT_WINDOW_S)
		summarise(l, now);
	write = l->written < LOG_LIMIT_LINES;
	if (write) {
		l->written++;
	} else {
		l->suppressed++;
		note_from(l, from);
	}
	pthread_mutex_unlock(&l->lock);
	if (!write)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_warn("%s", line);
}

void log_limit_flush(int all)
{
	double now = dls_now();

	pthread_mutex_lock(&list_lock);
	for (struct log_limit *l = list; l; l = l->next) {
		pthread_mutex_lock(&l->lock);
		if (l->suppressed && (all || now - l->window_start >= LOG_LIMIT_WINDOW_S))
			summarise(l, now);
		pthread_mutex_unlock(&l->lock);
	}
	pthread_mutex_unlock(&list_lock);
}
