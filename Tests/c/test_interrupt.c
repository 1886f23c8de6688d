/* drupal_set_interrupt_fd: a blocking call also waits for a pipe; when it becomes readable the
 * callback decides whether the call ends (DRUPAL_E_CANCELLED) or goes on waiting. */
#include "check.h"
#include <fcntl.h>
#include <unistd.h>

static int pipe_fds[2];
static int wakeups;
static int cancel_on_wakeup;

static int on_interrupt(void *userdata) {
    char buffer[16];
    CHECK(userdata == &wakeups);
    wakeups++;
    while (read(pipe_fds[0], buffer, sizeof buffer) > 0) {}  /* made unreadable again */
    return cancel_on_wakeup;
}

static void *write_later(void *arg) {
    (void)arg;
    sleep_ms(300);
    if (write(pipe_fds[1], "x", 1) != 1) perror("write");
    return NULL;
}

/* A stalled request, with the pipe written 0.3 s in; returns how long the call took. */
static double stalled_call(drupal_client *c, const char *fault, drupal_code expected) {
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {fault, NULL};
    drupal_response *r = NULL;
    pthread_t writer;
    double started = now_seconds();
    o.headers = headers;
    pthread_create(&writer, NULL, write_later, NULL);
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), expected);
    pthread_join(writer, NULL);
    drupal_response_free(r);
    return now_seconds() - started;
}

int main(void) {
    drupal_client *c = new_client();
    double took;
    fake_reset();
    if (pipe(pipe_fds) != 0 || fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK) != 0) return 2;

    CHECK_CODE(drupal_set_interrupt_fd(-2, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_set_interrupt_fd(pipe_fds[0], on_interrupt, &wakeups), DRUPAL_OK);

    cancel_on_wakeup = 1;
    took = stalled_call(c, "X-Fake-Fault: stall;seconds=20", DRUPAL_E_CANCELLED);
    CHECK(took < 5);
    CHECK_INT(wakeups, 1);
    CHECK_STR(drupal_last_error(), "the blocking call was interrupted");

    /* A callback that says "go on": the call waits for its (delayed) answer. */
    cancel_on_wakeup = 0;
    took = stalled_call(c, "X-Fake-Fault: delay;ms=1000", DRUPAL_OK);
    CHECK(took >= 0.9);
    CHECK_INT(wakeups, 2);

    /* Removed: the pipe is not watched any more. */
    CHECK_CODE(drupal_set_interrupt_fd(-1, NULL, NULL), DRUPAL_OK);
    cancel_on_wakeup = 1;
    took = stalled_call(c, "X-Fake-Fault: delay;ms=800", DRUPAL_OK);
    CHECK_INT(wakeups, 2);

    /* Only the thread that set it is watched; the client works on. */
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    drupal_client_free(c);
    return check_summary();
}
