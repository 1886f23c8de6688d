/* Completion queues (drupal_queue_*, declared in include/drupalsdk.h). A target of their own
 * because they call the Swift exports (drupal_response_retain/free): the C helpers in CDrupal
 * stay buildable on their own (their tests and fuzz targets link them without the Swift part). */
#ifndef CDRUPAL_QUEUE_H
#define CDRUPAL_QUEUE_H
#include "../../../include/drupalsdk.h"
#endif
