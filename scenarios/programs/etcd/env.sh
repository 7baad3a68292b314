# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh and check.sh: one etcd 3.4 member (Debian's etcd-server,
# from the apps disk) with its data directory on the file system under
# test, its log in $WBERR_DIR.  The guest kernel has no TCP/IP
# (CONFIG_INET is off), so client and peer listen on Unix sockets: etcd's
# unix:// URLs name a socket file by their host part, relative to the
# working directory, which is $WBERR_DIR for the member and its clients.
export ETCDCTL_API=3
ctl() { (cd "$WBERR_DIR" && etcdctl --endpoints unix://client.sock:0 --dial-timeout 3s --command-timeout 5s "$@"); }
etcd_start() {	# $1: the log file; a killed member leaves its socket files
	rm -f "$WBERR_DIR/client.sock:0" "$WBERR_DIR/peer.sock:0"
	(cd "$WBERR_DIR" && exec etcd --name n1 --data-dir "$WBERR_MNT/etcd" \
		--listen-client-urls unix://client.sock:0 --advertise-client-urls unix://client.sock:0 \
		--listen-peer-urls unix://peer.sock:0 --initial-advertise-peer-urls unix://peer.sock:0 \
		--initial-cluster n1=unix://peer.sock:0) > "$1" 2>&1 &
	echo $! > "$WBERR_DIR/etcd.pid"
	for _ in $(seq 1 300); do
		ctl endpoint health > /dev/null 2>&1 && return 0
		etcd_alive || return 1
		sleep 0.2
	done
	return 1
}
# the member still running (a zombie the shell has not reaped is not)?
etcd_alive() {
	_p=$(cat "$WBERR_DIR/etcd.pid" 2> /dev/null) && [ -e "/proc/$_p/status" ] &&
		! grep -q '^State:[[:space:]]*Z' "/proc/$_p/status"
}
