#include "dls/workload.h"

#include <string.h>

#include "dls/err.h"
#include "mandel.h"

#define MAX_WORKLOADS 16

static uint64_t mandelbrot(const struct workload_job *job, int64_t x, uint16_t *out)
{
	struct mandel_params m = {job->width, job->height, job->maxit};

	return mandel_column(&m, (int32_t)x, out);
}

static struct {
	char name[32];
	workload_fn fn;
} table[MAX_WORKLOADS] = {{"mandelbrot", mandelbrot}};
static int count = 1;

int workload_register(const char *name, workload_fn fn)
{
	if (!name || !*name || strlen(name) >= sizeof(table[0].name) || !fn)
		return DLS_EINVAL;
	for (int i = 0; i < count; i++) {
		if (!strcmp(table[i].name, name)) {
			table[i].fn = fn;
			return DLS_OK;
		}
	}
	if (count == MAX_WORKLOADS)
		return DLS_ENOMEM;
	strcpy(table[count].name, name);
	table[count++].fn = fn;
	return DLS_OK;
}

workload_fn workload_find(const char *name)
{
	for (int i = 0; i < count; i++)
		if (!strcmp(table[i].name, name))
			return table[i].fn;
	return NULL;
}
