#!/bin/sh
# Builds and runs the JSON helper tests twice: under ASan+UBSan, then under valgrind.
# The library sources are C11 (_Thread_local); the test itself must build as C99.
set -eu
cd "$(dirname "$0")/../../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
JANSSON_CFLAGS=$(pkg-config --cflags jansson)
JANSSON_LIBS=$(pkg-config --libs jansson)
WARN="-Wall -Wextra -Werror"

build() { # build <dir> <extra flags...>
    dir=$1; shift
    mkdir -p "$dir"
    for src in Sources/CDrupal/*.c; do
        cc -std=c11 $WARN "$@" -I include -I Sources/CDrupal/include $JANSSON_CFLAGS \
            -c "$src" -o "$dir/$(basename "$src" .c).o"
    done
    for src in Tests/c/json/*.c; do
        cc -std=c99 $WARN "$@" -I include -I Sources/CDrupal/include -I Sources/CDrupal $JANSSON_CFLAGS \
            -c "$src" -o "$dir/test_$(basename "$src" .c).o"
    done
    cc "$@" "$dir"/*.o $JANSSON_LIBS -lm -o "$dir/test_json_helpers"
}

echo "== ASan + UBSan"
build "$out/asan" -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_OPTIONS=detect_leaks=1 "$out/asan/test_json_helpers"

if command -v valgrind >/dev/null 2>&1; then
    echo "== valgrind"
    build "$out/plain" -g -O1
    valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=1 \
        "$out/plain/test_json_helpers"
else
    echo "valgrind not installed; skipped" >&2
    exit 1
fi
