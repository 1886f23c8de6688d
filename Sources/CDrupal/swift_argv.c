/* The Swift runtime's command-line entry points, defined here for an embedded library.
 *
 * libswiftCore.a's CommandLine.cpp finds the process's argv in a static initialiser that reads
 * /proc/self/maps line by line with sscanf: ~0.3 ms of every dlopen of this library, a third of
 * its own share (bench case 8, PROFILES.md). glibc hands argc and argv to every ELF constructor,
 * dlopen'ed ones included, so a constructor here captures the same arguments for free, and
 * defining the two entry points keeps the linker from taking CommandLine.cpp.o out of the
 * archive. The library itself never reads the command line; Swift's CommandLine still answers
 * correctly. Not exported (the version script exports drupal_* only). Elsewhere than glibc the
 * runtime's own version stays. */
#include <stdlib.h>   /* defines __GLIBC__ on glibc */

#if defined(__GLIBC__)

static char *no_arguments[] = { NULL };
static char **saved_argv = no_arguments;
static int saved_argc = 0;

__attribute__((constructor))
static void drupal__save_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argv != NULL && argc > 0) {
        saved_argv = argv;
        saved_argc = argc;
    }
}

/* Never NULL: Swift imports the result as a non-optional pointer. */
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    *outArgLen = saved_argc;
    return saved_argv;
}

void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    saved_argv = argv != NULL ? argv : no_arguments;
    saved_argc = argv != NULL ? argc : 0;
}
#endif
