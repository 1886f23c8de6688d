/* Completion queues (drupal_queue_*): outcomes of async calls queued for one consumer, which an
 * eventfd wakes once per batch. The queue is freed when its owner freed it and no call still
 * holds one of its tickets; everything else happens under its lock. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "cdrupal.h"

/* A call's userdata until it ends, then its outcome's place in the queue. */
struct ticket {
    struct ticket *next;
    drupal_queue *queue;
    uint64_t tag;
    drupal_code code;
    drupal_response *response;
};

struct drupal_queue {
    pthread_mutex_t lock;
    int fd;
    int readable;    /* the eventfd was written since the queue was last emptied */
    int closed;      /* the owner freed it: outcomes that arrive are dropped */
    size_t refs;     /* the owner's, and one per ticket whose call has not ended */
    struct ticket *head, *tail;
};

static void release(drupal_queue *queue) {
    pthread_mutex_lock(&queue->lock);
    int last = --queue->refs == 0;
    pthread_mutex_unlock(&queue->lock);
    if (!last) return;
    close(queue->fd);
    pthread_mutex_destroy(&queue->lock);
    free(queue);
}

drupal_code drupal_queue_new(drupal_queue **queue) {
    if (queue == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "queue is NULL");
    *queue = NULL;
    drupal_queue *made = calloc(1, sizeof *made);
    if (made == NULL) return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory for a completion queue");
    made->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (made->fd < 0) {
        char message[128];
        snprintf(message, sizeof message, "eventfd for a completion queue failed: %s", strerror(errno));
        free(made);
        return drupal__fail(DRUPAL_E_NO_MEMORY, message);
    }
    pthread_mutex_init(&made->lock, NULL);
    made->refs = 1;
    *queue = made;
    return DRUPAL_OK;
}

int drupal_queue_fd(const drupal_queue *queue) { return queue ? queue->fd : -1; }

drupal_code drupal_queue_ticket(void **userdata, drupal_queue *queue, uint64_t tag) {
    if (userdata == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "userdata is NULL");
    *userdata = NULL;
    if (queue == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "queue is NULL");
    struct ticket *ticket = calloc(1, sizeof *ticket);
    if (ticket == NULL) return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory for a queue ticket");
    ticket->queue = queue;
    ticket->tag = tag;
    pthread_mutex_lock(&queue->lock);
    queue->refs++;
    pthread_mutex_unlock(&queue->lock);
    *userdata = ticket;
    return DRUPAL_OK;
}

void drupal_queue_ticket_free(void *userdata) {
    struct ticket *ticket = userdata;
    if (ticket == NULL) return;
    drupal_queue *queue = ticket->queue;
    drupal_response_free(ticket->response);
    free(ticket);
    release(queue);
}

void drupal_queue_callback(drupal_code code, drupal_response *response, void *userdata) {
    struct ticket *ticket = userdata;
    if (ticket == NULL) return;
    drupal_queue *queue = ticket->queue;
    ticket->code = code;
    ticket->response = drupal_response_retain(response);
    ticket->next = NULL;
    pthread_mutex_lock(&queue->lock);
    if (queue->closed) {
        pthread_mutex_unlock(&queue->lock);
        drupal_queue_ticket_free(ticket);
        return;
    }
    if (queue->tail) queue->tail->next = ticket;
    else queue->head = ticket;
    queue->tail = ticket;
    queue->refs--;   /* the outcome now belongs to the queue, which the owner still holds */
    if (!queue->readable) {
        /* Once per batch: the consumer is woken by the first outcome after it emptied the queue. */
        uint64_t one = 1;
        if (write(queue->fd, &one, sizeof one) == (ssize_t)sizeof one) queue->readable = 1;
    }
    pthread_mutex_unlock(&queue->lock);
}

size_t drupal_queue_pop(drupal_completion *out, drupal_queue *queue, size_t capacity) {
    if (out == NULL || queue == NULL) return 0;
    size_t taken = 0;
    pthread_mutex_lock(&queue->lock);
    while (taken < capacity && queue->head) {
        struct ticket *ticket = queue->head;
        queue->head = ticket->next;
        out[taken].tag = ticket->tag;
        out[taken].code = ticket->code;
        out[taken].response = ticket->response;
        free(ticket);
        taken++;
    }
    if (queue->head == NULL) {
        queue->tail = NULL;
        if (queue->readable) {
            uint64_t count;
            ssize_t got = read(queue->fd, &count, sizeof count);
            (void)got;   /* 8 bytes, or EAGAIN if already read: either way no longer readable */
            queue->readable = 0;
        }
    }
    pthread_mutex_unlock(&queue->lock);
    return taken;
}

void drupal_queue_free(drupal_queue *queue) {
    if (queue == NULL) return;
    pthread_mutex_lock(&queue->lock);
    queue->closed = 1;
    struct ticket *left = queue->head;
    queue->head = queue->tail = NULL;
    pthread_mutex_unlock(&queue->lock);
    while (left) {
        struct ticket *next = left->next;
        drupal_response_free(left->response);
        free(left);
        left = next;
    }
    release(queue);
}
