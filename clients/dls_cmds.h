/*
 * dls_cmds.h - the sub-commands of `dls`.  Each takes the arguments after the
 * command word (argv[0] is the command) and returns the exit status: 0, 1 for
 * a runtime failure, 2 for bad usage.
 */
#ifndef DLS_CMDS_H
#define DLS_CMDS_H

int dls_cmd_chunks(int argc, char **argv);
int dls_cmd_mandel(int argc, char **argv);
int dls_cmd_reference(int argc, char **argv);
int dls_cmd_run(int argc, char **argv);
int dls_cmd_names(int argc, char **argv);
int dls_cmd_tls(int argc, char **argv);
int dls_cmd_status(int argc, char **argv);
int dls_cmd_withdraw(int argc, char **argv);
int dls_cmd_load(int argc, char **argv);
int dls_cmd_compare(int argc, char **argv);
int dls_cmd_simulate(int argc, char **argv);
int dls_cmd_bench(int argc, char **argv);
int dls_cmd_orbping(int argc, char **argv);
int dls_cmd_ingest(int argc, char **argv);
int dls_cmd_plot(int argc, char **argv);

#endif
