/* The floor for a Python -> C -> Python callback round trip: call cb(userdata) once. */
typedef void (*ffi_floor_cb)(int code, void *response, void *userdata);
void ffi_floor_call(ffi_floor_cb cb, void *userdata) { cb(0, 0, userdata); }
