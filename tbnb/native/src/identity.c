/* The library's identity: the hash of the C sources it was compiled from, so that a
 * stale build (sources changed since) is recognised and not used. */
#include "tbnb_native.h"

#ifndef TBNB_NATIVE_SOURCE_HASH
#define TBNB_NATIVE_SOURCE_HASH "unknown"
#endif

const char *tbnb_source_hash(void) { return TBNB_NATIVE_SOURCE_HASH; }
