#!/usr/bin/env bash
# The driver installs what each command needs and no more: the main job (check) no browser nor
# any other suite-only tool; test every tool a suite says it needs (each other test script names
# the package in its failure message, "Debian package <name>"). As root, apt's output stays behind
# one line per step (a fake apt-get and dpkg-query first on PATH), and a failing step shows the
# log's tail and where the whole log is.
#   driver_packages.sh SOURCE_DIR
set -uo pipefail
src="$1"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

check=" $("$src/kverify" packages check) "
test=" $("$src/kverify" packages test) "
for p in $test; do
  [[ "$check" == *" $p "* ]] || suite_only+=("$p")
done
for tool in chromium clang-format-14 libxml2-utils clang-14; do
  [[ "$check" != *" $tool "* ]] || fail "./kverify check would install $tool, which only the suites need"
done
for p in $(grep -rhoE "Debian package [a-z0-9.+-]+" --include=*.sh --exclude=driver_packages.sh "$src" | sed 's/Debian package //' | sort -u); do
  [[ "$test" == *" $p "* ]] || fail "a test script needs the Debian package $p, which ./kverify test does not install"
done
for p in $check; do [[ "$test" == *" $p "* ]] || fail "$p is installed for check but not for test"; done
# The Debian package's Depends (tools/debian-packages.txt, `project`) are the build's: a machine
# that built kverify can build a project against it.
depends="$("$src/kverify" packages --depends)"
for p in ${depends//,/ }; do
  [[ "$check" == *" $p "* ]] || fail "kverify's package depends on $p, which the build does not install"
done
echo "ok: check installs $(wc -w <<<"$check") packages; test adds ${suite_only[*]}"

[[ $(id -u) -eq 0 ]] || { echo "ok: not root here: the apt steps are not exercised"; exit 0; }
# A machine where nlohmann-json3-dev is missing; apt-get prints what apt prints (many lines).
mkdir -p "$work/bin"
cat >"$work/bin/dpkg-query" <<'FAKE'
#!/bin/sh
[ "$3" = nlohmann-json3-dev ] && exit 1
printf 'install ok installed'
FAKE
cat >"$work/bin/apt-get" <<'FAKE'
#!/bin/sh
for i in $(seq 1 200); do echo "Get:$i http://deb.debian.org/debian bookworm/main package-$i"; done
[ "$1" = install ] && [ -n "$KV_FAKE_APT_FAILS" ] && { echo "E: Unable to locate package nlohmann-json3-dev"; exit 100; }
exit 0
FAKE
chmod +x "$work/bin/dpkg-query" "$work/bin/apt-get"
PATH="$work/bin:$PATH" "$src/kverify" list >"$work/out" 2>"$work/err" || fail "./kverify list with apt installing: $(tail -5 "$work/err")"
grep -q "Get:" "$work/err" "$work/out" && fail "apt's output reached the terminal: $(grep -c Get: "$work/err") lines"
[[ $(grep -c '^kverify: apt-get update (log: ' "$work/err") -eq 1 &&
   $(grep -c '^kverify: installing nlohmann-json3-dev (log: ' "$work/err") -eq 1 ]] ||
  fail "not one line per apt step: $(head -5 "$work/err")"
[[ -s "$work/out" ]] || fail "the command's own output is missing after the install"
PATH="$work/bin:$PATH" KV_FAKE_APT_FAILS=1 "$src/kverify" list >"$work/out" 2>"$work/err"
rc=$?
[[ $rc -eq 2 ]] || fail "a failing apt-get install: exit $rc, expected 2"
grep -q "E: Unable to locate package" "$work/err" && grep -q "failed (the whole log: " "$work/err" ||
  fail "a failing apt step does not show the log's tail and where the log is: $(tail -3 "$work/err")"
echo "ok: apt behind one line per step; a failing step shows the log's tail and its path"
