/* SPDX-License-Identifier: BSD-2-Clause */
/* Vector math for the host pipeline (vecmath.c): libmvec's vector forms of
 * the libm functions, offered to LLVM's loop vectoriser. */
#ifndef KJ_VECMATH_H
#define KJ_VECMATH_H

#include "codegen.h"

/* Mark the module's calls of libm functions (sinf, llvm.sin.f32, pow, ...)
 * with the vector forms the target machine can call. Before optimising. */
void kj_vecmath_annotate(LLVMModuleRef mod, LLVMTargetMachineRef tm);

#endif
