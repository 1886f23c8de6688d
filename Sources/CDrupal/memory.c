/* drupal_free: strings the library hands out are malloc'd; callers free them through us so a
 * program with another allocator (or a debug CRT) still frees with the right one. */
#include <stdlib.h>
#include "drupalsdk.h"

void drupal_free(void *pointer) { free(pointer); }
