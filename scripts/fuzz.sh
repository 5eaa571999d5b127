#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang + ASan + UBSan) and runs them.
#
#   scripts/fuzz.sh TARGET SECONDS     a campaign on one target (fuzz_chrome_json, ... or "all")
#   scripts/fuzz.sh --smoke SECONDS    every target for SECONDS each (./test.sh runs this)
#   scripts/fuzz.sh --list             the targets
#   scripts/fuzz.sh --coverage         line coverage of each target's own parser, over its corpora
#
# Each target starts from its committed seeds (fuzz/corpus/TARGET) and grows a working corpus in
# build/fuzz/work/TARGET, kept between runs. A crash, a sanitizer report, a leak or a timeout
# stops the run with the input saved in build/fuzz/crashes/TARGET/; put it in tests/data/fuzz/ so
# that fuzz_regression_test replays it in every ./test.sh. The last lines of each run are the
# figures the closing notes quote: executions, executions per second, coverage (cov: edges,
# ft: features) and corpus size.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WARPSCOPE_FUZZ_BUILD:-build/fuzz}
targets=(fuzz_chrome_json fuzz_nsys_sqlite fuzz_nvprof_sqlite fuzz_capture_stream fuzz_session_file fuzz_remote_text
         fuzz_source_rules fuzz_rocprof_json fuzz_memory_timeline fuzz_xplane fuzz_memory_snapshot)

dict_of() {
    case "$1" in
    fuzz_chrome_json) echo fuzz/dict/json.dict ;;
    fuzz_rocprof_json) echo fuzz/dict/rocprof.dict ;;
    fuzz_memory_timeline) echo fuzz/dict/json.dict ;;
    fuzz_xplane) echo fuzz/dict/xplane.dict ;;
    fuzz_memory_snapshot) echo fuzz/dict/pickle.dict ;;
    fuzz_nsys_sqlite | fuzz_nvprof_sqlite) echo fuzz/dict/sqlite.dict ;;
    fuzz_capture_stream) echo fuzz/dict/wscap.dict ;;
    fuzz_remote_text) echo fuzz/dict/xml.dict ;;
    fuzz_source_rules) echo fuzz/dict/source.dict ;;
    *) echo "" ;;
    esac
}

build_targets() {
    if ! command -v clang++ >/dev/null; then
        echo "fuzz.sh: clang++ is missing (scripts/install-deps.sh installs clang and libclang-rt-14-dev)" >&2
        exit 1
    fi
    if [ ! -f "$build/CMakeCache.txt" ]; then
        # -O1 with line tables only: symbolized reports, and a build that fits in ./test.sh's budget.
        cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
            -DCMAKE_CXX_COMPILER=clang++ -DWARPSCOPE_FUZZ=ON \
            -DWARPSCOPE_BUILD_GUI=OFF -DWARPSCOPE_BUILD_TESTS=OFF -DWARPSCOPE_BUILD_CAPTURE=OFF >/dev/null
    fi
    cmake --build "$build" --target fuzz_targets --parallel "$(nproc)"
}

# run TARGET SECONDS [LIBFUZZER OPTIONS...]: fuzzes, prints the final figures; non-zero when it found something.
run() {
    local target=$1 seconds=$2
    shift 2
    local work="$build/work/$target" crashes="$build/crashes/$target"
    mkdir -p "$work" "$crashes"
    local dict
    dict=$(dict_of "$target")
    local log="$build/$target.log"
    # -max_len: seeds are <= 64 KB; -rss_limit_mb: a trace the size of the input must not need GBs;
    # detect_leaks: a leak is a finding too. -entropic=0: libFuzzer's entropic scheduler spent 67% of
    # the time updating feature frequencies on these inputs (perf, fuzz_chrome_json); without it the
    # same 3000 runs took 8.0 s instead of 24.9 s.
    local status=0
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$build/fuzz/$target" -entropic=0 -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" ${dict:+-dict="$dict"} "$@" "$work" "fuzz/corpus/$target" \
        >"$log" 2>&1 || status=$?
    local execs speed cov corpus
    execs=$(awk '/^stat::number_of_executed_units:/ {n = $2} END {print n}' "$log")
    speed=$(awk '/^stat::average_exec_per_sec:/ {n = $2} END {print n}' "$log")
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    corpus=$(find "$work" -type f | wc -l)
    printf '%-22s %10s execs %7s/s  %-22s corpus %s\n' "$target" "${execs:-?}" "${speed:-?}" "${cov:-?}" "$corpus"
    if [ "$status" -ne 0 ]; then
        echo "fuzz.sh: $target found a problem (exit $status); input and log: $crashes/, $log" >&2
        grep -E 'ERROR: |runtime error|SUMMARY' "$log" | head -5 >&2 || true
        return 1
    fi
}

# The sources each target is there to exercise: its coverage is reported over these.
sources_of() {
    case "$1" in
    fuzz_chrome_json) echo 'core/import/(chrome_json|json_event)' ;;
    fuzz_nsys_sqlite) echo 'core/import/nsys_' ;;
    fuzz_nvprof_sqlite) echo 'core/import/nvprof_' ;;
    fuzz_capture_stream) echo 'core/import/capture_|capture/format/' ;;
    fuzz_session_file) echo 'core/store/session_store|core/io/column_codec' ;;
    fuzz_remote_text) echo 'core/remote/(remote_url|remote_listing|remote_request|gcs_credentials)' ;;
    fuzz_source_rules) echo 'core/source/' ;;
    fuzz_rocprof_json) echo 'core/import/(rocprof_|json_record)' ;;
    fuzz_memory_timeline) echo 'core/import/(torch_memory_timeline|json_record)' ;;
    fuzz_xplane) echo 'core/import/xplane_' ;;
    fuzz_memory_snapshot) echo 'core/io/pickle_reader|core/import/(snapshot_collector|torch_memory_snapshot)|core/analysis/snapshot_' ;;
    esac
}

# Builds the targets with llvm-cov instrumentation (build/fuzz-cov), replays each one's corpora
# (committed seeds and the working corpus) once, and prints line, function and branch coverage of
# the target's own sources, then of the model and analyses it reached.
coverage() {
    local cov=${WARPSCOPE_FUZZ_COVERAGE_BUILD:-build/fuzz-cov}
    if [ ! -f "$cov/CMakeCache.txt" ]; then
        cmake -S . -B "$cov" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1" -DCMAKE_CXX_COMPILER=clang++ \
            -DWARPSCOPE_FUZZ=ON -DWARPSCOPE_FUZZ_COVERAGE=ON -DWARPSCOPE_BUILD_GUI=OFF \
            -DWARPSCOPE_BUILD_TESTS=OFF -DWARPSCOPE_BUILD_CAPTURE=OFF >/dev/null
    fi
    cmake --build "$cov" --target fuzz_targets --parallel "$(nproc)" >/dev/null
    mkdir -p "$cov/profiles"
    printf '%-22s %8s %-44s %s\n' target corpus "own sources: lines / functions / branches" "model+analysis lines"
    for t in "${targets[@]}"; do
        local profile="$cov/profiles/$t"
        rm -f "$profile".*
        mkdir -p "$build/work/$t"
        LLVM_PROFILE_FILE="$profile.profraw" "$cov/fuzz/$t" -runs=0 -max_len=65536 -timeout=20 \
            "$build/work/$t" "fuzz/corpus/$t" >"$profile.log" 2>&1 || true
        llvm-profdata merge -sparse "$profile.profraw" -o "$profile.profdata"
        local inputs own model
        inputs=$(grep -oE 'INITED.*corp: [0-9]+' "$profile.log" | grep -oE '[0-9]+$' | tail -1)
        # llvm-cov's TOTAL row: regions, missed, %, functions, missed, %, lines, missed, %, branches, missed, %.
        own=$(llvm-cov report "$cov/fuzz/$t" -instr-profile="$profile.profdata" \
            $(find core capture/format -name '*.cpp' | grep -E "$(sources_of "$t")" | sort) |
            awk '/^TOTAL/ {printf "%s / %s / %s", $10, $7, $13}')
        model=$(llvm-cov report "$cov/fuzz/$t" -instr-profile="$profile.profdata" \
            $(find core/model core/analysis -name '*.cpp' | sort) | awk '/^TOTAL/ {print $10}')
        printf '%-22s %8s %-44s %s\n' "$t" "${inputs:-?}" "$own" "$model"
    done
}

case "${1:-}" in
--coverage)
    coverage
    ;;
--list)
    printf '%s\n' "${targets[@]}"
    ;;
--dict)
    dict_of "${2:?TARGET}"
    ;;
--smoke)
    seconds=${2:-5}
    build_targets
    failed=0
    # A fixed seed: the same mutations in every run, so a smoke run in CI does not find by luck what
    # the previous one missed (campaigns use random seeds).
    for t in "${targets[@]}"; do run "$t" "$seconds" -seed=1 || failed=1; done
    exit $failed
    ;;
"" | -h | --help)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    ;;
*)
    target=$1 seconds=${2:?SECONDS}
    build_targets
    if [ "$target" = all ]; then
        failed=0
        for t in "${targets[@]}"; do run "$t" "$seconds" || failed=1; done
        exit $failed
    fi
    run "$target" "$seconds"
    ;;
esac
