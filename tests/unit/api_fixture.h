/* SPDX-License-Identifier: BSD-2-Clause */
/* What the C API's unit tests share: a context for the cpu target and a
 * module compiled from a source, both asserted. Include after cmocka.h and
 * kjit.h (static functions: one test file each). */
#ifndef KJ_TEST_API_FIXTURE_H
#define KJ_TEST_API_FIXTURE_H

#include <string.h>

static kjit_module *api_compile_cpu(kjit_ctx **ctx, const char *src, const char *name)
{
    kjit_options o;
    kjit_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    kjit_error err;
    *ctx = kjit_ctx_new(&o, &err);
    assert_non_null(*ctx);
    kjit_module *m = kjit_compile(*ctx, src, strlen(src), name, &err);
    assert_non_null(m);
    return m;
}

#endif
