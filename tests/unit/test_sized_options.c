/*
 * test_sized_options.c - options structs that may grow: a program built
 * with fewer fields, or more, than the library keeps working.
 */
#include <CUnit/CUnit.h>
#include <stddef.h>
#include <string.h>

#include "sized_options.h"
#include "suites.h"

/* The library's struct; a program built before had only `old` of it. */
struct grown {
	size_t size;
	const char *run;
	int old;
	int added; /* a later field: its default holds for older programs */
};

static const struct grown defaults = {sizeof(struct grown), "dflt", 7, 42};

static void test_older_program(void)
{
	struct grown given, full = defaults;
	size_t older = offsetof(struct grown, added);

	memset(&given, 0xAB, sizeof(given)); /* what lies beyond is not the program's */
	sized_options_init(&given, older, &defaults, sizeof(defaults));
	CU_ASSERT_EQUAL(given.size, older);
	CU_ASSERT_EQUAL(given.old, 7);
	CU_ASSERT_STRING_EQUAL(given.run, "dflt");
	given.old = 3;
	CU_ASSERT_EQUAL(sized_options_merge(&full, sizeof(full), &given), 0);
	CU_ASSERT_EQUAL(full.size, sizeof(full));
	CU_ASSERT_EQUAL(full.old, 3);	 /* the program's */
	CU_ASSERT_EQUAL(full.added, 42); /* the library's default, not 0xABABABAB */
}

static void test_newer_program(void)
{
	unsigned char given[sizeof(struct grown) + 16];
	struct grown full = defaults;

	sized_options_init(given, sizeof(given), &defaults, sizeof(defaults));
	CU_ASSERT_EQUAL(given[sizeof(given) - 1], 0); /* fields this library does not know: 0 */
	((struct grown *)(void *)given)->added = 5;
	CU_ASSERT_EQUAL(sized_options_merge(&full, sizeof(full), given), 0);
	CU_ASSERT_EQUAL(full.added, 5);
	CU_ASSERT_EQUAL(full.size, sizeof(full));
}

static void test_not_initialized(void)
{
	struct grown given, full = defaults;

	memset(&given, 0, sizeof(given)); /* no init: size 0 */
	given.old = 9;
	CU_ASSERT_EQUAL(sized_options_merge(&full, sizeof(full), &given), -1);
	CU_ASSERT_EQUAL(full.old, 7); /* unchanged */
	memset(&given, 0xFF, sizeof(given));
	CU_ASSERT_EQUAL(sized_options_merge(&full, sizeof(full), &given), -1);
}

int sized_options_suite_add(void)
{
	CU_pSuite s = CU_add_suite("sized options", NULL, NULL);

	return !s || !CU_add_test(s, "a program built with fewer fields", test_older_program) ||
	       !CU_add_test(s, "a program built with more fields", test_newer_program) ||
	       !CU_add_test(s, "options no init function made", test_not_initialized);
}
