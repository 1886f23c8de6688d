/* Nothing to compile: the target exists for its header (SwiftPM needs a source file). */
#include "sdk_version.h"
