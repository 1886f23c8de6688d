/* ThreadSanitizer cannot see Synchronization.Mutex's slow paths: when the lock is contended, it
 * is taken and given back inside the toolchain's uninstrumented libswiftSynchronization.so (a
 * CAS there, or the kernel through FUTEX_LOCK_PI), so TSan misses the happens-before edge and
 * reports every access under such a lock as a race (a two-thread counter under a Mutex is
 * "racy"). Linked into a TSan test binary, this file interposes the three slow-path entry
 * points, calls the real ones, and tells TSan about the acquire or release on the lock word,
 * the address the inlined fast path's atomics already use. Test tooling only, never shipped.
 *
 * The functions are Swift methods of _MutexHandle: swiftcall, with the handle's address (self)
 * in the context register (swift_context is LLVM's swiftself) and selfId as the first argument. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

typedef SWIFTCALL void (*lock_slow_fn)(uint32_t self_id, void *SWIFT_SELF handle);
typedef SWIFTCALL _Bool (*try_lock_slow_fn)(void *SWIFT_SELF handle);
typedef SWIFTCALL void (*unlock_slow_fn)(void *SWIFT_SELF handle);

static lock_slow_fn real_lock_slow;
static try_lock_slow_fn real_try_lock_slow;
static unlock_slow_fn real_unlock_slow;

static void *real(const char *name) {
    void *fn = dlsym(RTLD_NEXT, name);
    if (fn == NULL) {
        fprintf(stderr, "mutex_annotations: %s not found (has the Synchronization ABI changed?)\n", name);
        abort();
    }
    return fn;
}

/* Resolved before main, while there is one thread: no lazy initialisation to race on. */
__attribute__((constructor)) static void resolve(void) {
    real_lock_slow = (lock_slow_fn)real(LOCK_SLOW);
    real_try_lock_slow = (try_lock_slow_fn)real(TRY_LOCK_SLOW);
    real_unlock_slow = (unlock_slow_fn)real(UNLOCK_SLOW);
}

SWIFTCALL void lock_slow(uint32_t self_id, void *SWIFT_SELF handle) __asm__(LOCK_SLOW);
SWIFTCALL void lock_slow(uint32_t self_id, void *SWIFT_SELF handle) {
    real_lock_slow(self_id, handle);
    __tsan_acquire(handle);
}

SWIFTCALL _Bool try_lock_slow(void *SWIFT_SELF handle) __asm__(TRY_LOCK_SLOW);
SWIFTCALL _Bool try_lock_slow(void *SWIFT_SELF handle) {
    _Bool locked = real_try_lock_slow(handle);
    if (locked) __tsan_acquire(handle);
    return locked;
}

SWIFTCALL void unlock_slow(void *SWIFT_SELF handle) __asm__(UNLOCK_SLOW);
SWIFTCALL void unlock_slow(void *SWIFT_SELF handle) {
    __tsan_release(handle);
    real_unlock_slow(handle);
}
