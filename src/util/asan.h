/* SPDX-License-Identifier: BSD-2-Clause */
/* KJ_ASAN: 1 when this translation unit is built with AddressSanitizer
 * (gcc defines __SANITIZE_ADDRESS__, clang answers __has_feature), else 0.
 * The fault handler defers to ASan's own; tests skip what ASan aborts on. */
#ifndef KJ_ASAN_H
#define KJ_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define KJ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KJ_ASAN 1
#endif
#endif
#ifndef KJ_ASAN
#define KJ_ASAN 0
#endif

#endif
