#ifndef MAKIMA_BUILD_INFO_SHIM_H
#define MAKIMA_BUILD_INFO_SHIM_H
// The commit the binary was built from. `make build`/`make release` write it to
// .build/build-info.h (scripts/build-info.sh, rewritten only when it changes, so an unchanged
// commit costs no rebuild); a plain `swift build` without it says nothing of the commit.
#if __has_include("../../.build/build-info.h")
#include "../../.build/build-info.h"
#endif
#ifndef MAKIMA_BUILD_COMMIT
#define MAKIMA_BUILD_COMMIT ""
#endif
static inline const char *mk_build_commit(void) { return MAKIMA_BUILD_COMMIT; }
#endif
