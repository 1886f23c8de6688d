// The C ABI exports live in this target (see include/drupalsdk.h).
