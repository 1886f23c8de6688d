/* Regression (fixed): drupal_client_free returned while the client's curl thread ("drupalsdk-curl")
 * was still shutting down and releasing the last responses it delivered, so a program exiting at
 * once was reported by valgrind as leaking page bodies (seen in examples/c/jsonapi_walk), and
 * the library still ran code after the caller had freed the client. Now freeing a client joins
 * its thread: each drupal_client_free joins a thread before it returns (counted by the
 * pthread_join below, which the library's calls reach first), and no curl thread is left running
 * after it. No server needed. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <drupalsdk.h>

/* Joins that returned, library threads' included: this definition comes before libc's. */
static int joins;
int pthread_join(pthread_t thread, void **result) {
    static int (*real)(pthread_t, void **);
    if (real == NULL) *(void **)(&real) = dlsym(RTLD_NEXT, "pthread_join");
    int rc = real(thread, result);
    if (rc == 0) __atomic_add_fetch(&joins, 1, __ATOMIC_SEQ_CST);
    return rc;
}

/* Whether the thread still has the process's memory: once a thread has ended (the point where
 * pthread_join returns), the kernel may list it under /proc for a moment more, but without an
 * address space (vsize, field 23 of its stat, is 0). */
static int has_memory(const char *tid) {
    char path[300], line[1024];
    FILE *stat;
    const char *cursor;
    int field;
    snprintf(path, sizeof path, "/proc/self/task/%s/stat", tid);
    if ((stat = fopen(path, "r")) == NULL) return 0;
    cursor = fgets(line, sizeof line, stat) ? strrchr(line, ')') : NULL;
    fclose(stat);
    if (cursor == NULL) return 0;
    for (field = 2; field < 23 && cursor; field++) cursor = strchr(cursor + 1, ' ');
    return cursor != NULL && strtoul(cursor + 1, NULL, 10) != 0;
}

/* How many threads of this process named "drupalsdk-curl" are still running. */
static int curl_threads(void) {
    DIR *tasks = opendir("/proc/self/task");
    struct dirent *entry;
    int count = 0;
    if (!tasks) return -1;
    while ((entry = readdir(tasks)) != NULL) {
        char path[300], name[64] = "";
        FILE *comm;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
        if ((comm = fopen(path, "r")) == NULL) continue;
        if (fgets(name, sizeof name, comm) && strcmp(name, "drupalsdk-curl\n") == 0 && has_memory(entry->d_name)) count++;
        fclose(comm);
    }
    closedir(tasks);
    return count;
}

/* The curl threads still listed after a join: the kernel wakes the joiner while the ended thread
 * is still leaving (it may be listed, with its memory, a moment longer); one still there after
 * 200 ms is running. */
static int curl_threads_after_free(void) {
    struct timespec pause = {0, 1000000};
    int left = curl_threads(), waited;
    for (waited = 0; left > 0 && waited < 200; waited++) {
        nanosleep(&pause, NULL);
        left = curl_threads();
    }
    return left;
}

int main(void) {
    int i, failures = 0;
    for (i = 0; i < 20; i++) {
        drupal_client *c = NULL;
        drupal_response *r = NULL;
        int before;
        drupal_client_new(&c, "http://127.0.0.1:1", NULL);  /* nothing listens: fails at once */
        drupal_entity_get_sync(&r, c, "node", "1");
        drupal_response_free(r);
        if (curl_threads() != 1) { fprintf(stderr, "round %d: %d curl threads with a client\n", i, curl_threads()); failures++; }
        before = __atomic_load_n(&joins, __ATOMIC_SEQ_CST);
        drupal_client_free(c);
        if (__atomic_load_n(&joins, __ATOMIC_SEQ_CST) <= before) {
            fprintf(stderr, "round %d: drupal_client_free returned without joining a thread\n", i);
            failures++;
        }
        if (curl_threads_after_free() != 0) { fprintf(stderr, "round %d: the curl thread outlived drupal_client_free\n", i); failures++; }
    }
    puts(failures ? "FAILED" : "done");
    return failures ? 1 : 0;
}
