/*
 * The CUnit runner: registers every suite, runs them verbosely, and exits
 * non-zero when any assertion failed (CU_basic_run_tests' return value is
 * not a failure count).
 */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "dls_log.h"
#include "suites.h"

int main(void)
{
	unsigned int failures;

	dls_log_set_level(DLS_LOG_ERR); /* the cores' warnings are expected here */
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	if (sched_suite_add() || sched_random_suite_add() || sched_adapt_suite_add() || sched_auto_suite_add() || tree_plan_suite_add() ||
	    mandel_suite_add() || cli_opt_suite_add() || master_suite_add() || master_loops_suite_add() ||
	    slave_suite_add() || sim_suite_add() ||
	    hmaster_suite_add() || tree_sim_suite_add() || pile_sim_suite_add() || coordinator_suite_add() ||
	    coordinator_journal_suite_add() ||
	    serve_suite_add() || roster_suite_add() || run_auth_suite_add() ||
	    journal_suite_add() || journal_mac_suite_add() || liveness_suite_add() || workload_suite_add() ||
	    net_addr_suite_add() || takeback_suite_add() || host_peers_suite_add() ||
	    timeline_suite_add() || out_files_suite_add() || verify_suite_add() ||
	    placed_slave_suite_add() ||
	    sized_options_suite_add()) {
		fprintf(stderr, "unit_tests: cannot register suites: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 1;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
