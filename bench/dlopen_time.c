/* Start-up cost: time dlopen() of a shared object in a fresh process (RTLD_NOW: every symbol
 * bound and every initialiser run, as the first call would need). Prints ms. */
#include "common.h"
#include <dlfcn.h>

int main(int argc, char **argv) {
    if (argc < 2) DIE("usage: dlopen_time LIB.so [lazy|nosym]");
    int check = !(argc > 2 && !strcmp(argv[2], "nosym"));
    int flags = (argc > 2 && !strcmp(argv[2], "lazy")) ? RTLD_LAZY : RTLD_NOW;
    double t0 = now_s();
    void *h = dlopen(argv[1], flags | RTLD_LOCAL);
    double dt = now_s() - t0;
    if (!h) DIE("dlopen: %s", dlerror());
    if (check) {
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "drupal_version");
    if (!version || !version()[0]) DIE("drupal_version missing");
    }
    result("dlopen_ms", dt * 1e3);
    return 0;
}
