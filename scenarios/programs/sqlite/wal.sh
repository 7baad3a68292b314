# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh and check.sh in WAL mode: wal_frames prints app.db-wal's
# header salts and each frame's page, commit size, salts and checksums
# (src/wal.c's format: a 32-byte header, then 24-byte frame headers each
# before a page), as the program saw it after a commit and as the disk has
# it before sqlite3 recovers it.
wal_frames() {
	[ -s app.db-wal ] || return 0
	be32() { od -An -tu1 -j "$1" -N 4 app.db-wal | awk '{ print ($1 * 16777216) + ($2 * 65536) + ($3 * 256) + $4 }'; }
	size=$(wc -c < app.db-wal)
	echo "wal: $size bytes, page size $(be32 8), salts $(be32 16) $(be32 20)"
	off=32
	while [ $((off + 24)) -le "$size" ]; do
		echo "wal frame at $off: page $(be32 "$off") commit $(be32 $((off + 4))) salts $(be32 $((off + 8))) $(be32 $((off + 12))) cksum $(be32 $((off + 16))) $(be32 $((off + 20)))"
		off=$((off + 24 + 4096))
	done
}
