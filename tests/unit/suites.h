/* suites.h - each tests/unit/test_<module>.c exports one <module>_suite_add(). */
#ifndef DLS_TEST_SUITES_H
#define DLS_TEST_SUITES_H

int sched_suite_add(void);
int sched_random_suite_add(void);
int sched_adapt_suite_add(void);
int sched_auto_suite_add(void);
int tree_plan_suite_add(void);
int mandel_suite_add(void);
int cli_opt_suite_add(void);
int master_suite_add(void);
int master_loops_suite_add(void);
int slave_suite_add(void);
int sim_suite_add(void);
int hmaster_suite_add(void);
int tree_sim_suite_add(void);
int pile_sim_suite_add(void);
int coordinator_suite_add(void);
int coordinator_journal_suite_add(void);
int serve_suite_add(void);
int roster_suite_add(void);
int run_auth_suite_add(void);
int journal_suite_add(void);
int journal_mac_suite_add(void);
int liveness_suite_add(void);
int workload_suite_add(void);
int net_addr_suite_add(void);
int takeback_suite_add(void);
int host_peers_suite_add(void);
int timeline_suite_add(void);
int out_files_suite_add(void);
int verify_suite_add(void);
int sized_options_suite_add(void);
int placed_slave_suite_add(void);

#endif
