#ifndef MAKIMA_WSLAY_SHIM_H
#define MAKIMA_WSLAY_SHIM_H
#include <stddef.h>
#include <sys/types.h>
#include <wslay/wslay.h>
#endif
