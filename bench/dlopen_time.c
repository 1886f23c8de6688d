/* Start-up cost: time dlopen() of a shared object in a fresh process. Prints ms.
 *   dlopen_time LIB [lazy] [nosym] [preload]
 *   default  RTLD_NOW: every symbol bound and every initialiser run, as the first call needs
 *   lazy     RTLD_LAZY instead
 *   nosym    don't check for drupal_version (for timing other libraries, e.g. libcurl)
 *   preload  dlopen libcurl and Jansson first, untimed: what the library itself adds in a
 *            process that already uses them */
#include "common.h"
#include <dlfcn.h>

static int has(int argc, char **argv, const char *word) {
    for (int i = 2; i < argc; i++) if (!strcmp(argv[i], word)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) DIE("usage: dlopen_time LIB.so [lazy] [nosym] [preload]");
    int flags = has(argc, argv, "lazy") ? RTLD_LAZY : RTLD_NOW;
    if (has(argc, argv, "preload")) {
        if (!dlopen("libcurl.so.4", RTLD_NOW | RTLD_GLOBAL)) DIE("dlopen libcurl: %s", dlerror());
        if (!dlopen("libjansson.so.4", RTLD_NOW | RTLD_GLOBAL)) DIE("dlopen jansson: %s", dlerror());
    }
    double t0 = now_s();
    void *h = dlopen(argv[1], flags | RTLD_LOCAL);
    double dt = now_s() - t0;
    if (!h) DIE("dlopen: %s", dlerror());
    if (!has(argc, argv, "nosym")) {
        const char *(*version)(void) = (const char *(*)(void))dlsym(h, "drupal_version");
        if (!version || !version()[0]) DIE("drupal_version missing");
    }
    result("dlopen_ms", dt * 1e3);
    return 0;
}
