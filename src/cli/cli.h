/* Shared by the `kjit` command's files (main.c: arguments and the
 * compile-only commands; run.c: `kjit run`). Both use only <kjit.h>. */
#ifndef KJ_CLI_H
#define KJ_CLI_H

#include <kjit.h>

/* Exit status of the command. */
enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

/* Call main of the compiled module `m` with its defaults overridden by the
 * NAME=VALUE arguments in `params[0..nparams)`; run-time errors are printed
 * in diagnostic format `fmt`. Returns the exit status. */
int kjit_cli_run(kjit_module *m, char **params, int nparams, kjit_diag_format fmt);

#endif
