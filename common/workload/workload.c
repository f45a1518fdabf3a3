/*
 * workload.c - the table of workloads (see dls/workload.h).
 */
#include "dls/workload.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "mandel.h"
#include "pendulum.h"

#define MAX_WORKLOADS 32

static struct entry {
	char name[DLS_WORKLOAD_NAME_LEN];
	struct dls_workload w;
} table[MAX_WORKLOADS];
static int count;
static char names[MAX_WORKLOADS * (DLS_WORKLOAD_NAME_LEN + 2)];
/* the table is read by every slave of a program (each in a thread of its
 * own) and written by registrations: one lock; the built-ins once */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;

/* The built-in workloads, entered before the first lookup or registration. */
static void enter_builtins(void)
{
	table[0].w = mandel_workload;
	table[1].w = pendulum_workload;
	count = 2;
	for (int i = 0; i < count; i++) {
		snprintf(table[i].name, sizeof(table[i].name), "%s", table[i].w.name);
		table[i].w.name = table[i].name;
	}
}

static void builtins(void)
{
	pthread_once(&builtins_once, enter_builtins);
}

int dls_workload_register(const struct dls_workload *w)
{
	int i;

	if (!w || !w->name || !*w->name || strlen(w->name) >= DLS_WORKLOAD_NAME_LEN || !w->open ||
	    !w->body)
		return DLS_EINVAL;
	builtins();
	pthread_mutex_lock(&lock);
	for (i = 0; i < count && strcmp(table[i].name, w->name); i++)
		;
	if (i == MAX_WORKLOADS) {
		pthread_mutex_unlock(&lock);
		return DLS_ENOMEM;
	}
	snprintf(table[i].name, sizeof(table[i].name), "%s", w->name);
	table[i].w = *w;
	table[i].w.name = table[i].name;
	if (i == count)
		count++;
	pthread_mutex_unlock(&lock);
	return DLS_OK;
}

const struct dls_workload *dls_workload_find(const char *name)
{
	const struct dls_workload *found = NULL;

	builtins();
	pthread_mutex_lock(&lock);
	for (int i = 0; name && i < count && !found; i++)
		if (!strcmp(table[i].name, name))
			found = &table[i].w;
	pthread_mutex_unlock(&lock);
	return found;
}

const char *dls_workload_names(void)
{
	size_t at = 0;

	builtins();
	pthread_mutex_lock(&lock);
	for (int i = 0; i < count; i++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", i ? ", " : "",
				       table[i].name);
	pthread_mutex_unlock(&lock);
	return names;
}
