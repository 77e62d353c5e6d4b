/* Parser: tokens → AST (recursive descent, Python's grammar and precedence).
 * Unsupported Python constructs are parsed far enough to name them in an
 * error ("classes are not supported"); recovery skips to the next statement. */
#ifndef KJ_PARSER_H
#define KJ_PARSER_H

#include "../util/arena.h"
#include "../util/buf.h"
#include "ast.h"

/* Lex and parse a whole source. Always returns a module (possibly partial)
 * allocated in `a`; errors go to `d`. */
kj_module *kj_parse(const kj_source *src, kj_arena *a, kj_diags *d);

/* S-expression dump of a module, for tests: (module (def f (params a b) ...)) */
void kj_ast_dump(const kj_module *m, kj_buf *out);

#endif
