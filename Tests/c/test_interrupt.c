/* drupal_set_interrupt_fd: a blocking call also waits for a pipe; when it becomes readable the
 * callback decides whether the call ends (DRUPAL_E_CANCELLED) or goes on waiting.
 * drupal_set_interrupt_watch: the same, and a check every interval while the call waits. */
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

static int checks;
static int cancel_at_check;   /* 0: never */

static int on_check(void *userdata) {
    CHECK(userdata == &checks);
    checks++;
    return cancel_at_check && checks >= cancel_at_check;
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

    /* Bad watch settings are refused, and leave no watch behind. */
    CHECK_CODE(drupal_set_interrupt_watch(-2, 100, on_check, &checks), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_set_interrupt_watch(-1, -1, on_check, &checks), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_STR(drupal_last_error(), "interval_ms -1 is not between 0 and 600000");
    CHECK_CODE(drupal_set_interrupt_watch(-1, 600001, on_check, &checks), DRUPAL_E_INVALID_ARGUMENT);

    /* No fd, a check every 100 ms: the third check ends a stalled call. */
    CHECK_CODE(drupal_set_interrupt_watch(-1, 100, on_check, &checks), DRUPAL_OK);
    cancel_at_check = 3;
    took = stalled_call(c, "X-Fake-Fault: stall;seconds=20", DRUPAL_E_CANCELLED);
    CHECK_INT(checks, 3);
    CHECK(took >= 0.29 && took < 5);
    CHECK_STR(drupal_last_error(), "the blocking call was interrupted");

    /* Checks that say "go on" leave a slow call alone; each wait counts from its own call. */
    checks = 0;
    cancel_at_check = 0;
    took = stalled_call(c, "X-Fake-Fault: delay;ms=650", DRUPAL_OK);
    CHECK(took >= 0.6);
    CHECK(checks >= 3 && checks <= 7);

    /* A call answered within the interval never runs the check. */
    checks = 0;
    cancel_at_check = 1;
    CHECK_CODE(drupal_set_interrupt_watch(-1, 5000, on_check, &checks), DRUPAL_OK);
    {
        drupal_response *r = NULL;
        CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", NULL), DRUPAL_OK);
        drupal_response_free(r);
    }
    CHECK_INT(checks, 0);

    /* Both the fd and the interval: the pipe still ends the call at once. */
    wakeups = 0;
    cancel_on_wakeup = 1;
    CHECK_CODE(drupal_set_interrupt_watch(pipe_fds[0], 5000, on_interrupt, &wakeups), DRUPAL_OK);
    took = stalled_call(c, "X-Fake-Fault: stall;seconds=20", DRUPAL_E_CANCELLED);
    CHECK(took < 3);
    CHECK_INT(wakeups, 1);

    /* fd -1 and interval 0 remove it. */
    CHECK_CODE(drupal_set_interrupt_watch(-1, 0, NULL, NULL), DRUPAL_OK);
    took = stalled_call(c, "X-Fake-Fault: delay;ms=400", DRUPAL_OK);
    CHECK_INT(wakeups, 1);

    /* Only the thread that set it is watched; the client works on. */
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    drupal_client_free(c);
    return check_summary();
}
