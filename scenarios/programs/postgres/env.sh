# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh and check.sh: where the server lives and how it is set.
export PGDATA="$WBERR_MNT/pgdata" PGHOST="$WBERR_DIR" PGUSER=postgres PGDATABASE=postgres

# $1: data_sync_retry.  A small server: no TCP, no JIT, no restart after a
# crash (the checker's start is the recovery), checkpoints only on demand.
pg_conf() {
	cat >> "$PGDATA/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$WBERR_DIR'
jit = off
fsync = on
data_sync_retry = $1
restart_after_crash = off
checkpoint_timeout = 1h
max_wal_size = 1GB
shared_buffers = 16MB
log_checkpoints = on
CONF
}
