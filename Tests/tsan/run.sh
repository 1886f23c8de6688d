#!/usr/bin/env bash
# ThreadSanitizer over the concurrent code: `swift test --sanitize=thread` (the Swift core; the
# suites start their own fake server), then every C test (Tests/c/test_*.c, with the concurrency
# stress test) built with -fsanitize=thread against a TSan-instrumented libdrupalsdk.so (which
# adds the C-ABI layer, DrupalCABI, that swift test does not reach), against a private fake server.
# Both link Tests/tsan/mutex_annotations.c (TSan cannot see Synchronization.Mutex's slow paths)
# and use Tests/tsan/suppressions.txt. Any TSan report fails its suite.
# Builds go to .build/tsan (swift test), .build/tsan-lib and build/tsan.
# Last line: "tsan: N passed, M failed" (the Swift suite and each C test).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$(date +%s)
toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")
CLANG=${CLANG:-$toolchain/clang}
SWIFT_LIBS=$(readlink -f "$toolchain/../lib/swift/linux")
out=$root/build/tsan
mkdir -p "$out/lib" "$out/bin"
# halt_on_error=0: every report of a run is printed; TSan still exits with 66 when it reported.
# allocator_may_return_null: the tests check that a failed allocation is reported, not fatal.
export TSAN_OPTIONS="suppressions=$root/Tests/tsan/suppressions.txt halt_on_error=0 allocator_may_return_null=1 ${TSAN_OPTIONS:-}"

passed=0 failed=0 failures=()
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); failures+=("$1"); echo "FAILED: $1" >&2; }
# The reports of a log, one "race at ..." line each, for the summary.
reports() { grep -E '^SUMMARY: ThreadSanitizer' "$1" | sort | uniq -c | head -20 >&2; }

$CLANG -std=c11 -Wall -Wextra -Werror -O1 -fPIC -c Tests/tsan/mutex_annotations.c -o "$out/mutex_annotations.o" \
    || { echo "tsan: 0 passed, 1 failed"; exit 1; }

echo "== swift test --sanitize=thread"
t0=$(date +%s)
swift test --sanitize=thread --disable-swift-testing --scratch-path .build/tsan \
    -Xlinker "$out/mutex_annotations.o" > "$out/swift-test.log" 2>&1
rc=$?
grep -E "^\s+Executed [0-9]+ tests" "$out/swift-test.log" | tail -1
warnings=$(grep -c 'WARNING: ThreadSanitizer' "$out/swift-test.log")
if [ $rc -eq 0 ] && [ "$warnings" -eq 0 ]; then ok "swift test ($(( $(date +%s) - t0 )) s)"
else
    grep -E "error:|failed|WARNING: ThreadSanitizer" "$out/swift-test.log" | head -20 >&2
    reports "$out/swift-test.log"
    bad "swift test (exit $rc, $warnings TSan reports; log: $out/swift-test.log)"
fi

echo "== C tests against a TSan libdrupalsdk.so"
t0=$(date +%s)
if swift build -c release --sanitize=thread --product drupalsdk --scratch-path .build/tsan-lib \
    > "$out/lib-build.log" 2>&1; then
    cp .build/tsan-lib/release/libdrupalsdk.so "$out/lib/libdrupalsdk.so.0"
    ln -sf libdrupalsdk.so.0 "$out/lib/libdrupalsdk.so"
    echo "   (library built in $(( $(date +%s) - t0 )) s)"
else
    cat "$out/lib-build.log" >&2
    bad "TSan build of libdrupalsdk.so"
fi

if [ -e "$out/lib/libdrupalsdk.so" ]; then
    tmp=$(mktemp -d)
    server_pid=""
    trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; exec 3>&- 2>/dev/null; rm -rf "$tmp"' EXIT
    # As Tests/c/run.sh: the fake servers read our fd 3 as their stdin and die with this script;
    # the second is "another origin" for the redirect and cookie tests.
    mkfifo "$tmp/server.in"
    python3 Tests/fake_drupal/fake_drupal.py --port 0 --exit-with-stdin < "$tmp/server.in" > "$tmp/server.out" 2>&1 &
    server_pid=$!
    python3 Tests/fake_drupal/fake_drupal.py --port 0 --exit-with-stdin < "$tmp/server.in" > "$tmp/other.out" 2>&1 &
    server_pid="$server_pid $!"
    # The third is the extended site (OAuth, French at /fr, decoupled_router).
    python3 Tests/fake_drupal/fake_drupal.py --port 0 --site extended --exit-with-stdin < "$tmp/server.in" \
        > "$tmp/extended.out" 2>&1 &
    server_pid="$server_pid $!"
    exec 3> "$tmp/server.in"
    for _ in $(seq 100); do
        grep -q '^LISTENING ' "$tmp/server.out" && grep -q '^LISTENING ' "$tmp/other.out" &&
            grep -q '^LISTENING ' "$tmp/extended.out" && break
        sleep 0.1
    done
    export DRUPAL_BASE_URL=$(sed -n 's/^LISTENING //p' "$tmp/server.out")
    export DRUPAL_OTHER_URL=$(sed -n 's/^LISTENING //p' "$tmp/other.out")
    export DRUPAL_EXTENDED_URL=$(sed -n 's/^LISTENING //p' "$tmp/extended.out")
    if [ -z "$DRUPAL_BASE_URL" ] || [ -z "$DRUPAL_OTHER_URL" ] || [ -z "$DRUPAL_EXTENDED_URL" ]; then
        cat "$tmp/server.out" "$tmp/other.out" "$tmp/extended.out" >&2; DRUPAL_BASE_URL=""; bad "fake servers"
    fi
    # The TSan runtime of the toolchain's clang carries libdispatch interceptors: link libdispatch.
    LINK="-L$out/lib -ldrupalsdk $(pkg-config --libs jansson) -L$SWIFT_LIBS -ldispatch -lBlocksRuntime"
    LINK="$LINK -Wl,-rpath,$out/lib -Wl,-rpath,$SWIFT_LIBS -ldl -lpthread"
    for src in Tests/c/test_*.c; do
        [ -n "$DRUPAL_BASE_URL" ] || break
        name=$(basename "$src" .c)
        if ! $CLANG -std=c99 -Wall -Wextra -Werror -g -O1 -fsanitize=thread -I include $(pkg-config --cflags jansson) \
            "$src" "$out/mutex_annotations.o" $LINK -o "$out/bin/$name" > "$out/$name.build.log" 2>&1; then
            cat "$out/$name.build.log" >&2
            bad "compile $name"
            continue
        fi
        t1=$(date +%s)
        "$out/bin/$name" > "$out/$name.log" 2>&1
        rc=$?
        warnings=$(grep -c 'WARNING: ThreadSanitizer' "$out/$name.log")
        checks=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out/$name.log" | tail -1)
        if [ $rc -eq 0 ] && [ "$warnings" -eq 0 ]; then ok "$name: ${checks:-?} ($(( $(date +%s) - t1 )) s)"
        else
            grep -E "FAILED|WARNING: ThreadSanitizer" "$out/$name.log" | head -20 >&2
            reports "$out/$name.log"
            bad "$name (exit $rc, $warnings TSan reports; log: $out/$name.log)"
        fi
    done
fi

echo "== tsan: $(( $(date +%s) - start )) s${failures:+; failed: ${failures[*]}}"
echo "tsan: $passed passed, $failed failed"
[ $failed -eq 0 ]
