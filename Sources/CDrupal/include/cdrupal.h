/* Internal interface of the C half of libdrupalsdk, for the Swift C-ABI layer.
 * Nothing here is exported from the shared object (hidden visibility). */
#ifndef CDRUPAL_H
#define CDRUPAL_H

#include <stddef.h>
/* The public API, so the Swift exports can use its types (options, events, codes). */
#include "../../../include/drupalsdk.h"

#define DRUPAL_INTERNAL __attribute__((visibility("hidden")))

/* Records a failure for drupal_last_error() on the calling thread; returns code. */
DRUPAL_INTERNAL int drupal__fail(int code, const char *message);
/* Same with the failure's drupal_error_kind, for drupal_last_error_kind(). */
DRUPAL_INTERNAL int drupal__fail_kind(int code, int kind, const char *message);
/* Same with a byte length (message need not be NUL-terminated). */
DRUPAL_INTERNAL int drupal__fail_n(int code, const char *message, size_t length);
/* The last error's buffer, NUL included: long enough for Drupal's validation messages (the
 * response keeps more of a longer one); small because every thread of the process has one.
 * drupalsdk.h documents the cap. */
#define DRUPAL__LAST_ERROR_CAPACITY 2048
/* A library callback running on the calling thread (callback_frames.c): a frame on the stack of
 * the code that calls it, entered before and left after. _sync calls refuse inside a call's
 * callback, an event listener, a progress or write callback (DRUPAL__CALLBACK) of any client, and
 * inside a token provider (DRUPAL__TOKEN_PROVIDER) on its own client; drupal_client_free does not
 * wait for the calls of a client whose callback this thread is in (they cannot end before it
 * returns). "Client" is a ClientFamily: a client and its language views. */
enum { DRUPAL__CALLBACK = 1, DRUPAL__TOKEN_PROVIDER = 2 };
typedef struct drupal__callback_frame {
    const void *client;
    int kind;
    struct drupal__callback_frame *outer;
} drupal__callback_frame;
DRUPAL_INTERNAL void drupal__callback_enter(drupal__callback_frame *frame, const void *client, int kind);
DRUPAL_INTERNAL void drupal__callback_leave(drupal__callback_frame *frame);
/* 1 inside a DRUPAL__CALLBACK frame of any client. */
DRUPAL_INTERNAL int drupal__in_callback(void);
/* 1 inside a callback of this client of this kind (0: of any kind). */
DRUPAL_INTERNAL int drupal__in_callback_of(const void *client, int kind);

#endif
