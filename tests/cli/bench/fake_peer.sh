# Stands in for ../shared/bench/peer_mlstm.py in the CLI tests (run as `sh fake_peer.sh
# --kind K ... [--sample N]`): prints what the peer prints, with fixed rates, so the
# suite's table can be checked exactly.
kind=mlstm
sample=
while [ $# -gt 0 ]; do
  case "$1" in
    --help) echo "usage: fake_peer.sh --kind K [--sample N]"; exit 0 ;;
    --kind) kind=$2 ;;
    --sample) sample=$2 ;;
  esac
  shift 2
done
if [ -n "$sample" ]; then
  echo "$kind hidden=8 sample symbols_per_s=500"
else
  echo "$kind hidden=8 batch=2 bptt=4 params=1 chars_per_s=1000"
fi
