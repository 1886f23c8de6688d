/* Which library callbacks run on this thread, and for which client: a stack of frames that live
 * on the callers' own stacks (no allocation), innermost first. A thread can be inside several at
 * once: a callback of one client that starts a call on another runs that client's event
 * listeners. */
#include "cdrupal.h"

static _Thread_local drupal__callback_frame *innermost = NULL;

void drupal__callback_enter(drupal__callback_frame *frame, const void *client, int kind) {
    frame->client = client;
    frame->kind = kind;
    frame->outer = innermost;
    innermost = frame;
}

void drupal__callback_leave(drupal__callback_frame *frame) { innermost = frame->outer; }

int drupal__in_callback(void) {
    for (const drupal__callback_frame *frame = innermost; frame != NULL; frame = frame->outer) {
        if (frame->kind == DRUPAL__CALLBACK) return 1;
    }
    return 0;
}

int drupal__in_callback_of(const void *client, int kind) {
    for (const drupal__callback_frame *frame = innermost; frame != NULL; frame = frame->outer) {
        if (frame->client == client && (kind == 0 || frame->kind == kind)) return 1;
    }
    return 0;
}
