/* SPDX-License-Identifier: MIT */
/* The commands only iodfg has (iodfg-mpi runs convert, dfg, stats and characterize, declared in
 * cmdline/cli.h): argv[0] is the subcommand name; each returns an enum cli_exit. */
#ifndef IODFG_CLI_COMMANDS_H
#define IODFG_CLI_COMMANDS_H

int cli_info(int argc, char **argv);
int cli_bandwidth(int argc, char **argv);
int cli_handles(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_insights(int argc, char **argv);
int cli_callsites(int argc, char **argv);
int cli_heatmap(int argc, char **argv);
int cli_offsets(int argc, char **argv);
int cli_timeline(int argc, char **argv);

#endif
