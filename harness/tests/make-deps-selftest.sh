#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The top Makefile installs its Debian packages before anything compiles,
# under -j too.  A fresh machine once failed at its first C file: make -j
# compiled lib/c (which needs libdevmapper.h) beside `make deps`, which was
# still installing libdevmapper-dev; a machine that had the packages could
# not see it.  Here dpkg-query says every package is missing, apt-get takes
# two seconds to "install" them and the compiler only records whether that
# had finished.  And the browser of the page test (make deps-browser) is
# never among make deps' packages.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/lib/sh/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"

cat > "$tmp/bin/dpkg-query" <<'EOF'
#!/bin/sh
echo 'unknown ok not-installed'
EOF
cat > "$tmp/bin/apt-get" <<EOF
#!/bin/sh
case " \$* " in
*" install "*) sleep 2; touch "$tmp/deps-done" ;;
esac
exit 0
EOF
# The compiler of every make below (make's CC is cc; lib/c's says gcc if
# unset): says when it ran, then fails, so make stops there (status 2).
cat > "$tmp/bin/cc" <<EOF
#!/bin/sh
if [ -e "$tmp/deps-done" ]; then echo after; else echo before; fi >> "$tmp/cc.log"
exit 1
EOF
cp "$tmp/bin/cc" "$tmp/bin/gcc"
chmod +x "$tmp/bin/"*

tap_begin 8
for goal in guest-tools tools run-payload; do
	rm -f "$tmp/deps-done" "$tmp/cc.log"
	rm -rf "$tmp/build"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$tmp/bin:$PATH" \
		make -C "$top" -j4 "$goal" BUILD="$tmp/build" WBERR_CACHE="$tmp/cache" \
		> "$tmp/out" 2>&1
	status=$?
	tap_is "$status:$(head -n 1 "$tmp/cc.log" 2>/dev/null)" "2:after" \
		"make -j4 $goal: the first compile waits for make deps" ||
		sed 's/^/# /' "$tmp/out"
	tap_is "$(grep -c before "$tmp/cc.log" 2>/dev/null)" 0 \
		"make -j4 $goal: no compile before make deps" ||
		sed 's/^/# /' "$tmp/cc.log"
done

# The browser is the page test's alone: make deps (so make run) never asks
# for it; make deps-browser (run-host-tests.sh, before that test) asks for
# it and nothing else.
printf '#!/bin/sh\ncase " $* " in *" install "*) echo "$*" >> "%s/apt.log" ;; esac\nexit 0\n' "$tmp" > "$tmp/bin/apt-get"
for goal in deps deps-browser; do
	rm -f "$tmp/apt.log"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$tmp/bin:$PATH" \
		make -s -C "$top" "$goal" BUILD="$tmp/build" WBERR_CACHE="$tmp/cache" > "$tmp/out" 2>&1
	asked=$(cat "$tmp/apt.log" 2>/dev/null)
	if [ $goal = deps ]; then
		case " $asked " in
		*" linux-source-6.12 "*) case " $asked " in *chromium*) r=1 ;; *) r=0 ;; esac ;;
		*) r=1 ;;
		esac
		tap_ok $r "make deps installs the build's packages, never the browser" ||
			sed 's/^/# /' "$tmp/out"
	else
		tap_is "${asked##* --no-install-recommends }" "chromium fonts-dejavu-core" \
			"make deps-browser installs Chromium and a font, nothing else" || sed 's/^/# /' "$tmp/out"
	fi
done
tap_end
