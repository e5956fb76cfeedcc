#!/usr/bin/env bash
# Runs the fuzz targets (preset `fuzz`) as a queue, JOBS at a time, each for SECONDS of
# libFuzzer under ASan+UBSan, and prints one table: executions, edges covered, features,
# corpus size and findings per target. Findings (crash-*, leak-*, timeout-*, oom-*) are kept
# in build/fuzz/campaign/<target>/ (an earlier campaign's in .../<target>/earlier/); new corpus
# inputs in build/fuzz/tests/fuzz/found/<target>/.
#
#   scripts/fuzz-campaign.sh [--jobs N] [--seconds S] [target ...]     (default: all, 1, 1800)
#   scripts/fuzz-campaign.sh --table                                   (the last campaign's table)
#   scripts/fuzz-campaign.sh --list                                    (the targets it would run)
#
# Each target keeps going past a finding (libFuzzer's fork mode with one worker), so one run
# reports every distinct crash it met within its time.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=1
seconds=1800
table_only=0
list_only=0
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --table) table_only=1; shift ;;
    --list) list_only=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [[ ${#targets[@]} -eq 0 ]]; then
  # Every target there is (tests/fuzz/fuzz_<name>.cpp), so that a new one joins the campaign.
  for source in tests/fuzz/fuzz_*.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("${name#fuzz_}")
  done
fi
if [[ $list_only -eq 1 ]]; then printf '%s\n' "${targets[@]}"; exit 0; fi

bin=build/fuzz/tests/fuzz
out=build/fuzz/campaign

table() {
  printf '%-19s %7s %12s %9s %7s %8s %7s  %s\n' target seconds executions exec/s edges features corpus findings
  for log in "$out"/*.log; do
    [[ -e "$log" ]] || continue
    local name; name=$(basename "$log" .log)
    # Fork mode's status lines: "#EXECS: cov: E ft: F corp: C exec/s: R oom/timeout/crash: a/b/c time: Ts ..."
    local last; last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
    local execs cov ft corp rate secs
    execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$last")
    secs=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$last")
    rate=$([[ -n "$execs" && -n "$secs" && "$secs" -gt 0 ]] && echo $((execs / secs)) || echo -)
    local found; found=$(find "$out/$name" -maxdepth 1 -type f \
        \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) 2>/dev/null | wc -l)
    printf '%-19s %7s %12s %9s %7s %8s %7s  %s\n' "$name" "${secs:--}" "${execs:--}" "${rate:--}" \
        "${cov:--}" "${ft:--}" "${corp:--}" "$found"
  done
}

if [[ $table_only -eq 1 ]]; then table; exit 0; fi

for t in "${targets[@]}"; do
  [[ -x "$bin/fuzz_$t" ]] || { echo "fuzz-campaign: $bin/fuzz_$t is not built (cmake --preset fuzz && cmake --build --preset fuzz)" >&2; exit 2; }
done
mkdir -p "$out"
echo "fuzz-campaign: ${#targets[@]} targets, $jobs at a time, ${seconds} s each, on $(nproc) processors"

run_one() {
  local t="$1"
  mkdir -p "$out/$t/earlier" "$bin/found/$t"
  # An earlier campaign's findings move aside: the table counts this run's own.
  find "$out/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
      -o -name 'oom-*' \) -exec mv -t "$out/$t/earlier/" {} +
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin/fuzz_$t" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 \
      -artifact_prefix="$out/$t/" \
      "$bin/found/$t" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" >"$out/$t.log" 2>&1 || true
  echo "fuzz-campaign: $t done at $(date -u +%H:%M:%S)"
}
export -f run_one
export out bin seconds
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {}
table
