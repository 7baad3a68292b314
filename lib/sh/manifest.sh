# SPDX-License-Identifier: GPL-2.0
# The results manifest, POSIX sh (busybox in the guest, installed in
# /opt/wberr/libexec; dash or bash on the host): RESULTS/manifest.txt lists
# what a run left in RESULTS, one artifact a line,
#
#   KIND PATH SUITE BOOT
#
# KIND a row of docs/architecture.md's results table (tap/group,
# log/console, evidence, ...); PATH relative to RESULTS, without white
# space (no writer's names have any); SUITE the suite that made it, as the
# stream and report.sh name it (the group, or <group>-X on a boot named
# suites-X), or SUITE/NNN for what one test left; BOOT the boot
# (run-guest --name) or `host`; `-` for none.
# Several boots and the host tests write into one results directory, so
# writers append; a path's last line is the one that holds (a later boot
# wrote the file again).  Readers ask the manifest what is there instead
# of guessing file names.
#
#   manifest_add DIR KIND PATH [SUITE [BOOT]]
#   manifest_merge DIR             the lines of another manifest (stdin),
#                                  as the guest's joins the host's
#   manifest_lines DIR KIND...     the lines of those kinds, a path once
#                                  (its last line), in the order first
#                                  listed; a KIND ending in /* is a
#                                  family (tap/*: every TAP file)
#   manifest_paths DIR KIND...     their paths
#   manifest_new DIR SUITE BOOT TABLE
#                                  list what DIR holds that its manifest
#                                  does not, each with its kind from TABLE
#                                  (harness/guest/artifacts): what a test or a
#                                  guest command left
#   manifest_shard DIR I/N         DIR holds shard I of N (make test
#                                  SHARD=I/N, a make run boot): the `shard`
#                                  file merge-shards.sh checks, listed

MANIFEST_HEADER='# wberr results manifest: KIND PATH SUITE BOOT (docs/architecture.md, "results/")'

manifest_add() {
	[ -f "$1/manifest.txt" ] || echo "$MANIFEST_HEADER" > "$1/manifest.txt"
	echo "$2 $3 ${4:--} ${5:--}" >> "$1/manifest.txt"
}

manifest_merge() {
	[ -f "$1/manifest.txt" ] || echo "$MANIFEST_HEADER" > "$1/manifest.txt"
	grep -v '^#' >> "$1/manifest.txt" || :	# none: no error
}

manifest_lines() {
	_mf=$1/manifest.txt
	shift
	[ -f "$_mf" ] || return 0
	awk -v kinds="$*" '
	BEGIN { nk = split(kinds, k, " ") }
	/^#/ || NF < 2 { next }
	!($2 in last) { order[++n] = $2 }
	{ last[$2] = $0 }
	END {
		for (j = 1; j <= n; j++) {
			split(last[order[j]], f, " ")
			for (i = 1; i <= nk; i++)
				if (k[i] ~ /\/\*$/ ? index(f[1], substr(k[i], 1, length(k[i]) - 1)) == 1 : f[1] == k[i]) {
					print last[order[j]]
					break
				}
		}
	}' "$_mf"
}

manifest_paths() {
	manifest_lines "$@" | cut -d' ' -f2
}

# The table's patterns are shell patterns whose only wildcard is *, which
# never matches / (so *.tap is a file at the top, not one in evidence/).
manifest_new() {
	[ -f "$1/manifest.txt" ] || echo "$MANIFEST_HEADER" > "$1/manifest.txt"
	(cd "$1" && find . -mindepth 1 -maxdepth 2 | sed 's|^\./||' | sort) |
	awk -v table="$4" -v listed="$1/manifest.txt" -v suite="${2:--}" -v boot="${3:--}" '
	function glob(s, p,    part, n, i, at) {
		n = split(p, part, "*")
		if (n == 1)
			return s == p
		if (substr(s, 1, length(part[1])) != part[1])
			return 0
		s = substr(s, length(part[1]) + 1)
		for (i = 2; i < n; i++) {
			at = part[i] == "" ? 1 : index(s, part[i])
			if (!at || index(substr(s, 1, at - 1), "/"))
				return 0
			s = substr(s, at + length(part[i]))
		}
		at = length(s) - length(part[n])
		return at >= 0 && substr(s, at + 1) == part[n] && !index(substr(s, 1, at), "/")
	}
	function kind_of(path,    i) {
		for (i = 1; i <= nrow; i++)
			if (glob(path, pat[i]))
				return kind[i]
		return "other"
	}
	BEGIN {
		while ((getline line < table) > 0)
			if (line !~ /^#/ && split(line, f, " ") >= 2) {
				pat[++nrow] = f[1]
				kind[nrow] = f[2]
			}
		if (!nrow)
			print "manifest_new: no rows in " table > "/dev/stderr"
		while ((getline line < listed) > 0)
			if (line !~ /^#/ && split(line, f, " ") >= 2)
				have[f[2]] = 1
	}
	{
		slash = index($0, "/")
		# an entry of a directory counts only when the directory is a
		# container (kind each): the rest come and go with theirs
		if (slash && kind_of(substr($0, 1, slash - 1)) != "each")
			next
		k = kind_of($0)
		if (k != "each" && k != "none" && !have[$0]++)
			print k, $0, suite, boot
	}' >> "$1/manifest.txt"
}

manifest_shard() {
	echo "$2" > "$1/shard" && manifest_add "$1" shard shard - host
}
