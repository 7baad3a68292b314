#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/build.sh from every state a machine can be in, on the host and in
# seconds: a fake source tarball (kernel/tests/fake-linux/Makefile stands in
# for Kbuild) and a copy of build.sh with a patch series and config of the
# test's own.  TAP on stdout.
#
# A fresh machine, the state nobody's warm cache shows, is the first case:
# build.sh once died there silently, under set -e, on a glob that matched
# nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT

repo=$tmp/repo
cache=$tmp/cache
tarball=$tmp/linux-source-6.12.tar.xz
mkdir -p "$repo/kernel/patches" "$repo/kernel/config" "$repo/lib" "$tmp/src/linux-source-6.12"
cp "$top/kernel/build.sh" "$repo/kernel/"
cp -r "$top/lib/sh" "$repo/lib/"
cp "$here/fake-linux/Makefile" "$tmp/src/linux-source-6.12/"
echo 'int fake(void) { return 0; }' > "$tmp/src/linux-source-6.12/fake.c"
tar -C "$tmp/src" -cJf "$tarball" linux-source-6.12
printf 'CONFIG_FAKE_ONE=y\n# CONFIG_FAKE_TWO is not set\n' > "$repo/kernel/config/wberr.config"
echo 'CONFIG_FAKE_DEBUG=y' > "$repo/kernel/config/debug.config"

write_patch() {	# $1: the return value patch 0001 gives fake()
	cat > "$repo/kernel/patches/0001-fake-return.patch" <<-EOF
	--- a/fake.c
	+++ b/fake.c
	@@ -1 +1 @@
	-int fake(void) { return 0; }
	+int fake(void) { return $1; }
	EOF
	echo 0001-fake-return.patch > "$repo/kernel/patches/series"
}
write_patch 1

tree=
build() {	# [VAR=VALUE...] -> status, out; runs build.sh with the test's cache
	env WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" WBERR_JOBS=1 "$@" \
		"$repo/kernel/build.sh" > "$tmp/out" 2>&1
	status=$?
}
key() { WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" "$repo/kernel/build.sh" --key; }
builds() { [ -f "$tree/.fake-builds" ] && wc -l < "$tree/.fake-builds" || echo 0; }

. "$top/lib/sh/tap.sh"
check() {	# $1 observed, $2 expected, $3 description; the output on failure
	tap_is "$1" "$2" "$3" || sed 's/^/# /' "$tmp/out"
}
has() { grep -qF -- "$1" "$tmp/out" && echo yes || echo no; }

tap_begin

# 1. A new machine: the cache directory does not exist yet.
tree=$(WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" "$repo/kernel/build.sh" --print-tree)
build
check "$status" 0 "empty cache: build.sh succeeds"
check "$(cat "$tree/.wberr-built" 2>/dev/null)" "$(key)" "empty cache: the tree records the key it was built with"
check "$(builds)/$(cat "$tree/fake.c")" "1/int fake(void) { return 1; }" \
	"empty cache: extracted, patched and built once"
check "$(has 'built 6.12.0-fake')" yes "empty cache: says which release it built"
touch "$tree/.test-extracted-once"

# 2. Nothing changed: nothing is rebuilt.
build
check "$status/$(builds)" 0/1 "matching key: exits 0 without building"
check "$(has 'up to date')" yes "matching key: says the tree is up to date"

# 3. A patch changed: reverted, re-applied, rebuilt in the same tree.
write_patch 2
build
check "$status/$(builds)" 0/2 "changed patch: rebuilt once"
check "$(cat "$tree/fake.c")" "int fake(void) { return 2; }" "changed patch: the old patch is reverted, the new one applied"
check "$([ -e "$tree/.test-extracted-once" ] && echo in-place)" in-place "changed patch: rebuilt in place, not extracted again"
check "$(has 'updating')/$(cat "$tree/.wberr-built")" "yes/$(key)" "changed patch: says so and records the new key"

# ... but a new mail header, commit message or Signed-off-by (a person
# signing the series off before sending it) is not a change of the tree,
# and a cover letter in the series (no diff) is not applied.
{ printf 'From: A Person <a.person@example.net>\nSubject: [PATCH] fake: return 2\n\n'
  printf 'Why.\n\nSigned-off-by: A Person <a.person@example.net>\n---\n'
  cat "$repo/kernel/patches/0001-fake-return.patch"; } > "$tmp/signed.patch"
mv "$tmp/signed.patch" "$repo/kernel/patches/0001-fake-return.patch"
printf 'From: A Person <a.person@example.net>\nSubject: [PATCH 0/1] fake\n\nThe series.\n\n fake.c | 2 +-\n' \
	> "$repo/kernel/patches/0000-cover-letter.patch"
printf '0000-cover-letter.patch\n0001-fake-return.patch\n' > "$repo/kernel/patches/series"
build
check "$status/$(builds)/$(has 'up to date')" 0/2/yes "signed-off patch and a cover letter: the same key, nothing rebuilt"
check "$(has 'not applied, no diff in them (a cover letter): 0000-cover-letter.patch')" yes \
	"a cover letter in the series: named as not applied"

# ... and a config fragment changed.
echo 'CONFIG_FAKE_THREE=y' >> "$repo/kernel/config/wberr.config"
build
check "$status/$(builds)/$(grep -c '^CONFIG_FAKE_THREE=y$' "$tree/.config")" 0/3/1 \
	"changed config: reconfigured and rebuilt in place"

# ... and --unpatched (make KERNEL=unpatched): a tree of its own, without
# the series and without the config symbols the series adds.
cat > "$repo/kernel/patches/0002-fake-kconfig.patch" <<-EOF
--- /dev/null
+++ b/Kconfig.fake
@@ -0,0 +1,2 @@
+config FAKE_SERIES
+	bool "an option the series adds"
EOF
echo 0002-fake-kconfig.patch >> "$repo/kernel/patches/series"
echo 'CONFIG_FAKE_SERIES=y' >> "$repo/kernel/config/wberr.config"
utree=$(WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" "$repo/kernel/build.sh" --unpatched --print-tree)
build_unpatched() {
	env WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" WBERR_JOBS=1 \
		"$repo/kernel/build.sh" --unpatched > "$tmp/out" 2>&1
	status=$?
}
build_unpatched
check "$status/$utree" "0/$tree-unpatched" "--unpatched: builds, in a tree of its own"
check "$(cat "$utree/fake.c")/$([ -e "$utree/Kconfig.fake" ] && echo patched || echo clean)" \
	"int fake(void) { return 0; }/clean" "--unpatched: no patch of the series applied"
check "$(grep -c FAKE_SERIES "$utree/.config")/$(grep -c '^CONFIG_FAKE_ONE=y$' "$utree/.config")" 0/1 \
	"--unpatched: the series' own config symbol is not requested, the rest is"
check "$(has 'config symbols they add are not requested: CONFIG_FAKE_SERIES')" yes "--unpatched: says which symbols it left out"
check "$(builds)/$(cat "$tree/fake.c")" "3/int fake(void) { return 2; }" "--unpatched: the patched tree is untouched"
check "$(WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" "$repo/kernel/build.sh" --unpatched --key)" \
	"$(cat "$utree/.wberr-built")" "--unpatched: its tree records its own key"
[ "$(key)" != "$(cat "$utree/.wberr-built")" ]; tap_ok $? "--unpatched: a key of its own"
build_unpatched
check "$status/$(has 'up to date')" 0/yes "--unpatched: up to date the second time"
rm "$repo/kernel/patches/0002-fake-kconfig.patch"
sed -i '/FAKE_SERIES/d' "$repo/kernel/config/wberr.config"
write_patch 2

# 4. An interrupted build resumes in the same tree.
write_patch 3
env WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" FAKE_KBUILD_SLEEP=60 \
	"$repo/kernel/build.sh" > "$tmp/out" 2>&1 &
bpid=$!
for _ in $(seq 100); do [ -s "$tree/.fake-build.pid" ] && grep -q building "$tmp/out" && break; sleep 0.1; done
sleep_pid=$(cat "$tree/.fake-build.pid" 2>/dev/null)
kill -TERM "$bpid"
wait "$bpid"
status=$?
check "$status/$(has 'terminated (SIGTERM)')/$(has "step 'make vmlinux")" "143/yes/yes" \
	"interrupted build: build.sh says it was terminated, in which step"
for _ in $(seq 50); do kill -0 "$sleep_pid" 2>/dev/null || break; sleep 0.1; done
check "$(kill -0 "$sleep_pid" 2>/dev/null && echo still-running || echo gone)" gone \
	"interrupted build: the build it started is stopped too"
check "$([ -e "$tree/.wberr-built" ] && echo marked || echo unmarked)" unmarked \
	"interrupted build: the tree is not marked built"
build
check "$status/$(has 'resuming an interrupted build')/$(cat "$tree/fake.c")" "0/yes/int fake(void) { return 3; }" \
	"interrupted build: the next run resumes it with the current patches"
check "$([ -e "$tree/.test-extracted-once" ] && echo in-place)/$(cat "$tree/.wberr-built")" "in-place/$(key)" \
	"interrupted build: resumed in place and marked built"

# 5. Two builds at once: the second waits for the first, then finds it done.
write_patch 4
before=$(builds)
env WBERR_CACHE="$cache" WBERR_KERNEL_TARBALL="$tarball" FAKE_KBUILD_SLEEP=3 \
	"$repo/kernel/build.sh" > "$tmp/first" 2>&1 &
first=$!
for _ in $(seq 100); do grep -q building "$tmp/first" && break; sleep 0.1; done
build
wait "$first"
first_status=$?
check "$first_status/$status" 0/0 "concurrent builds: both succeed"
check "$(has 'waiting for it')/$(has 'up to date')" yes/yes "concurrent builds: the second waits on the lock, then finds the tree fresh"
check "$(( $(builds) - before ))" 1 "concurrent builds: the kernel is built once"

# 6. The source tarball is missing or damaged: say which package to install.
rm -rf "$tmp/cache2"
build WBERR_CACHE="$tmp/cache2" WBERR_KERNEL_TARBALL="$tmp/nonexistent.tar.xz"
check "$status/$(has 'not found: install the Debian package linux-source-6.12')" 1/yes \
	"missing tarball: fails naming the package to install"
check "$([ -e "$tmp/cache2" ] && echo touched || echo untouched)" untouched "missing tarball: the cache is not touched"
echo 'not an xz archive' > "$tmp/damaged.tar.xz"
build WBERR_CACHE="$tmp/cache2" WBERR_KERNEL_TARBALL="$tmp/damaged.tar.xz"
check "$status/$(has "cannot extract $tmp/damaged.tar.xz")/$(has 'reinstall the Debian package linux-source-6.12')" 1/yes/yes \
	"damaged tarball: fails naming the file and the package"
check "$(find "$tmp/cache2" -mindepth 1 -maxdepth 1 ! -name .lock | wc -l)" 0 \
	"damaged tarball: leaves no tree and no half extraction"
mkdir "$tmp/a-directory.tar.xz"
build WBERR_CACHE="$tmp/cache2" WBERR_KERNEL_TARBALL="$tmp/a-directory.tar.xz"
check "$status/$(has 'is not a readable file')" 1/yes "unreadable tarball (a directory): fails naming the package"

# 7. A failing step names itself, its command and its log.
rm -rf "$tmp/cache3"
build WBERR_CACHE="$tmp/cache3" FAKE_KBUILD_FAIL=olddefconfig
check "$status/$(has 'make olddefconfig failed')/$(has "step 'configure")/$(has '.wberr-config.log')" 1/yes/yes/yes \
	"failing olddefconfig: the message names the step and its log"
build WBERR_CACHE="$tmp/cache3" FAKE_KBUILD_FAIL=vmlinux
check "$status/$(has 'kernel build failed')/$(has 'fake build fails')/$(has '.wberr-build.log')" 1/yes/yes/yes \
	"failing build: the message shows the compiler error and names the log"
build WBERR_CACHE="$tmp/cache3"
check "$status/$(has 'resuming an interrupted build')" 0/yes "failed build: the next run resumes and finishes it"
echo 'CONFIG_WBERR_FAKE_UNMET=y' >> "$repo/kernel/config/wberr.config"
build WBERR_CACHE="$tmp/cache3"
check "$status/$(has 'requested CONFIG_WBERR_FAKE_UNMET=y, got absent')/$(has '1 requested config option(s) did not end up set')" 1/yes/yes \
	"config check: an option that did not end up set is named and fails the build"
sed -i '/WBERR_FAKE_UNMET/d' "$repo/kernel/config/wberr.config"

# 8. An unforeseen failure under set -e: file, line and command.
echo "not a directory" > "$tmp/cache-is-a-file"
build WBERR_CACHE="$tmp/cache-is-a-file/sub"
check "$status/$(has 'cannot create the kernel cache')" 1/yes "cache path unusable: says so"
cat > "$tmp/errtrap-demo.sh" <<-EOF
	#!/usr/bin/env bash
	set -euo pipefail
	. "$top/lib/sh/errtrap.sh"
	errtrap_init demo
	step "copy the thing" /var/log/demo.log
	ls /nonexistent-wberr-path > /dev/null 2>&1
	echo unreachable
EOF
bash "$tmp/errtrap-demo.sh" > "$tmp/out" 2>&1
status=$?
check "$status/$(has "[demo] error: $tmp/errtrap-demo.sh:6: ls /nonexistent-wberr-path")" "2/yes" \
	"errtrap under set -e: names file, line and command"
check "$(has "(status 2), step 'copy the thing'; log: /var/log/demo.log")/$(has unreachable)" yes/no \
	"errtrap under set -e: names the step and log, and stops there"
cat > "$tmp/errtrap-demo2.sh" <<-EOF
	#!/usr/bin/env bash
	. "$top/lib/sh/errtrap.sh"
	errtrap_init demo2
	grep -q needle /dev/null
	exit 3
EOF
bash "$tmp/errtrap-demo2.sh" > "$tmp/out" 2>&1
status=$?
check "$status/$(has "[demo2] error: exited with status 3 after $tmp/errtrap-demo2.sh:4: grep -q needle /dev/null (status 1)")" 3/yes \
	"errtrap without set -e: an unexplained exit names the last failed command"

tap_done
