#!/usr/bin/env bash
# Builds every libFuzzer target (clang and swiftc from the Swift toolchain) and runs each for a
# fixed time from its seed corpus in Tests/fuzz/corpus/<target>/. Fails on any crash, leak,
# sanitizer report, timeout or violated property; prints the executions of each target.
#
# Usage: Tests/fuzz/run.sh [seconds per target (default 30)] [target...]   (see Tests/fuzz/README.md)
#   FUZZ_BUILD=dir   where to build (default build/fuzz); crash inputs go to <dir>/artifacts/
#   FUZZ_EXTRA=...   more libFuzzer flags for every target (e.g. "-max_len=16384")
# Last line: "fuzz: N passed, M failed" (one per target).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
seconds=${1:-30}
shift $(( $# > 0 ? 1 : 0 ))

# name:kind:source (kind c = Sources/CDrupal + the file; decoder = the content decoder + the file;
# swift = the DrupalSDK module + the file)
all_targets=(
    json_parse:c:Tests/fuzz/c/fuzz_json_parse.c
    json_read:c:Tests/fuzz/c/fuzz_json_read.c
    content_decoder:decoder:Tests/fuzz/c/fuzz_content_decoder.c
    path_safety:swift:Tests/fuzz/swift/FuzzPathSafety.swift
    headers:swift:Tests/fuzz/swift/FuzzHeaders.swift
    json_value:swift:Tests/fuzz/swift/FuzzJSONValue.swift
    error_body:swift:Tests/fuzz/swift/FuzzErrorBody.swift
    cookie_jar:swift:Tests/fuzz/swift/FuzzCookieJar.swift
    url_origin:swift:Tests/fuzz/swift/FuzzURLOrigin.swift
)
wanted=("$@")
selected=()
for entry in "${all_targets[@]}"; do
    name=${entry%%:*}
    if [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" $name "* ]]; then selected+=("$entry"); fi
done
[ ${#selected[@]} -gt 0 ] || { echo "no such target: ${wanted[*]}" >&2; exit 2; }

# The toolchain's compilers: Debian's gcc has no libFuzzer.
toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")
CLANG=${CLANG:-$toolchain/clang}
SWIFTC=${SWIFTC:-$toolchain/swiftc}
out=${FUZZ_BUILD:-$root/build/fuzz}
mkdir -p "$out/obj" "$out/artifacts" "$out/modulemap"
out=$(cd "$out" && pwd)
start=$(date +%s)

JANSSON_CFLAGS=$(pkg-config --cflags jansson)
JANSSON_LIBS=$(pkg-config --libs jansson)
# The same include path for the Swift compiler's C importer.
SWIFT_JANSSON=$(for flag in $JANSSON_CFLAGS; do printf -- '-Xcc %s ' "$flag"; done)
CFLAGS="-std=c11 -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer"
# lld: the toolchain's default gold linker warns about every ASan helper symbol.
LDFLAGS="-fuse-ld=lld"
CSAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
# As Package.swift builds DrupalSDK (Swift 6 mode, tools-version 6.0, a package name: the module
# has `package` members for DrupalCABI), plus -enable-testing so the targets can reach internal
# API through @testable import.
SWIFTFLAGS="-swift-version 6 -enable-upcoming-feature NonisolatedNonsendingByDefault -O -g -package-name drupalsdk"

build_c_objects() {   # the library's C sources, instrumented once for every C target
    [ -n "${c_built:-}" ] && return 0
    local src
    for src in Sources/CDrupal/*.c; do
        $CLANG $CFLAGS $CSAN -fsanitize=fuzzer-no-link -I include -I Sources/CDrupal/include $JANSSON_CFLAGS \
            -c "$src" -o "$out/obj/cdrupal_$(basename "$src" .c).o" || return 1
    done
    c_built=1
}

build_swift_module() {   # the DrupalSDK module, instrumented once for every Swift target
    [ -n "${swift_built:-}" ] && return 0
    # SwiftPM generates the module maps of CCurlShim and CSDKVersion; outside SwiftPM they are
    # written here (CSDKVersion's header includes drupalsdk.h, which includes jansson.h).
    printf 'module CCurlShim {\n    header "%s"\n    export *\n}\nmodule CSDKVersion {\n    header "%s"\n    export *\n}\n' \
        "$root/Sources/CCurlShim/include/curl_shim.h" "$root/Sources/CSDKVersion/include/sdk_version.h" \
        > "$out/modulemap/module.modulemap"
    local shim
    for shim in curl_shim content_decoder; do
        $CLANG $CFLAGS -fsanitize=address,fuzzer-no-link -I Sources/CCurlShim/include \
            -c "Sources/CCurlShim/$shim.c" -o "$out/obj/$shim.o" || return 1
    done
    local sources
    mapfile -t sources < <(find Sources/DrupalSDK -name '*.swift' | sort)
    (cd "$out/obj" && $SWIFTC -parse-as-library -module-name DrupalSDK $SWIFTFLAGS -enable-testing \
        -sanitize=fuzzer,address -I "$root/Sources/CCurl" -I "$out/modulemap" $SWIFT_JANSSON \
        -emit-module -emit-module-path "$out/obj/DrupalSDK.swiftmodule" \
        -emit-library -static -o "$out/obj/libDrupalSDK.a" "${sources[@]/#/$root/}") || return 1
    swift_built=1
}

build_target() {   # build_target <name> <kind> <source>
    local name=$1 kind=$2 src=$3 bin="$out/fuzz_$1"
    case $kind in
    c)
        build_c_objects || return 1
        $CLANG $CFLAGS $CSAN -fsanitize=fuzzer -I include -I Sources/CDrupal/include -I Sources/CDrupal \
            $JANSSON_CFLAGS "$src" "$out"/obj/cdrupal_*.o $LDFLAGS $JANSSON_LIBS -lm -o "$bin"
        ;;
    decoder)
        $CLANG $CFLAGS $CSAN -fsanitize=fuzzer -I Sources/CCurlShim/include "$src" Sources/CCurlShim/content_decoder.c \
            $LDFLAGS -lz -lbrotlidec -lbrotlienc -o "$bin"
        ;;
    swift)
        build_swift_module || return 1
        $SWIFTC -parse-as-library $SWIFTFLAGS -sanitize=fuzzer,address -module-name "fuzz_$name" \
            -I "$out/obj" -I Sources/CCurl -I "$out/modulemap" $SWIFT_JANSSON \
            Tests/fuzz/swift/FuzzSupport.swift "$src" "$out/obj/libDrupalSDK.a" "$out/obj/curl_shim.o" \
            "$out/obj/content_decoder.o" -lcurl -lz -lbrotlidec $JANSSON_LIBS -use-ld=lld -o "$bin"
        ;;
    esac
}

passed=0 failed=0 failures=()
for entry in "${selected[@]}"; do
    IFS=: read -r name kind src <<< "$entry"
    t0=$(date +%s)
    if ! build_target "$name" "$kind" "$src" > "$out/$name.build.log" 2>&1; then
        cat "$out/$name.build.log" >&2
        echo "FAILED: $name does not build" >&2
        failed=$((failed + 1)); failures+=("$name"); continue
    fi
    built=$(( $(date +%s) - t0 ))
    # New inputs go to a scratch directory: the seed corpus in the repository stays as it is.
    work=$(mktemp -d)
    dict=Tests/fuzz/dict/$name.dict
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$out/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$name-" ${FUZZ_EXTRA:-} $( [ -f "$dict" ] && echo "-dict=$dict" ) \
        "$work" "Tests/fuzz/corpus/$name" > "$out/$name.log" 2>&1
    rc=$?
    rm -rf "$work"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/$name.log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$out/$name.log" | tail -1)
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok: $name: ${runs:-?} executions in ${seconds} s (${rate:-?}/s, ${cov:-cov: ?}; built in ${built} s)"
    else
        failed=$((failed + 1)); failures+=("$name")
        # The report: the sanitizer's or the violated property's lines, and the input (libFuzzer
        # prints it in hex and Base64; the file is under artifacts/).
        grep -vE '^(#[0-9]+|INFO:|\s*$|"|\\x)' "$out/$name.log" | head -60 >&2
        echo "FAILED: $name (exit $rc after ${runs:-?} executions); inputs: $out/artifacts/$name-*" >&2
    fi
done

echo "== fuzz: $(( $(date +%s) - start )) s${failures:+; failed: ${failures[*]}}"
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
