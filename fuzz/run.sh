#!/usr/bin/env bash
# Runs the fuzz targets, one after the other, each until libFuzzer's own stop flag says.
#   fuzz/run.sh -runs=10000000                  every target, ten million executions each
#   fuzz/run.sh braces analyze -max_total_time=300
# Arguments starting with `-` go to libFuzzer; the others name targets (default: all).
# Seeds the corpora first if they are missing; logs go to fuzz/logs/<target>.log.
# FUZZ_SANITIZER=none builds without the address sanitizer (in target/nosan): five to ten
# times the inputs a second, for long runs of otn and xiangqi (no unsafe code, no C). The
# PPN targets read through tree-sitter's C, which only the sanitizer watches.
set -euo pipefail
cd "$(dirname "$0")"
targets=()
flags=()
for argument in "$@"; do
    case $argument in
        -*) flags+=("$argument") ;;
        *) targets+=("$argument") ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(ppn_diagnostics otn xiangqi analyze updates braces macros lsp_edits split_windows)
[ -d corpus/analyze ] && [ -d corpus/otn ] || ./seed-corpora.sh
mkdir -p logs
build=(-s "${FUZZ_SANITIZER:-address}")
[ "${FUZZ_SANITIZER:-address}" = address ] || build+=(--target-dir target/nosan)
for target in "${targets[@]}"; do
    case $target in
        analyze | updates) max_len=65536 ;;
        # The fast targets: inputs the size of most test files, thousands a second.
        ppn_diagnostics | otn | xiangqi) max_len=8192 ;;
        *) max_len=4096 ;;
    esac
    # The address sanitizer roughly doubles memory: 2.5 GB here is about 1 GiB bare.
    cargo +nightly fuzz run -O "${build[@]}" "$target" "corpus/$target" -- \
        -max_len="$max_len" -rss_limit_mb=2560 -timeout=20 -print_final_stats=1 \
        "${flags[@]}" 2>&1 | tee "logs/$target.log" | grep -E '^(#[0-9]+ +(DONE|pulse)|stat::|==[0-9]+== ERROR|SUMMARY)' || true
    grep -E 'stat::number_of_executed_units|Test unit written|ERROR' "logs/$target.log" || true
done
