/*
 * The registration barrier without sockets: V_i over the slowest speed and
 * its clamp, the run's limit, the window, a late child, the caller checks.
 */
#include <CUnit/CUnit.h>
#include <string.h>

#include "dls/err.h"
#include "dls_time.h"
#include "roster.h"
#include "suites.h"

static void test_roster(void)
{
	struct roster r;
	const char *names[3] = {"a", "b", "c"};
	const double speeds[3] = {2, 4, 1}, bad = -1, late = 0.5;
	int ids[3], id;
	uint64_t keys[3];
	char why[256];

	CU_ASSERT_EQUAL_FATAL(roster_init(&r, 3, 1000), DLS_OK);
	CU_ASSERT_EQUAL(roster_add(&r, names, &bad, 1, NULL, ids, keys, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "positive finite"));
	CU_ASSERT_EQUAL(roster_add(&r, names, speeds, 2, NULL, ids, keys, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(ids[1], 1);
	CU_ASSERT_EQUAL(roster_close_if_due(&r, r.first_time), 0); /* one missing */
	CU_ASSERT_EQUAL(roster_add(&r, names + 2, speeds + 2, 1, NULL, ids, keys + 2, why, sizeof(why)),
			DLS_OK);
	CU_ASSERT_EQUAL(roster_close_if_due(&r, r.first_time), 1);
	/* V_i over the slowest */
	CU_ASSERT_DOUBLE_EQUAL(r.v[0].info.vpower, 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.v[1].info.vpower, 4, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.v[2].info.vpower, 1, 1e-12);
	CU_ASSERT_EQUAL(roster_add(&r, names, &late, 1, NULL, &id, keys, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_EQUAL(roster_check_caller(&r, 2, keys[2], why, sizeof(why)), DLS_OK);
	/* another child's capability, or none: not the process that registered */
	CU_ASSERT_EQUAL(roster_check_caller(&r, 2, keys[1], why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "capability"));
	CU_ASSERT_EQUAL(roster_check_caller(&r, 2, 0, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT(keys[0] != 0 && keys[0] != keys[1] && keys[1] != keys[2]);
	CU_ASSERT_EQUAL(roster_check_caller(&r, 3, 0, why, sizeof(why)), DLS_ENOENT);
	CU_ASSERT_EQUAL(roster_check_caller(&r, -1, 0, why, sizeof(why)), DLS_ENOENT);
	r.v[2].info.state = DLS_SLAVE_LOST;
	CU_ASSERT_EQUAL(roster_check_caller(&r, 2, keys[2], why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT(!roster_alive(&r, 2));
	roster_free(&r);

	/* the window counts from the start: nobody in by then, the run cannot start */
	CU_ASSERT_EQUAL_FATAL(roster_init(&r, 3, 1000), DLS_OK);
	CU_ASSERT(!roster_abandoned(&r, r.created + 0.5));
	CU_ASSERT(roster_abandoned(&r, r.created + 1.0));
	CU_ASSERT_EQUAL(roster_close_if_due(&r, r.created + 2), 0);
	roster_free(&r);

	/* the window: closes with those registered; a late one counts >= 1 */
	CU_ASSERT_EQUAL_FATAL(roster_init(&r, 3, 1000), DLS_OK);
	CU_ASSERT_EQUAL(roster_add(&r, names, speeds, 1, NULL, ids, keys, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(roster_close_if_due(&r, r.first_time + 0.5), 0);
	CU_ASSERT_EQUAL(roster_close_if_due(&r, roster_deadline(&r)), 1);
	CU_ASSERT_EQUAL(roster_add(&r, names + 1, &late, 1, NULL, &id, keys, why, sizeof(why)), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.v[id].info.vpower, 1, 1e-12);
	roster_free(&r);

	/* a liar's tiny speed does not blow up the others' V_i */
	{
		const double liar[2] = {1e-10, 2};

		CU_ASSERT_EQUAL_FATAL(roster_init(&r, 2, 1000), DLS_OK);
		CU_ASSERT_EQUAL(roster_add(&r, names, liar, 2, NULL, ids, keys, why, sizeof(why)),
				DLS_OK);
		CU_ASSERT_EQUAL(roster_close_if_due(&r, r.first_time), 1);
		CU_ASSERT_DOUBLE_EQUAL(r.v[0].info.vpower, 1, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(r.v[1].info.vpower, ROSTER_MAX_VPOWER, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(roster_vpower(&r, 1e-12), 1, 1e-12);
		roster_free(&r);
	}
}

/* A registration made already, by the same caller: found whole, or not at all. */
/* A child that will not come is withdrawn: one fewer expected, the roster
 * closes when the others are in; refused for a registered or withdrawn
 * name, once closed, or when no child would be left; a withdrawn name that
 * registers after all is refused, and so is a name registered through a
 * relay hmaster ('HMASTER/NAME'). */
static void test_roster_withdraw(void)
{
	struct roster r;
	const char *a = "a", *x = "x", *relayed = "hmaster.0.1/slave.3";
	const double one = 1;
	uint64_t key;
	int id;
	char why[256];

	CU_ASSERT_EQUAL_FATAL(roster_init(&r, 3, 60000), DLS_OK);
	CU_ASSERT_EQUAL(roster_withdraw(&r, "", why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_EQUAL(roster_withdraw(&r, x, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(r.expected, 2);
	CU_ASSERT_EQUAL(roster_withdraw(&r, x, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "withdrawn already"));
	CU_ASSERT_EQUAL(roster_add(&r, &a, &one, 1, NULL, &id, &key, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(roster_withdraw(&r, a, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "it registered"));
	CU_ASSERT_EQUAL(roster_add(&r, &x, &one, 1, NULL, &id, &key, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "'x' was withdrawn"));
	CU_ASSERT_EQUAL(roster_close_if_due(&r, dls_now()), 0); /* 1 of 2 */
	CU_ASSERT_EQUAL(roster_withdraw(&r, "b", why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(roster_close_if_due(&r, dls_now()), 1); /* 1 of 1: closed */
	CU_ASSERT_EQUAL(roster_withdraw(&r, "c", why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "registration has closed"));
	roster_free(&r);
	CU_ASSERT_EQUAL_FATAL(roster_init(&r, 1, 60000), DLS_OK);
	CU_ASSERT_EQUAL(roster_withdraw(&r, a, why, sizeof(why)), DLS_EINVAL); /* none left */
	roster_free(&r);
	/* a name a relay hmaster brought in as 'HMASTER/name' registered */
	CU_ASSERT_EQUAL_FATAL(roster_init(&r, 3, 60000), DLS_OK);
	CU_ASSERT_EQUAL(roster_add(&r, &relayed, &one, 1, NULL, &id, &key, why, sizeof(why)),
			DLS_OK);
	CU_ASSERT_EQUAL(roster_withdraw(&r, "slave.3", why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "it registered"));
	CU_ASSERT_EQUAL(roster_withdraw(&r, "ave.3", why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(r.expected, 2);
	roster_free(&r);
}

static void test_roster_find_again(void)
{
	struct roster r;
	const char *names[3] = {"a", "b", "c"}, *swapped[2] = {"b", "a"};
	const double speeds[3] = {2, 4, 1}, leaf = 1;
	char long_name[100];
	const char *longs[1] = {long_name};
	int ids[3] = {-1, -1, -1};
	uint64_t keys[3];
	char why[256];

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = 0;
	CU_ASSERT_EQUAL_FATAL(roster_init(&r, 5, 1000), DLS_OK);
	CU_ASSERT_EQUAL(roster_add(&r, names, speeds, 2, NULL, ids, keys, why, sizeof(why)),
			DLS_OK);
	r.v[0].caller = r.v[1].caller = 7;
	CU_ASSERT_EQUAL(
	    roster_add(&r, names + 2, speeds + 2, 1, &leaf, ids, keys, why, sizeof(why)), DLS_OK);
	r.v[2].caller = 8;
	CU_ASSERT_EQUAL(roster_add(&r, longs, speeds, 1, NULL, ids, keys, why, sizeof(why)),
			DLS_OK);
	r.v[3].caller = 9;
	CU_ASSERT(roster_find_again(&r, names, speeds, 2, NULL, 7, ids));
	CU_ASSERT(ids[0] == 0 && ids[1] == 1);
	CU_ASSERT(roster_find_again(&r, names + 1, speeds + 1, 1, NULL, 7, ids) && ids[0] == 1);
	/* caller unknown or another; another speed, order, kind or length */
	CU_ASSERT(!roster_find_again(&r, names, speeds, 2, NULL, 0, ids));
	CU_ASSERT(!roster_find_again(&r, names, speeds, 2, NULL, 8, ids));
	CU_ASSERT(!roster_find_again(&r, names, speeds + 1, 1, NULL, 7, ids));
	CU_ASSERT(!roster_find_again(&r, swapped, speeds, 2, NULL, 7, ids));
	CU_ASSERT(!roster_find_again(&r, names, speeds, 3, NULL, 7, ids));
	CU_ASSERT(!roster_find_again(&r, names, speeds, 1, &leaf, 7, ids));
	/* a cluster: its slowest speed too */
	CU_ASSERT(roster_find_again(&r, names + 2, speeds + 2, 1, &leaf, 8, ids) && ids[0] == 2);
	CU_ASSERT(!roster_find_again(&r, names + 2, speeds + 2, 1, NULL, 8, ids));
	CU_ASSERT(!roster_find_again(&r, names + 2, speeds + 2, 1, &speeds[0], 8, ids));
	/* a name longer than the roster keeps is compared as kept */
	CU_ASSERT(roster_find_again(&r, longs, speeds, 1, NULL, 9, ids) && ids[0] == 3);
	CU_ASSERT(!roster_find_again(&r, names, speeds, 0, NULL, 7, ids));
	roster_free(&r);
}

int roster_suite_add(void)
{
	CU_pSuite s = CU_add_suite("roster", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "V_i, its clamp, limits, window, callers", test_roster) ||
	       !CU_add_test(s, "a registration asked again", test_roster_find_again) ||
	       !CU_add_test(s, "a child withdrawn before it registered", test_roster_withdraw);
}
