/*
 * glibc-compat.c - linked into libdrupalsdk.so by scripts/build-lib; hidden, never exported.
 *
 * The static libstdc++ the library links (std::random_device, which the library never calls)
 * references arc4random, which glibc has only since 2.36, while nothing else in the library
 * needs more than glibc 2.35. This definition, on getrandom (glibc 2.25), resolves that
 * reference inside the library, so the prebuilt library also loads on glibc 2.35 (Ubuntu 22.04).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

uint32_t arc4random(void) {
    uint32_t value;
    for (;;) {
        ssize_t n = getrandom(&value, sizeof value, 0);
        if (n == (ssize_t)sizeof value) return value;
        /* arc4random cannot report failure; glibc's own aborts when there is no entropy too. */
        if (n < 0 && errno != EINTR) abort();
    }
}
