#ifndef MAKIMA_CMARK_SHIM_H
#define MAKIMA_CMARK_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

// A parser for GitHub-flavoured markdown: the core extensions are registered once (a static
// flag inside the library) and the ones task output uses are attached by name, which Swift
// could do too, but the registration call and the name lookup read better in one place.
static inline cmark_parser *mk_cmark_gfm_parser(void) {
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (parser == NULL) return NULL;
    const char *names[] = {"table", "strikethrough", "tasklist", "autolink"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        cmark_syntax_extension *extension = cmark_find_syntax_extension(names[i]);
        if (extension != NULL) cmark_parser_attach_syntax_extension(parser, extension);
    }
    return parser;
}
#endif
