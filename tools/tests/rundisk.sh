#!/bin/bash
# tools/tests/rundisk.sh: the student's files outlive a rebuild of the
# userland (mk/rootfs.mk, tools/rundisk.sh).  Host test.
#
# Uses its own run disk (make ROOTFS_RUN=TMP/run.img: the rules `make qemu`
# uses, on a file of this test's).  Boots it, types a session at the shell
# prompt (COM1 on FIFOs): files under /home and /root (an executable
# script, a symlink, a directory) and one outside them (/etc/marker); then
# rebuilds the pristine image as a lab's edit of the userland does (into
# a file of its own: ROOTFS_IMG=TMP/rootfs.img), which makes a fresh run
# disk; then checks that disk with debugfs.
#  rundisk.session       the session reached the prompt and powered off
#  rundisk.rebuild_plan  make -n -W user/bin/true.c: an edit in user/
#                        rebuilds the program, rootfs.img and the run disk
#  rundisk.fresh         the rebuilt disk is a fresh copy: /etc/marker is gone,
#                        and the old disk was kept as run.img.old
#  rundisk.home_kept     /home/alice/notes.txt has the contents typed
#  rundisk.modes_kept    the script written there kept its mode 0755 (set
#                        on the host: our userland has no chmod); the
#                        symlink and the directory are there
#  rundisk.root_kept     /root/todo has the contents typed
#  rundisk.fsck          e2fsck -fn finds the rebuilt disk clean
#  rundisk.boots_again   the rebuilt disk boots, and cat at its prompt shows
#                        the kept file
#  rundisk.reset         after `make reset-disk` the next disk has an empty /home
source "$(dirname "$0")/../testlib.sh"
T=rundisk
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-rundisk.XXXXXX") || exit 1
QPID=
trap '[ -n "$QPID" ] && kill $QPID 2>/dev/null; exec 3>&- 2>/dev/null; rm -rf "$TMP"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL
RUN=$TMP/run.img
mk() { make -s --no-print-directory BUILD="$BUILD" ROOTFS_RUN="$RUN" "$@"; }
mk all "$RUN" >"$TMP/build.log" 2>&1 || { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }

# boot RUN, type each argument at a prompt, then poweroff; 0 if it all went
session() {
    local n=1
    console_open "$TMP/console.$1"; shift
    timeout -k 2 "$(backstop 60)" "$QEMU" -accel tcg -display none -no-reboot -m 128M -nic none -monitor none \
        -serial "$CONSOLE_SERIAL" -kernel "$KERNEL" -append root=hda \
        -drive "file=$RUN,format=raw,if=ide,index=0" </dev/null >"$TMP/qemu.out" 2>&1 &
    QPID=$!; CONSOLE_PID=$QPID
    local ok=0
    for c in "$@" poweroff; do
        console_type $n "$c" || { ok=1; break; }
        n=$((n + 1))
    done
    wait $QPID || ok=1
    QPID=; exec 3>&-
    tr -d '\r' < "$CONSOLE_LOG" | grep -q 'power off: root (hda) synced' || ok=1
    return $ok
}

if session 1 'mkdir -p /home/alice/drafts' \
        'echo my lab notes > /home/alice/notes.txt' \
        'echo echo hi > /home/alice/run.sh' \
        'ln -s notes.txt /home/alice/link' \
        'echo buy milk > /root/todo' 'echo system > /etc/marker'; then
    pass "$T.session"
else fail "$T.session"; show_tail "$CONSOLE_LOG" 15; fi

# Our userland has no chmod (busybox's does): make the script executable
# from the host, so that the mode to keep is not the default one.
debugfs -w -R 'sif /home/alice/run.sh mode 0100755' "$RUN" >/dev/null 2>&1
# A lab's edit (user/bin/true.c) rebuilds the userland, rootfs.img, then
# the run disk: make's plan for it, asked with -n -W (as if the file were
# new), since touching it would make the tests running beside this one
# rebuild the same files at the same time.
plan=$(mk -n -W user/bin/true.c "$RUN" 2>&1)
if echo "$plan" | grep -q 'user/bin/true.c' && echo "$plan" | grep -q 'tools/mkrootfs.sh' &&
   echo "$plan" | grep -q "tools/rundisk.sh .* $RUN\$"; then pass "$T.rebuild_plan"
else fail "$T.rebuild_plan (make -n -W user/bin/true.c $RUN does not rebuild rootfs.img and the run disk)"; fi
# Then the rebuild itself, with a pristine image of this test's own
# (ROOTFS_IMG=TMP/...: new, so newer than the run disk), made by the same
# rules from the same staging tree.
mk ROOTFS_IMG="$TMP/rootfs.img" "$RUN" >"$TMP/rebuild.log" 2>&1 ||
    { fail "$T.rebuild"; show_tail "$TMP/rebuild.log"; exit 0; }
grep -q 'was rebuilt' "$TMP/rebuild.log" || { fail "$T.rebuild (tools/rundisk.sh did not run)"; show_tail "$TMP/rebuild.log"; }

dbg() { debugfs -R "$1" "$RUN" 2>/dev/null; }
if dbg 'stat /etc/marker' | grep -q Inode; then fail "$T.fresh (/etc/marker survived: not a fresh disk)"
elif ! debugfs -R 'cat /etc/marker' "$RUN.old" 2>/dev/null | grep -q system; then fail "$T.fresh (no run.img.old with the old disk)"
else pass "$T.fresh"; fi
got=$(dbg 'cat /home/alice/notes.txt')
if [ "$got" = "my lab notes" ]; then pass "$T.home_kept"; else fail "$T.home_kept (notes.txt: '$got')"; fi
mode=$(dbg 'stat /home/alice/run.sh' | sed -n 's/.*Mode: *\([0-7]*\).*/\1/p')
link=$(dbg 'stat /home/alice/link' | sed -n 's/^Fast link dest: "\(.*\)"$/\1/p')
if [ "$mode" = 0755 ] && [ "$link" = notes.txt ] && dbg 'stat /home/alice/drafts' | grep -q 'Type: directory'; then
    pass "$T.modes_kept"
else fail "$T.modes_kept (run.sh mode '$mode', link -> '$link')"; fi
got=$(dbg 'cat /root/todo')
if [ "$got" = "buy milk" ]; then pass "$T.root_kept"; else fail "$T.root_kept (/root/todo: '$got')"; fi
if e2fsck -fn "$RUN" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck"; else fail "$T.fsck"; show_tail "$TMP/fsck.log"; fi
if session 2 'cat /home/alice/notes.txt' && tr -d '\r' < "$CONSOLE_LOG" | grep -qx 'my lab notes'; then
    pass "$T.boots_again"
else fail "$T.boots_again"; show_tail "$CONSOLE_LOG" 10; fi

mk reset-disk >/dev/null 2>&1
mk "$RUN" >/dev/null 2>&1
if [ -f "$RUN" ] && [ -z "$(dbg 'ls /home' | tr -s ' \n' ' ' | sed 's/[0-9]* *([0-9]*) *\.\.\? *//g; s/ //g')" ]; then
    pass "$T.reset"
else fail "$T.reset (/home after reset-disk: $(dbg 'ls /home' | tr '\n' ' '))"; fi
exit 0
