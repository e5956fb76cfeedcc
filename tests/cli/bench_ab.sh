#!/usr/bin/env bash
# scripts/bench-ab.sh with two stand-in mrnn binaries of known rates, one of them failing:
# every round is printed, the medians and both ratios are right, and a subject that gives no
# figure stops the script naming it.
# usage: bench_ab.sh <repository root>
set -uo pipefail
case=bench_ab
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
root=${1:?usage: bench_ab.sh ROOT}
make_work_folder

# A stand-in answers `bench --probe train --cells C ...` as mrnn does, one rate a call from a
# list it works through, so that rounds differ: A 1000, 2000, 1500; B 2000, 2000, 1800.
standin() {  # name rates...
  printf '%s\n' "${@:2}" >"$work/$1.rates"
  cat >"$work/$1" <<SH
#!/bin/sh
rate=\$(head -n 1 "$work/$1.rates"); sed -i 1d "$work/$1.rates"
echo "probe cell=mlstm measure=train precision=fp32 params=1 flops_per_symbol=1e6 symbols_per_s=\$rate"
SH
  chmod +x "$work/$1"
}
standin a 1000 2000 1500
standin b 2000 2000 1800
out=$("$root/scripts/bench-ab.sh" "$work/a" "$work/b" mlstm 3 2>&1) || fail "exit $?: $out"
grep -q "^round 1 mlstm A 1.0 B 2.0 GFLOP/s$" <<<"$out" || fail "no round 1 line: $out"
grep -q "^round 3 mlstm A 1.5 B 1.8 GFLOP/s$" <<<"$out" || fail "no round 3 line: $out"
# Medians 1.5 and 2.0 (ratio 1.33); rounds' ratios 2.0, 1.0, 1.2 (median 1.20).
grep -q "^| mlstm | 1.5 | 2.0 | 1.33 | 1.20 |$" <<<"$out" || fail "wrong table: $out"
# Environment assignments before the binary reach it.
cat >"$work/env-check" <<SH
#!/bin/sh
[ "\$MRNN_PACKED_PRODUCTS" = 0 ] || { echo "no MRNN_PACKED_PRODUCTS=0" >&2; exit 1; }
echo "probe cell=mlstm flops_per_symbol=1e6 symbols_per_s=1000"
SH
chmod +x "$work/env-check"
standin c 1000
out=$("$root/scripts/bench-ab.sh" "env MRNN_PACKED_PRODUCTS=0 $work/env-check" "$work/c" mlstm 1 \
  2>&1) || fail "an environment assignment did not reach the binary: $out"
# A subject without a figure stops the script and names it.
printf '#!/bin/sh\necho "CUDA out of memory" >&2\nexit 3\n' >"$work/broken"
chmod +x "$work/broken"
standin d 1000
if out=$("$root/scripts/bench-ab.sh" "$work/d" "$work/broken" mlstm 1 2>&1); then
  fail "a failing subject passed: $out"
fi
grep -q "broken" <<<"$out" || fail "the failing subject is not named: $out"
echo "bench-ab: rounds, medians, ratios and a failing subject as expected"
