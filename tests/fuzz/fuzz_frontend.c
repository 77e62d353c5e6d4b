/* libFuzzer target for the front end: lex, parse and check arbitrary bytes
 * through the public API, the way `kjit check` does.
 *
 * Any input must give either a module or a compile error, never a crash, a
 * sanitizer report, a leak or a hang. Built and run by tests/fuzz/build.sh
 * and scripts/test-all.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "kjit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kjit_error err = {0};
    kjit_options opt;
    kjit_options_init(&opt);
    opt.check_only = 1; /* the front end only: no machine code, no cache */
    opt.cache = 0;
    kjit_ctx *ctx = kjit_ctx_new(&opt, &err);
    if (!ctx)
        return 0;
    kjit_module *m = kjit_compile(ctx, (const char *)data, size, "fuzz.k", &err);
    if (m) {
        /* Printing the IR walks every function the checker produced. */
        char *ir = kjit_module_ir(m);
        free(ir);
        kjit_module_free(m);
    } else {
        /* Formatting walks every diagnostic and its source span. */
        char *diags = kjit_ctx_diagnostics(ctx, KJIT_DIAG_HUMAN);
        free(diags);
    }
    kjit_ctx_free(ctx);
    return 0;
}
