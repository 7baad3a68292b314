# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh and check.sh: one Redis 7.0 server (Debian's, from the
# apps disk) with its AOF on the file system under test, reached through a
# Unix socket in $WBERR_DIR (no TCP), no RDB snapshots, the log outside;
# in the background of the shell that starts it, its pid in $WBERR_DIR.
# $1 of redis_start: appendfsync (always or everysec); $2: the log file.
sock=$WBERR_DIR/redis.sock
cli() { redis-cli -s "$sock" "$@"; }
redis_start() {
	mkdir -p "$WBERR_MNT/redis" || return 1
	redis-server --port 0 --unixsocket "$sock" --dir "$WBERR_MNT/redis" \
		--appendonly yes --appendfsync "$1" --save '' --daemonize no \
		--logfile "$2" &
	echo $! > "$WBERR_DIR/redis.pid"
	for _ in $(seq 1 300); do
		[ "$(cli ping 2> /dev/null)" = PONG ] && return 0
		redis_alive || return 1	# it refused to start: no need to wait
		sleep 0.1
	done
	return 1
}
# the server still running (a zombie the shell has not reaped is not)?
redis_alive() {
	_p=$(cat "$WBERR_DIR/redis.pid" 2> /dev/null) && [ -e "/proc/$_p/status" ] &&
		! grep -q '^State:[[:space:]]*Z' "/proc/$_p/status"
}
