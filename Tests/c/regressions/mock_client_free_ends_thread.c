/* Regression (fixed): a mock client that had answered an async call was never freed. The
 * call's cancel (kept by the task-free call until it was freed) held the mock's queued job, and
 * the job held the call's completion, which held the call: a cycle. So drupal_client_free left
 * the client, its in-memory site and its answering thread ("drupalsdk-mock") behind, one per
 * client. LeakSanitizer did not see it: the thread still running kept it all reachable. Now a
 * finished call lets go of what cancels it, and the thread ends with its client. No server. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <drupalsdk.h>

/* How many threads of this process named "drupalsdk-mock" are listed. */
static int mock_threads(void) {
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
        if (fgets(name, sizeof name, comm) && strcmp(name, "drupalsdk-mock\n") == 0) count++;
        fclose(comm);
    }
    closedir(tasks);
    return count;
}

/* The mock threads left after waiting up to 2 s for them to end. */
static int mock_threads_after(void) {
    struct timespec pause = {0, 10000000};
    int left = mock_threads(), waited;
    for (waited = 0; left > 0 && waited < 200; waited++) {
        nanosleep(&pause, NULL);
        left = mock_threads();
    }
    return left;
}

static int answers;
static void on_answer(drupal_code code, drupal_response *response, void *userdata) {
    (void)response;
    (void)userdata;
    if (code == DRUPAL_OK || code == DRUPAL_E_HTTP) __atomic_add_fetch(&answers, 1, __ATOMIC_SEQ_CST);
}

int main(void) {
    int i, failures = 0;
    for (i = 0; i < 5; i++) {
        drupal_client *mock = NULL;
        struct timespec pause = {0, 1000000};
        int waited, before = __atomic_load_n(&answers, __ATOMIC_SEQ_CST);
        if (drupal_mock_client_new(&mock) != DRUPAL_OK) { fprintf(stderr, "no mock client\n"); return 1; }
        /* One answer found (200), one not (404): both come back through the callback. */
        if (drupal_entity_get(NULL, mock, "node", "1", on_answer, NULL) != DRUPAL_OK
            || drupal_entity_get(NULL, mock, "node", "999", on_answer, NULL) != DRUPAL_OK) {
            fprintf(stderr, "round %d: a call did not start: %s\n", i, drupal_last_error());
            failures++;
        }
        for (waited = 0; __atomic_load_n(&answers, __ATOMIC_SEQ_CST) < before + 2 && waited < 5000; waited++)
            nanosleep(&pause, NULL);
        if (__atomic_load_n(&answers, __ATOMIC_SEQ_CST) != before + 2) {
            fprintf(stderr, "round %d: %d answers of 2\n", i, __atomic_load_n(&answers, __ATOMIC_SEQ_CST) - before);
            failures++;
        }
        if (mock_threads() != 1) { fprintf(stderr, "round %d: %d mock threads with one client\n", i, mock_threads()); failures++; }
        drupal_client_free(mock);
        if (mock_threads_after() != 0) {
            fprintf(stderr, "round %d: the mock thread outlived drupal_client_free (%d left)\n", i, mock_threads());
            failures++;
        }
    }
    puts(failures ? "FAILED" : "done");
    return failures ? 1 : 0;
}
