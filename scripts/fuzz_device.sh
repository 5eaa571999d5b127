#!/usr/bin/env bash
# A fuzz campaign on the lent GPU machine's 16 cores (issue #16): that machine has no compiler for
# these targets and no Debian libraries, so the sanitized binaries built here by scripts/fuzz.sh
# travel with every library they load (the loader and libc included), and run through that loader.
#
# Here, to pack (into the ignored device-carry/fuzz/):
#   scripts/fuzz_device.sh --pack
# There (through `run` with carry ["device-carry/fuzz"]), SECONDS per target, all targets at once
# (or the TARGETs named, each with WORKERS processes):
#   scripts/fuzz_device.sh --run SECONDS [TARGET...]
# $OUT gets each worker's log, crashes/TARGET/ and the grown corpora (work.tar.xz, to unpack over
# build/fuzz/work here so that the coverage report and later campaigns start from them).
set -euo pipefail
cd "$(dirname "$0")/.."
pack=device-carry/fuzz

# Workers per target: the slow importers get two, the string parsers one or two.
workers_of() {
    [ -n "${WORKERS:-}" ] && { echo "$WORKERS"; return; }
    case "$1" in
    fuzz_source_rules | fuzz_rocprof_json | fuzz_memory_timeline | fuzz_xplane) echo 1 ;;
    *) echo 2 ;;
    esac
}

case "${1:-}" in
--pack)
    build=${WARPSCOPE_FUZZ_BUILD:-build/fuzz}
    rm -rf "$pack" /tmp/ws-fuzz-pack && mkdir -p "$pack" /tmp/ws-fuzz-pack/bin /tmp/ws-fuzz-pack/lib
    for t in $(scripts/fuzz.sh --list); do
        # Line tables stripped: 265 MB -> 183 MB; a finding is replayed here, symbolized.
        strip --strip-debug -o /tmp/ws-fuzz-pack/bin/$t "$build/fuzz/$t"
        ldd "$build/fuzz/$t" | awk '/=>/ {print $3} /ld-linux/ {print $1}'
    done | sort -u | xargs -I{} cp -L {} /tmp/ws-fuzz-pack/lib/
    XZ_OPT=-9e tar cJf "$pack/bin.tar.xz" -C /tmp/ws-fuzz-pack bin lib # the carry limit is 64 MiB
    tar cJf "$pack/work.tar.xz" -C "$build" work
    rm -rf /tmp/ws-fuzz-pack
    du -sh "$pack"/*
    ;;
--run)
    seconds=${2:?SECONDS}
    shift 2
    chosen=${*:-$(scripts/fuzz.sh --list)}
    OUT=${OUT:-/tmp/out}
    w=/tmp/ws-fuzz && rm -rf $w && mkdir -p $w
    tar xJf "$pack/bin.tar.xz" -C $w && tar xJf "$pack/work.tar.xz" -C $w
    loader=$(ls $w/lib/ld-linux-x86-64.so.*)
    nproc
    for t in $chosen; do
        dict=$(scripts/fuzz.sh --dict $t)
        mkdir -p $w/work/$t $w/crashes/$t "$OUT/logs"
        for i in $(seq "$(workers_of $t)"); do
            # Same options as scripts/fuzz.sh; -reload picks up what the other worker found.
            ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
                "$loader" --library-path $w/lib $w/bin/$t -entropic=0 -max_total_time="$seconds" \
                -max_len=65536 -timeout=20 -rss_limit_mb=2048 -reload=30 -print_final_stats=1 \
                -artifact_prefix=$w/crashes/$t/ ${dict:+-dict=$dict} $w/work/$t fuzz/corpus/$t \
                >"$OUT/logs/$t.$i.log" 2>&1 &
        done
    done
    wait || true
    for t in $chosen; do
        execs=$(cat "$OUT"/logs/$t.*.log | awk '/^stat::number_of_executed_units:/ {n += $2} END {print n}')
        cov=$(cat "$OUT"/logs/$t.*.log | grep -oE 'cov: [0-9]+ ft: [0-9]+' | sort -t' ' -k2 -n | tail -1)
        found=$(find $w/crashes/$t -type f | wc -l)
        printf '%-22s %10s execs  %-22s findings %s\n' "$t" "${execs:-?}" "${cov:-?}" "$found"
    done
    cp -r $w/crashes "$OUT/" && tar cJf "$OUT/work.tar.xz" -C $w work
    ;;
*)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    ;;
esac
