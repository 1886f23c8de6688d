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
/* Same with a byte length (message need not be NUL-terminated). */
DRUPAL_INTERNAL int drupal__fail_n(int code, const char *message, size_t length);
/* Clears the calling thread's last error (a call that succeeds leaves the old one in place,
 * as errno does; only tests use this). */
/* 1 while the calling thread runs a library callback, so _sync calls can refuse. */
DRUPAL_INTERNAL int drupal__in_callback(void);
DRUPAL_INTERNAL void drupal__set_in_callback(int flag);

#endif
