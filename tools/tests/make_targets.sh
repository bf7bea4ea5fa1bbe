#!/bin/bash
# tools/tests/make_targets.sh: the make targets tell the truth (host test).
#  make_targets.help_every_phony   every .PHONY target of the Makefile and
#                                  mk/*.mk is a line of `make help`
#  make_targets.help_is_readme     `make help` prints README.md's table of
#                                  make targets, one line per row, none empty
#  make_targets.unknown_goal       `make qemuu` fails, names `make qemu` and
#                                  points to `make help`
#  make_targets.clang_ld           CC=clang alone links with ld.lld; an LD
#                                  you name wins; gcc keeps its ld
#  make_targets.bare_make_setup    a bare `make` runs tools/setup.sh first,
#                                  then `all` in a fresh make
#  make_targets.setup_one_command  setup with a tool missing, not root and
#                                  no sudo: exit 1 and the one apt-get
#                                  command to run, naming the package
#  make_targets.qemu_start_failure `make qemu-nox` on a disk another QEMU
#                                  holds fails, with QEMU's message
#  make_targets.qemu_gdb_start_failure  the same for `make qemu-gdb` (it
#                                  once accepted any status 1)
#  make_targets.qemu_gdb_poweroff  `make qemu-gdb` whose kernel, continued
#                                  by a gdb, powers off succeeds
#  make_targets.qemu_poweroff      `make qemu-nox` whose kernel powers off
#                                  succeeds
#  make_targets.qemu_test_pass     `make qemu-test APPEND=test=cmdline`
#                                  succeeds (QEMU status 1 is its "passed")
#  make_targets.quiet_build        a build step prints one Kbuild-style
#                                  line ("  CC      OBJ"), V=1 the command
#                                  itself, make -s nothing
#  make_targets.qemu_test_panic    `make qemu-test APPEND=oops=bug` fails
#                                  and says the kernel panicked
#  make_targets.cross_i686_elf     with i686-elf-gcc and friends in PATH
#                                  (Homebrew's cross toolchain; here
#                                  wrappers of gcc -m32) the Makefile
#                                  compiles and archives (make -n) with them
#  make_targets.setup_no_apt       setup on a host without apt-get (macOS):
#                                  the core tools there (the compiler only
#                                  as i686-elf-gcc), Bochs missing: exit 0,
#                                  one line naming bochs; qemu-system-i386
#                                  missing too: exit 1, naming it
# host-timeout: 150
source "$(dirname "$0")/../testlib.sh"
T=make_targets
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-make.XXXXXX") || exit 1
HOLDER=
trap '[ -n "$HOLDER" ] && kill $HOLDER 2>/dev/null; rm -rf "$TMP"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL VELLUM_SETUP_DONE
M() { make --no-print-directory BUILD="$BUILD" "$@"; }

# ---- make help
M help > "$TMP/help" 2>&1
phony=$(grep -h '^\.PHONY:' Makefile mk/*.mk | sed 's/^\.PHONY://' | tr ' ' '\n' |
        grep -v -x -e '' -e '.gdbinit' -e default | sort -u)
listed=$(awk '{ print $2 }' "$TMP/help" | sort -u)
missing=$(comm -23 <(echo "$phony") <(echo "$listed") | tr '\n' ' ')
if [ -z "$missing" ] && [ "$(echo "$phony" | wc -l)" -ge 20 ]; then pass "$T.help_every_phony"
else fail "$T.help_every_phony (not in make help / README.md's table: $missing)"; fi
rows=$(sed -n '/^## Make targets/,/^## /p' README.md | grep -c '^| `make')
lines=$(wc -l < "$TMP/help")
empty=$(awk 'NF < 3' "$TMP/help" | wc -l)
if [ "$rows" -ge 20 ] && [ "$rows" = "$lines" ] && [ "$empty" = 0 ] &&
   grep -q '^  make qemu  .*boots' "$TMP/help"; then pass "$T.help_is_readme ($rows targets)"
else fail "$T.help_is_readme (README rows $rows, make help lines $lines, $empty without a description)"; fi

# ---- a mistyped goal
M qemuu > "$TMP/typo" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "no target 'qemuu'" "$TMP/typo" && grep -q 'Did you mean: make qemu\b' "$TMP/typo" &&
   grep -q "'make help'" "$TMP/typo"; then pass "$T.unknown_goal"
else fail "$T.unknown_goal (exit $rc: $(head -2 "$TMP/typo" | tr '\n' ' '))"; fi

# ---- the linker (make -n: the link line the rules would run)
ld_of() { M -n "$@" "$BUILD/vellum.pass1" -W boot/linker.ld 2>/dev/null | grep -m1 ' -m elf_i386 ' | awk '{ print $1 }'; }
c=$(ld_of CC=clang); cl=$(ld_of CC=clang LD=ld); g=$(ld_of)
if [ "$c" = ld.lld ] && [ "$cl" = ld ] && [ -n "$g" ] && [ "$g" != ld.lld ]; then pass "$T.clang_ld"
else fail "$T.clang_ld (CC=clang: '$c', CC=clang LD=ld: '$cl', default: '$g')"; fi

# ---- a bare make
first=$(env -u VELLUM_SETUP_DONE make --no-print-directory BUILD="$BUILD" -n -s 2>/dev/null | head -2 | tr '\n' ';')
if [ "$first" = "sh tools/setup.sh;make --no-print-directory VELLUM_SETUP_DONE=1 all;" ]; then
    pass "$T.bare_make_setup"
else fail "$T.bare_make_setup (make -n begins: $first)"; fi

# ---- setup on a machine missing bochs, not root, no sudo: every host
# command but bochs and sudo, and an id that says uid 1000
# farm DIR NAME...: DIR holds a symlink to every host command but the NAMEs
# (cp -s: one process; a loop of ln took half a minute under load)
farm() {
    local d=$1; shift
    mkdir -p "$d"
    cp -s /usr/bin/* "$d"/ 2>/dev/null
    cp -sn /usr/sbin/* /bin/* /sbin/* "$d"/ 2>/dev/null
    for n in "$@"; do rm -f "${d:?}/$n"; done
}
F=$TMP/path
farm "$F" bochs sudo id
printf '#!/bin/sh\necho 1000\n' > "$F/id"; chmod +x "$F/id"
PATH=$F sh tools/setup.sh > "$TMP/setup" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q 'run as root: apt-get update && apt-get install -y --no-install-recommends bochs$' "$TMP/setup"; then
    pass "$T.setup_one_command"
else fail "$T.setup_one_command (exit $rc: $(tail -1 "$TMP/setup"))"; fi

# ---- QEMU's own failure against the guest's statuses
M -s all test-kernel >/dev/null 2>&1
cp "$BUILD/images/rootfs.img" "$TMP/disk.img"
"$QEMU" -display none -S -nic none -monitor none -serial none \
    -drive "file=$TMP/disk.img,format=raw,if=ide,index=0" </dev/null >/dev/null 2>&1 &
HOLDER=$!
# until it holds the image's lock: QEMU takes OFD locks on the image, which
# /proc/locks lists by inode (a probing second QEMU would race the holder
# for the lock and could make the holder itself fail to start)
ino=$(stat -c %i "$TMP/disk.img")
for _ in $(seq 300); do
    grep -q ":$ino " /proc/locks && break
    sleep 0.1
done
timeout "$(backstop 30)" make --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 qemu-nox DISKS="$TMP/disk.img" </dev/null > "$TMP/locked" 2>&1
rc=$?
# make qemu-gdb writes .gdbinit here: the tester's own is put back after
[ -f .gdbinit ] && cp -p .gdbinit "$TMP/gdbinit.saved"
restore_gdbinit() { if [ -f "$TMP/gdbinit.saved" ]; then cp -p "$TMP/gdbinit.saved" .gdbinit; else rm -f .gdbinit; fi; }
PORT=$(bash tools/gdb/gdbport.sh "$TMP")
timeout "$(backstop 30)" make --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 qemu-gdb GDBPORT=$PORT DISKS="$TMP/disk.img" </dev/null > "$TMP/gdblocked" 2>&1
grc=$?
kill $HOLDER 2>/dev/null; wait $HOLDER 2>/dev/null; HOLDER=
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'QEMU did not run: .*Failed to get "write" lock' "$TMP/locked"; then
    pass "$T.qemu_start_failure"
else fail "$T.qemu_start_failure (make exit $rc: $(tail -1 "$TMP/locked"))"; fi
if [ $grc -ne 0 ] && [ $grc -ne 124 ] && grep -q 'QEMU did not run: .*Failed to get "write" lock' "$TMP/gdblocked"; then
    pass "$T.qemu_gdb_start_failure"
else fail "$T.qemu_gdb_start_failure (make exit $grc: $(tail -1 "$TMP/gdblocked"))"; fi

# make qemu-gdb whose kernel powers off under gdb's `continue` succeeds
listening() {
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
        awk -v p=":$(printf '%04X' "$1")" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}
timeout "$(backstop 60)" make --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 qemu-gdb GDBPORT=$PORT DISKS= </dev/null > "$TMP/gdbrun" 2>&1 &
MAKEPID=$!
for _ in $(seq 300); do listening $PORT && break; kill -0 $MAKEPID 2>/dev/null || break; sleep 0.1; done
timeout "$(backstop 30)" gdb -q -nh -batch -ex "target remote 127.0.0.1:$PORT" -ex continue </dev/null > "$TMP/gdbclient" 2>&1
wait $MAKEPID
grc=$?
restore_gdbinit
if [ $grc = 0 ] && tr -d '\r' < "$TMP/gdbrun" | grep -q 'power off: root (none) synced'; then pass "$T.qemu_gdb_poweroff"
else fail "$T.qemu_gdb_poweroff (make exit $grc)"; show_tail "$TMP/gdbrun" 5; show_tail "$TMP/gdbclient" 5; fi

timeout "$(backstop 30)" make --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 qemu-nox DISKS= </dev/null > "$TMP/off" 2>&1
rc=$?
if [ $rc = 0 ] && tr -d '\r' < "$TMP/off" | grep -q 'power off: root (none) synced'; then pass "$T.qemu_poweroff"
else fail "$T.qemu_poweroff (make exit $rc)"; show_tail "$TMP/off" 5; fi

timeout "$(backstop 30)" make --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 qemu-test DISKS= APPEND=test=cmdline </dev/null > "$TMP/pass" 2>&1
rc=$?
if [ $rc = 0 ] && tr -d '\r' < "$TMP/pass" | grep -q 'ktest: done [1-9][0-9]* passed, 0 failed'; then pass "$T.qemu_test_pass"
else fail "$T.qemu_test_pass (make exit $rc)"; show_tail "$TMP/pass" 5; fi

timeout "$(backstop 30)" make --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 qemu-test DISKS= APPEND=oops=bug </dev/null > "$TMP/panic" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'the kernel panicked or oopsed (QEMU status 7)' "$TMP/panic"; then
    pass "$T.qemu_test_panic"
else fail "$T.qemu_test_panic (make exit $rc)"; show_tail "$TMP/panic" 5; fi

# ---- the quiet build: one object compiled into a scratch build directory
qb() { make --no-print-directory VELLUM_SETUP_DONE=1 BUILD="$TMP/qb$1" "${@:2}" "$TMP/qb$1/lib/string.o" 2>&1; }
q1=$(qb 1) q2=$(qb 2 V=1) q3=$(qb 3 -s)
if [ "$q1" = "  CC      $TMP/qb1/lib/string.o" ] &&
   [[ $q2 == *"-c lib/string.c -o $TMP/qb2/lib/string.o"* ]] && [[ $q2 != *"  CC  "* ]] &&
   [ -z "$q3" ] && [ -f "$TMP/qb1/lib/string.o" ] && [ -f "$TMP/qb2/lib/string.o" ] && [ -f "$TMP/qb3/lib/string.o" ]; then
    pass "$T.quiet_build"
else
    fail "$T.quiet_build (make: '$q1'; V=1: '${q2:0:60}...'; -s: '$q3')"
fi

# ---- Homebrew's cross toolchain, i686-elf-*: wrappers of the host's gcc -m32
# and binutils, in a PATH without gcc itself (where i386-elf-gcc exists the
# Makefile rightly prefers it: then only the setup half is checked)
X=$TMP/cross
mkdir -p "$X"
gcc_path=$(command -v gcc)
printf '#!/bin/sh\nexec %s -m32 "$@"\n' "$gcc_path" > "$X/i686-elf-gcc"
for t in ld nm objcopy ar; do printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v $t)" > "$X/i686-elf-$t"; done
chmod +x "$X"/*
xo=$(PATH=$X:$PATH make --no-print-directory VELLUM_SETUP_DONE=1 BUILD="$TMP/xb" V=1 "$TMP/xb/lib/string.o" 2>&1)
xn=$(PATH=$X:$PATH make --no-print-directory VELLUM_SETUP_DONE=1 BUILD="$TMP/xb" -n "$TMP/xb/user/libc.a" 2>&1)
if command -v i386-elf-gcc >/dev/null; then
    skip "$T.cross_i686_elf (i386-elf-gcc is installed: the Makefile uses it first)"
elif [[ $xo == *"i686-elf-gcc "*"-c lib/string.c"* ]] && [ -f "$TMP/xb/lib/string.o" ] &&
     [[ $xn == *"i686-elf-ar rcs"* ]]; then
    pass "$T.cross_i686_elf"
else fail "$T.cross_i686_elf (make V=1 said: $(echo "$xo" | head -3 | cut -c1-80 | tr '\n' ' '))"; fi

# ---- setup on a host without apt-get: every host command but apt-get,
# bochs and gcc, and the i686-elf wrappers
N=$TMP/noapt
farm "$N" apt-get bochs gcc
cp "$X"/* "$N/"
PATH=$N sh tools/setup.sh > "$TMP/noapt.out" 2>&1
rc=$?
rm -f "$N/qemu-system-i386"
PATH=$N sh tools/setup.sh > "$TMP/noapt2.out" 2>&1
rc2=$?
if [ $rc = 0 ] && [ "$(wc -l < "$TMP/noapt.out")" = 1 ] &&
   grep -q '^setup: no apt-get here; make and make qemu have what they need, make check .* also need: bochs' "$TMP/noapt.out" &&
   ! grep -q 'gcc' "$TMP/noapt.out" &&
   [ $rc2 = 1 ] && grep -q '^setup: no apt-get here, and make needs: qemu-system-i386;' "$TMP/noapt2.out"; then
    pass "$T.setup_no_apt"
else fail "$T.setup_no_apt (exit $rc: $(head -c 150 "$TMP/noapt.out"); without QEMU exit $rc2: $(head -c 150 "$TMP/noapt2.out"))"; fi
exit 0
