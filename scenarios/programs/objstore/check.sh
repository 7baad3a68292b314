#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# After the recovery: every acknowledged commit's object is there, whole,
# with its content.  The log
# is read through a pipe closed early (as `tool log | grep -q` does), so
# the reader's writes fail with EPIPE in the checker's phase.  Exit 0 when
# intact, 1 when something acknowledged was lost.
set -u
lost=0
while read -r i; do
	want=$(yes "object $i" | head -c 65536 | md5sum | cut -d' ' -f1)
	got=$(md5sum < "objects/$i" 2>/dev/null | cut -d' ' -f1)
	if [ "$got" != "$want" ]; then
		echo "LOST: commit $i (object ${got:-missing})"
		lost=1
	fi
done < "$WBERR_DIR/acked"
# the log, read as a user would, through a pipe grep closes at its first
# match: the writer's next write fails with EPIPE (and SIGPIPE ends it)
yes "$(head -n 1 log)" | grep -q . || { echo "the log is empty"; lost=1; }
echo "$(wc -l < "$WBERR_DIR/acked") acknowledged, $(wc -l < "$WBERR_DIR/failed") abandoned"
exit "$lost"
