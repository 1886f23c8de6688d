#!/usr/bin/env bash
# The single entry point for the C tests. Builds the library if needed, starts a private fake
# Drupal server, builds every test and example (C99, -Wall -Wextra -Werror, via pkg-config),
# runs the tests under ASan+UBSan, the JSON helper suite (Tests/c/json/run.sh), scripts/check-abi,
# and every example against the server, also under valgrind, plus the regression programs of
# fixed library bugs (Tests/c/regressions/).
# Last line: "N passed, M failed" (every check summed); exits non-zero on any failure.
#   Tests/c/run.sh [NAME]   only the C tests and examples whose name contains NAME (test_files,
#                           oauth), without the JSON, ABI and regression suites
set -uo pipefail
filter=${1:-}
matches() { [ -z "$filter" ] || [[ "$1" == *"$filter"* ]]; }
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$(date +%s)

passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }
# Adds the "N passed, M failed" line of a log to the totals (1 failure if there is none).
tally() { # tally <name> <log> <exit code>
    local line n m
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$2" | tail -1)
    if [ -n "$line" ]; then
        n=${line%% passed*}; m=${line#*, }; m=${m%% failed}
        passed=$((passed + n)); failed=$((failed + m))
    fi
    if [ "$3" -ne 0 ] && { [ -z "$line" ] || [ "$m" -eq 0 ]; }; then
        fail "$1 exited with $3 (see above)"
    fi
}

[ -e build/lib/libdrupalsdk.so ] || scripts/build-lib || { echo "0 passed, 1 failed"; exit 1; }
if [ -n "$(find Sources include -newer "$(readlink -f build/lib/libdrupalsdk.so)" -type f 2>/dev/null | head -1)" ]; then
    echo "warning: build/lib/libdrupalsdk.so is older than Sources/ or include/; run scripts/build-lib" >&2
fi
export PKG_CONFIG_PATH="$root/build/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
CFLAGS="-std=c99 -Wall -Wextra -Werror -g"
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
LIBS="$(pkg-config --libs drupalsdk) -lpthread"
INC="$(pkg-config --cflags drupalsdk)"

out=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill $server_pid 2>/dev/null
    exec 3>&- 2>/dev/null
    rm -rf "$out"
}
trap cleanup EXIT

# The fake servers read our fd 3 as their stdin (--exit-with-stdin): they die with this script.
# The second one is "another origin" for the redirect and cookie tests.
mkfifo "$out/server.in"
python3 Tests/fake_drupal/fake_drupal.py --port 0 --exit-with-stdin < "$out/server.in" > "$out/server.out" 2>&1 &
server_pid=$!
python3 Tests/fake_drupal/fake_drupal.py --port 0 --exit-with-stdin < "$out/server.in" > "$out/other.out" 2>&1 &
server_pid="$server_pid $!"
# The third is the extended site (simple_oauth, French at /fr, decoupled_router).
python3 Tests/fake_drupal/fake_drupal.py --port 0 --site extended --exit-with-stdin < "$out/server.in" > "$out/extended.out" 2>&1 &
server_pid="$server_pid $!"
# The fourth is on HTTPS with a certificate of a private CA (self-signed), for DRUPAL_CA_FILE.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -keyout "$out/key.pem" \
    -out "$out/ca.pem" -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > /dev/null 2>&1
python3 Tests/fake_drupal/fake_drupal.py --port 0 --tls-cert "$out/ca.pem" --tls-key "$out/key.pem" --exit-with-stdin \
    < "$out/server.in" > "$out/https.out" 2>&1 &
server_pid="$server_pid $!"
exec 3> "$out/server.in"
for _ in $(seq 100); do
    grep -q '^LISTENING ' "$out/server.out" && grep -q '^LISTENING ' "$out/other.out" &&
        grep -q '^LISTENING ' "$out/extended.out" && grep -q '^LISTENING ' "$out/https.out" && break
    sleep 0.1
done
DRUPAL_BASE_URL=$(sed -n 's/^LISTENING //p' "$out/server.out")
DRUPAL_OTHER_URL=$(sed -n 's/^LISTENING //p' "$out/other.out")
DRUPAL_EXTENDED_URL=$(sed -n 's/^LISTENING //p' "$out/extended.out")
https_url=$(sed -n 's/^LISTENING //p' "$out/https.out")
if [ -z "$DRUPAL_BASE_URL" ] || [ -z "$DRUPAL_OTHER_URL" ] || [ -z "$DRUPAL_EXTENDED_URL" ] || [ -z "$https_url" ]; then
    cat "$out/server.out" "$out/other.out" "$out/extended.out" "$out/https.out" >&2; echo "0 passed, 1 failed"; exit 1
fi
export DRUPAL_BASE_URL DRUPAL_OTHER_URL DRUPAL_EXTENDED_URL
echo "== fake servers at $DRUPAL_BASE_URL, (another origin) $DRUPAL_OTHER_URL and (extended site) $DRUPAL_EXTENDED_URL"

# ASan with LeakSanitizer on. No suppressions are needed: the Swift runtime's one-time
# allocations stay reachable from its globals, so LSan does not report them.
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1"

echo "== C tests (ASan + UBSan)"
for src in Tests/c/test_*.c; do
    name=$(basename "$src" .c)
    matches "$name" || continue
    if cc $CFLAGS $SAN $INC "$src" -o "$out/$name" $LIBS; then pass; else fail "compile $src"; continue; fi
    t0=$(date +%s)
    "$out/$name" > "$out/$name.log" 2>&1
    rc=$?
    cat "$out/$name.log"
    echo "   ($name: $(( $(date +%s) - t0 )) s, exit $rc)"
    tally "$name" "$out/$name.log" "$rc"
done

if [ -z "$filter" ]; then
echo "== Tests/c/json/run.sh"
bash Tests/c/json/run.sh > "$out/json.log" 2>&1
rc=$?
tail -5 "$out/json.log"
# It runs its suite twice (ASan, valgrind), each ending in "N passed, M failed": count both.
while read -r line; do
    n=${line%% passed*}; m=${line#*, }; m=${m%% failed}
    passed=$((passed + n)); failed=$((failed + m))
done < <(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out/json.log")
if [ "$rc" -eq 0 ]; then pass; else cat "$out/json.log" >&2; fail "Tests/c/json/run.sh exited with $rc"; fi

echo "== scripts/check-abi"
scripts/check-abi > "$out/abi.log" 2>&1
rc=$?
cat "$out/abi.log"
tally check-abi "$out/abi.log" "$rc"
fi

echo "== examples (make -C examples/c, then run, then under valgrind)"
if make -s -C examples/c CFLAGS="-std=c99 -Wall -Wextra -Werror -O1 -g" > "$out/make.log" 2>&1; then pass
else cat "$out/make.log" >&2; fail "make -C examples/c"; fi
# Only "definitely lost" blocks are errors: the Swift runtime keeps caches and worker threads
# ("still reachable"/"possibly lost") for the life of the process. No suppressions are needed.
VALGRIND="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
VALGRIND="$VALGRIND --error-exitcode=1"
# Valgrind 3.19 gives up on the DWARF 5 debug info of the Swift-built library ("Possibly corrupted
# debuginfo file"), so the examples run under valgrind load a copy without debug info; it is the
# same code (found first through LD_LIBRARY_PATH, since the examples use RUNPATH).
mkdir -p "$out/vglib"
objcopy --strip-debug "$(readlink -f build/lib/libdrupalsdk.so)" "$out/vglib/libdrupalsdk.so.0"
for ex in drupal_tour async_many errors mock_client jsonapi_walk oauth_french files; do
    matches "$ex" || continue
    bin=examples/c/$ex
    args=()
    # The OAuth and French example runs against the extended site, forcing a token expiry there.
    [ "$ex" = oauth_french ] && args=(--force-expiry "$DRUPAL_EXTENDED_URL")
    [ -x "$bin" ] || { fail "$bin was not built"; continue; }
    if "$bin" "${args[@]}" > "$out/$ex.log" 2>&1; then pass; echo "ok: $ex"
    else cat "$out/$ex.log" >&2; fail "$ex exited non-zero"; fi
    if LD_LIBRARY_PATH="$out/vglib" $VALGRIND "$bin" "${args[@]}" > "$out/$ex.vg.log" 2>&1; then pass; echo "ok: $ex under valgrind"
    else cat "$out/$ex.vg.log" >&2; fail "$ex under valgrind"; fi
done
# What the OAuth example printed: one token request to log in, one refresh after the expiry.
if ! matches oauth_french; then :
elif grep -q '^token requests so far: *2 ' "$out/oauth_french.log" && grep -q '^done$' "$out/oauth_french.log"; then pass
else cat "$out/oauth_french.log" >&2; fail "oauth_french did not survive the expiry with one refresh"; fi
# An HTTPS site with a private CA: refused by default, trusted through DRUPAL_CA_FILE.
if matches drupal_tour; then
    if ! examples/c/drupal_tour "$https_url" > "$out/tls.log" 2>&1 && grep -q 'certificate' "$out/tls.log"; then pass
    else cat "$out/tls.log" >&2; fail "drupal_tour trusted a private CA's certificate by default"; fi
    if DRUPAL_CA_FILE="$out/ca.pem" examples/c/drupal_tour "$https_url" > "$out/tls.log" 2>&1; then pass
    else cat "$out/tls.log" >&2; fail "drupal_tour with DRUPAL_CA_FILE"; fi
fi
# An example that fails half-way still deletes the article it made (a 403 on the file's download).
if matches files; then
    curl -sf -X POST -H 'Content-Type: application/json' "$DRUPAL_BASE_URL/__fake/faults" \
        -d '{"mode": "status", "code": 403, "path_prefix": "/sites/default/files"}' || fail "setting a fault"
    examples/c/files > "$out/files-403.log" 2>&1
    rc=$?
    curl -sf -X DELETE "$DRUPAL_BASE_URL/__fake/faults" || fail "clearing the fault"
    nid=$(sed -n 's/^article \([0-9]*\) references.*/\1/p' "$out/files-403.log")
    if [ "$rc" -eq 1 ] && [ -n "$nid" ] &&
        [ "$(curl -s -o /dev/null -w '%{http_code}' "$DRUPAL_BASE_URL/node/$nid?_format=json")" = 404 ]; then pass
    else cat "$out/files-403.log" >&2; fail "files left its article behind after a failed download (exit $rc)"; fi
fi
make -s -C examples/c clean

[ -z "$filter" ] && echo "== regressions (Tests/c/regressions/*.c: fixed library bugs, under valgrind)"
for src in Tests/c/regressions/*.c; do
    [ -z "$filter" ] || break
    name=$(basename "$src" .c)
    cc $CFLAGS $INC "$src" -o "$out/$name" $LIBS || { fail "compile $src"; continue; }
    if LD_LIBRARY_PATH="$out/vglib" $VALGRIND "$out/$name"; then pass; echo "ok: $name"
    else fail "regression $name"; fi
done

echo "== $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
