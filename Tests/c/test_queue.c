/* Completion queues: outcomes of async calls taken from a queue whose eventfd wakes the consumer,
 * against the fake server and a mock; bad input; a call that did not start; a queue freed with
 * outcomes waiting and calls still in flight (ASan sees any leak or use after free). */
#include "check.h"
#include <poll.h>

/* Waits up to ms for the queue's fd to become readable; 1 if it did. */
static int readable_within(drupal_queue *queue, int ms) {
    struct pollfd watch = {.fd = drupal_queue_fd(queue), .events = POLLIN, .revents = 0};
    return poll(&watch, 1, ms) == 1 && (watch.revents & POLLIN);
}

static void test_bad_input(void) {
    drupal_queue *queue = NULL;
    void *ticket = (void *)1;
    drupal_completion out[1];
    CHECK_CODE(drupal_queue_new(NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(drupal_queue_fd(NULL), -1);
    CHECK_CODE(drupal_queue_ticket(NULL, NULL, 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_queue_ticket(&ticket, NULL, 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(ticket == NULL);
    CHECK_INT((int)drupal_queue_pop(out, NULL, 1), 0);
    CHECK_CODE(drupal_queue_new(&queue), DRUPAL_OK);
    CHECK(drupal_queue_fd(queue) >= 0);
    CHECK_INT((int)drupal_queue_pop(NULL, queue, 1), 0);
    CHECK_INT((int)drupal_queue_pop(out, queue, 0), 0);
    CHECK_INT((int)drupal_queue_pop(out, queue, 1), 0);   /* empty */
    CHECK(!readable_within(queue, 0));
    drupal_queue_ticket_free(NULL);
    drupal_queue_callback(DRUPAL_OK, NULL, NULL);          /* no ticket: nothing to do */
    drupal_queue_free(queue);
    drupal_queue_free(NULL);
}

/* Starts n GETs of /node/1 whose outcomes go to queue under tags 1..n; returns how many started. */
static int start_gets(drupal_client *client, drupal_queue *queue, int n) {
    int started = 0;
    for (int i = 1; i <= n; i++) {
        void *ticket = NULL;
        CHECK_CODE(drupal_queue_ticket(&ticket, queue, (uint64_t)i), DRUPAL_OK);
        if (drupal_entity_get(NULL, client, "node", "1", drupal_queue_callback, ticket) == DRUPAL_OK) started++;
        else drupal_queue_ticket_free(ticket);
    }
    return started;
}

/* Takes n outcomes in batches of at most 8; checks each tag comes once, as a 200. */
static void collect(drupal_queue *queue, int n) {
    int seen[65] = {0};
    int taken = 0, wakeups = 0;
    while (taken < n && readable_within(queue, 5000)) {
        wakeups++;
        drupal_completion batch[8];
        size_t got;
        while ((got = drupal_queue_pop(batch, queue, 8)) > 0) {
            for (size_t i = 0; i < got; i++) {
                CHECK_INT(batch[i].code, DRUPAL_OK);
                CHECK(batch[i].response != NULL);
                CHECK_INT(drupal_response_status(batch[i].response), 200);
                if (batch[i].tag >= 1 && batch[i].tag <= (uint64_t)n) seen[batch[i].tag]++;
                drupal_response_free(batch[i].response);
            }
            taken += (int)got;
        }
    }
    CHECK_INT(taken, n);
    for (int i = 1; i <= n; i++) CHECK_INT(seen[i], 1);
    CHECK(wakeups >= 1 && wakeups <= n);
    /* Emptied: the fd is no longer readable until the next outcome. */
    CHECK(!readable_within(queue, 0));
}

static void test_outcomes_from_the_network(void) {
    drupal_client *client = new_client();
    drupal_queue *queue = NULL;
    CHECK_CODE(drupal_queue_new(&queue), DRUPAL_OK);
    CHECK_INT(start_gets(client, queue, 40), 40);
    collect(queue, 40);
    /* The queue is reused for the next batch. */
    CHECK_INT(start_gets(client, queue, 5), 5);
    collect(queue, 5);
    drupal_queue_free(queue);
    drupal_client_free(client);
}

static void test_outcomes_from_a_mock_and_errors(void) {
    drupal_client *mock = NULL;
    drupal_queue *queue = NULL;
    drupal_completion out[2];
    void *ticket = NULL;
    CHECK_CODE(drupal_mock_client_new(&mock), DRUPAL_OK);
    CHECK_CODE(drupal_queue_new(&queue), DRUPAL_OK);
    CHECK_CODE(drupal_queue_ticket(&ticket, queue, 7), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get(NULL, mock, "node", "999", drupal_queue_callback, ticket), DRUPAL_OK);
    CHECK(readable_within(queue, 5000));
    CHECK_INT((int)drupal_queue_pop(out, queue, 2), 1);
    CHECK(out[0].tag == 7);
    CHECK_INT(out[0].code, DRUPAL_E_HTTP);            /* the failure travels with its response */
    CHECK_INT(drupal_response_status(out[0].response), 404);
    drupal_response_free(out[0].response);
    /* A call that does not start never calls back: its ticket is the caller's to free. */
    CHECK_CODE(drupal_queue_ticket(&ticket, queue, 8), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get(NULL, mock, "not a type", "1", drupal_queue_callback, ticket),
               DRUPAL_E_INVALID_ARGUMENT);
    drupal_queue_ticket_free(ticket);
    CHECK_INT((int)drupal_queue_pop(out, queue, 2), 0);
    drupal_queue_free(queue);
    drupal_client_free(mock);
}

/* Freed with outcomes waiting and calls in flight: those are dropped, nothing leaks. */
static void test_free_with_work_left(void) {
    drupal_client *client = new_client();
    drupal_queue *queue = NULL;
    CHECK_CODE(drupal_queue_new(&queue), DRUPAL_OK);
    CHECK_INT(start_gets(client, queue, 4), 4);
    CHECK(readable_within(queue, 5000));
    CHECK_INT(start_gets(client, queue, 16), 16);
    drupal_queue_free(queue);
    drupal_client_free(client);   /* ends the calls still running: their outcomes are dropped */
}

int main(void) {
    fake_reset();
    test_bad_input();
    test_outcomes_from_the_network();
    test_outcomes_from_a_mock_and_errors();
    test_free_with_work_left();
    return check_summary();
}
