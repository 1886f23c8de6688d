/* drupal_version: the numbers come from the public header, so they cannot drift apart. */
#include "drupalsdk.h"

#define DRUPAL_STR2(x) #x
#define DRUPAL_STR(x) DRUPAL_STR2(x)

const char *drupal_version(void) {
    return DRUPAL_STR(DRUPAL_SDK_VERSION_MAJOR) "." DRUPAL_STR(DRUPAL_SDK_VERSION_MINOR) "."
           DRUPAL_STR(DRUPAL_SDK_VERSION_PATCH);
}

unsigned int drupal_version_num(void) { return DRUPAL_SDK_VERSION_NUM; }
