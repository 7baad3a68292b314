#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# After the recovery: every acknowledged record is in the log, whole, at
# the place its append put it (the n-th append of 4 KiB is at 4 KiB * (n-1):
# a failed append still grew the file), and at least one append failed, or
# the plan proved nothing.  Exit 0 when intact, 1 when something
# acknowledged was lost or nothing failed.
set -u
bad=0
for i in $(cat "$WBERR_DIR/acked"); do
	want=$(yes "record $i" | head -c 4096 | md5sum | cut -d' ' -f1)
	got=$(dd if=log bs=4096 skip=$((i - 1)) count=1 2> /dev/null | md5sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "LOST: record $i was acknowledged, the log holds something else"; bad=1; }
done
[ -s "$WBERR_DIR/failed" ] || { echo "NO FAILURE: no append failed, so the plan proved nothing"; bad=1; }
echo "$(wc -l < "$WBERR_DIR/acked") acknowledged, $(wc -l < "$WBERR_DIR/failed") failed"
exit "$bad"
