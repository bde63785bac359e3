#!/usr/bin/env bash
# Hunts the proxy's early close: repeated runs of the proxy benchmark at 16 connections (Netty
# echo backend, gmp4j proxy, our load client, three processes), keeping the outputs of every run
# that fails. See README.md beside this script.
#
#   benchmarks/debug/early-close/hunt.sh [RUNS] [proxy JVM flag...]
#
#   RUNS     runs to make (default 10)
#   flags    extra flags for the proxy's JVM; default -Dgmp4j.netpoll.directWrite=true (the
#            default since 2026-12-02, named for builds before it)
#
# The proxy prints Go's schedtrace with the per-P loops' counters every second (a loop that stops
# turning shows there), and a failing run's proxy is dumped with jcmd before it is stopped.
#
# Environment: OUT (folder for the outputs; default a new temporary folder), WINDOWS (the load
# client's windows, default 60+1: 60 measured seconds after a warm-up one), CAPTURE=1 to record
# every FIN and RST on loopback with tcpdump (needs root and tcpdump).
#
# Runs against a copy of the jars made at the start, so a build in the working tree does not
# change classes under a running hunt. Needs the benchmarks built: `./gmp4j bench proxy-rps-c16
# --impls gmp4j --rounds 1` once does it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
RUNS="${1:-10}"
[[ $# -gt 0 ]] && shift
PROXY_FLAGS=("$@")
[[ ${#PROXY_FLAGS[@]} -gt 0 ]] || PROXY_FLAGS=(-Dgmp4j.netpoll.directWrite=true)
WINDOWS="${WINDOWS:-60+1}"
OUT="${OUT:-$(mktemp -d /tmp/early-close.XXXXXX)}"

die() { printf 'hunt.sh: %s\n' "$*" >&2; exit 2; }

JAVA=""
for j in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*25*; do
  if [[ -n "$j" && -x "$j/bin/java" ]] && "$j/bin/java" -version 2>&1 | grep -q 'version "25'; then
    JAVA="$j/bin/java"
    break
  fi
done
[[ -n "$JAVA" ]] || die "no JDK 25 found (set JAVA_HOME)"
cpfile="$ROOT/benchmarks/target/classpath.txt"
benchjar="$(ls "$ROOT"/benchmarks/target/gmp4j-benchmarks-*.jar 2>/dev/null | grep -v -- '-tests\.jar$' | head -n 1 || true)"
[[ -f "$cpfile" && -n "$benchjar" ]] ||
  die "benchmarks not built: run ./gmp4j bench proxy-rps-c16 --impls gmp4j --rounds 1 once"

# The snapshot: our own jars copied (the benchmarks' too: jars, not a classes directory, whose
# class loads would each need a descriptor), the rest of the classpath as is.
mkdir -p "$OUT/jars" "$OUT/failures"
cp "$benchjar" "$OUT/jars/"
cp_snapshot="$OUT/jars/$(basename "$benchjar")"
IFS=: read -r -a entries <"$cpfile" || true  # no newline at the end: read says 1
for e in "${entries[@]}"; do
  if [[ "$e" == */gmp4j-*.jar ]]; then
    cp "$e" "$OUT/jars/"
    e="$OUT/jars/$(basename "$e")"
  fi
  cp_snapshot+=":$e"
done

FLAGS=(--add-opens java.base/java.lang=ALL-UNNAMED --enable-native-access=ALL-UNNAMED
       --sun-misc-unsafe-memory-access=allow -Djdk.trackAllThreads=false -XX:+UseParallelGC -XX:+AlwaysPreTouch)

# start_server NAME ARGS...: a ServerMain fed by a FIFO (closing it stops the server); sets PORT.
start_server() {
  local name="$1"; shift
  rm -f "$OUT/$name.fifo"; mkfifo "$OUT/$name.fifo"
  "$JAVA" "${FLAGS[@]}" -Xms2g -Xmx2g -cp "$cp_snapshot" "$@" <"$OUT/$name.fifo" >"$OUT/$name.out" 2>&1 &
  PIDS+=($!)
  exec {fd}>"$OUT/$name.fifo"
  FDS+=("$fd")
  for _ in $(seq 200); do grep -q '@listening' "$OUT/$name.out" && break; sleep 0.1; done
  PORT="$(grep -o 'port=[0-9]*' "$OUT/$name.out" | head -1 | cut -d= -f2)"
  [[ -n "$PORT" ]] || die "$name did not start: $(cat "$OUT/$name.out")"
}

echo "hunt: $RUNS run(s), proxy flags: ${PROXY_FLAGS[*]}; outputs in $OUT"
failures=0
for i in $(seq "$RUNS"); do
  PIDS=(); FDS=()
  capture=""
  if [[ "${CAPTURE:-0}" == 1 ]]; then
    tcpdump -i lo -s 96 -U -w "$OUT/run.pcap" 'tcp[tcpflags] & (tcp-fin|tcp-rst) != 0' >/dev/null 2>&1 &
    capture=$!
    sleep 0.5
  fi
  start_server backend io.gmp4j.bench.net.ServerMain echo netty 2
  start_server proxy -Dgmp4j.maxprocs=2 -Dgmp4j.schedtrace=1000 -Dgmp4j.scheddetail=true "${PROXY_FLAGS[@]}" \
      io.gmp4j.bench.net.ServerMain proxy gmp4j 2 "$PORT"
  "$JAVA" "${FLAGS[@]}" -Xms1g -Xmx1g -cp "$cp_snapshot" io.gmp4j.bench.net.LoadClient proxy-rps-c16 gmp4j 2 \
      "$WINDOWS" "$PORT" --server-pid "${PIDS[1]}" >"$OUT/client.out" 2>&1 || true
  value="$(grep -o 'bench=proxy-rps-c16 .*' "$OUT/client.out" | grep -o 'value=[0-9]*' || true)"
  failed=""
  if grep -q LoadFailure "$OUT/client.out" || [[ -z "$value" ]]; then
    failed=1
    mkdir -p "$OUT/failures/$i"
    # The proxy as the failure left it: its goroutines (the poll goroutines among them) and threads.
    "$(dirname "$JAVA")/jcmd" "${PIDS[1]}" Thread.dump_to_file -format=json "$OUT/failures/$i/proxy-threads.json" \
        >/dev/null 2>&1 || true
  fi
  for fd in "${FDS[@]}"; do exec {fd}>&-; done
  wait "${PIDS[@]}" 2>/dev/null || true
  if [[ -n "$capture" ]]; then sleep 0.5; kill "$capture"; wait "$capture" 2>/dev/null || true; fi
  if [[ -n "$failed" ]]; then
    failures=$((failures + 1))
    cp "$OUT/backend.out" "$OUT/proxy.out" "$OUT/client.out" "$OUT/failures/$i/"
    [[ -n "$capture" ]] && mv "$OUT/run.pcap" "$OUT/failures/$i/"
    echo "$(date +%T) run $i FAILED: $(grep -m1 'LoadFailure\|Exception' "$OUT/client.out" || echo 'no result')"
  else
    echo "$(date +%T) run $i ok $value"
  fi
done
echo "hunt: $failures failure(s) in $RUNS run(s); outputs in $OUT"
