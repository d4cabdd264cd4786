#ifndef MAKIMA_LCMS2_SHIM_H
#define MAKIMA_LCMS2_SHIM_H
// Little CMS: the CIEDE2000 colour difference (ColorScience.deltaE2000).
#include <lcms2.h>
#endif
