# Stands in for the Python peer in the SIGTERM test (run as `sh slow_peer.sh ...`): answers
# --help at once, then measures "forever", its process id in $SLOW_PEER_PIDFILE.
case "$1" in
  --help) echo "usage: slow_peer.sh --kind K"; exit 0 ;;
esac
echo $$ >"$SLOW_PEER_PIDFILE"
exec sleep 120
