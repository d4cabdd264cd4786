#ifndef MAKIMA_SHA1_SHIM_H
#define MAKIMA_SHA1_SHIM_H
#include <stddef.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
// Only SHA-1 (for Sec-WebSocket-Accept) and random bytes (for Sec-WebSocket-Key) are used.
static inline void mk_sha1(const unsigned char *data, size_t len, unsigned char out[20]) { SHA1(data, len, out); }
static inline int mk_random_bytes(unsigned char *buf, int len) { return RAND_bytes(buf, len); }
#endif
