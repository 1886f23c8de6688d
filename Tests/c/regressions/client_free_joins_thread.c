/* Regression (fixed): drupal_client_free returned while the client's curl thread ("drupalsdk-curl")
 * was still shutting down and releasing the last responses it delivered, so a program exiting at
 * once was reported by valgrind as leaking page bodies (seen in examples/c/jsonapi_walk), and
 * the library still ran code after the caller had freed the client. Now freeing a client joins
 * its thread: once drupal_client_free returns, no thread of that client is left. No server
 * needed. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drupalsdk.h>

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

int main(void) {
    int i, failures = 0;
    for (i = 0; i < 20; i++) {
        drupal_client *c = NULL;
        drupal_response *r = NULL;
        drupal_client_new(&c, "http://127.0.0.1:1", NULL);  /* nothing listens: fails at once */
        drupal_entity_get_sync(&r, c, "node", "1");
        drupal_response_free(r);
        if (curl_threads() != 1) { fprintf(stderr, "round %d: %d curl threads with a client\n", i, curl_threads()); failures++; }
        drupal_client_free(c);
        if (curl_threads() != 0) { fprintf(stderr, "round %d: the curl thread outlived drupal_client_free\n", i); failures++; }
    }
    puts(failures ? "FAILED" : "done");
    return failures ? 1 : 0;
}
