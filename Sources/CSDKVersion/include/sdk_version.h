/* The SDK's version for the Swift core, from the public header: the one place it is written. */
#ifndef DRUPAL_SDK_VERSION_SHIM_H
#define DRUPAL_SDK_VERSION_SHIM_H
#include "../../../include/drupalsdk.h"
#endif
