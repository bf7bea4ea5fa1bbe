#!/bin/bash
# tools/tests/creds_session.sh: users, modes and owners at the shell prompt
# (issue 23; docs/vfs.md, Credentials and permissions).  Layer: host test
# (runs the kernel, init, sh, id, su, chmod, chown, ls together).
#
# Boots a copy of build/images/rootfs.img with root=hda and COM1 on FIFOs,
# as tools/tests/shell_session.sh, and types: id as root; a sticky /home/lab
# (chmod 1777); a private file (chmod 600) and a shared one (chown
# student:staff, chmod 664); ls -l; su student; id; cat of the private
# file (denied); an append to the shared file; a file of the student's own;
# a chown the student may not make; rm of root's file in the sticky
# directory (denied); ls -l; exit back to root; a chown to ids above
# 65535 (ext2's l_i_uid_high), ls -l of it; sync; poweroff.  Then on
# the host: e2fsck -fn is clean, and debugfs reads back each file's mode,
# owner, group and contents; the console shows the ids, the names ls -l
# printed for the owners and the errors; docs/vfs.md's pasted copy of the
# session is this run's console.  One PASS/FAIL line per check.
source "$(dirname "$0")/../testlib.sh"
T=creds_session
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-creds.XXXXXX") || exit 1
QPID=
cleanup() {
    [ -n "$QPID" ] && kill "$QPID" 2>/dev/null
    exec 3>&- 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

make -s --no-print-directory BUILD="$BUILD" all >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
IMG=$TMP/root.img
cp "$BUILD/images/rootfs.img" "$IMG"

console_boot "$IMG"     # tools/testlib.sh: LOG, QPID, NP, LOST

H=/home/lab
console_next "id"
console_next "mkdir $H"
console_next "chmod 1777 $H"
console_next "cd $H"
console_next "echo top secret > secret.txt"
console_next "chmod 600 secret.txt"
console_next "echo shared > shared.txt"
console_next "chown student:staff shared.txt"
console_next "chmod 664 shared.txt"
console_next "ls -l"
console_next "su student"
console_next "id"
console_next "cat secret.txt"
console_next "echo more >> shared.txt"
console_next "echo mine > mine.txt"
console_next "chmod 640 mine.txt"
console_next "chown root mine.txt"
console_next "rm secret.txt"
console_next "ls -l"
console_next "exit"
console_next "id"
console_next "touch big.txt"
console_next "chown 70000:70001 big.txt"
console_next "ls -l big.txt"
console_next "sync"
console_next "poweroff"

console_end                            # QEMU gone by itself (poweroff): rc
log() { tr -d '\r' < "$LOG"; }
[ "${KEEP:-}" = 1 ] && cp "$LOG" "${TMPDIR:-/tmp}/creds_session.log"

if [ $rc = 0 ] && log | grep -q 'power off: root (hda) synced and read-only'; then
    pass "$T.power_off"
else
    fail "$T.power_off (qemu status $rc: $(qemu_status_text $rc))"; show_tail "$LOG" 20
fi
if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi

# in the console: the ids before, under and after su, and the refusals
seen() {
    if log | grep -qxF -- "$2"; then pass "$T.$1"
    else fail "$T.$1 (no line '$2' on the console)"; fi
}
root_id='uid=0(root) gid=0(root) groups=0(root)'
seen id_root "$root_id"
seen id_student 'uid=1000(student) gid=1000(student) groups=1000(student),50(staff)'
n=$(log | grep -cxF "$root_id")
if [ "$n" = 2 ]; then pass "$T.id_back_to_root"
else fail "$T.id_back_to_root (root's id line $n times, want 2)"; fi
seen cat_denied 'cat: secret.txt: Permission denied'
seen chown_denied 'chown: mine.txt: Operation not permitted'
seen rm_sticky_denied 'rm: secret.txt: Operation not permitted'
seen ls_owner_group '-rw-rw-r--   1 student  staff           7 shared.txt'
seen ls_after_append '-rw-rw-r--   1 student  staff          12 shared.txt'
seen ls_private '-rw-------   1 root     root           11 secret.txt'
seen ls_student_file '-rw-r-----   1 student  student         5 mine.txt'
seen ls_numbers_without_names '-rw-r--r--   1 70000    70001           0 big.txt'

# on the disk: mode, owner, group and bytes of each file
inode() {     # NAME WANT_MODE WANT_UID WANT_GID [CONTENT]
    local st got
    st=$(debugfs -R "stat $H/$1" "$IMG" 2>/dev/null)
    got="$(sed -n 's/.*Mode: *\([0-7]*\).*/\1/p' <<<"$st" | head -1) $(sed -n 's/^User: *\([0-9]*\) *Group: *\([0-9]*\).*/\1 \2/p' <<<"$st")"
    if [ "$got" = "$2 $3 $4" ]; then pass "$T.disk_inode ${1:-.}"
    else fail "$T.disk_inode ${1:-.} (mode uid gid '$got', want '$2 $3 $4')"; fi
    if [ $# -ge 5 ]; then
        debugfs -R "cat $H/$1" "$IMG" > "$TMP/got" 2>/dev/null
        printf '%b' "$5" > "$TMP/want"
        if cmp -s "$TMP/got" "$TMP/want"; then pass "$T.disk_content $1"
        else fail "$T.disk_content $1 (got '$(od -c "$TMP/got" | head -2 | tr -s ' ' | tr '\n' ' ')')"; fi
    fi
}
inode . 01777 0 0
inode secret.txt 0600 0 0 'top secret\n'
inode shared.txt 0664 1000 50 'shared\nmore\n'
inode mine.txt 0640 1000 1000 'mine\n'
inode big.txt 0644 70000 70001 ''
su_mode=$(debugfs -R "stat /bin/su" "$IMG" 2>/dev/null | sed -n 's/.*Mode: *\([0-7]*\).*/\1/p' | head -1)
if [ "$su_mode" = 04755 ]; then pass "$T.su_setuid_root"
else fail "$T.su_setuid_root (/bin/su mode $su_mode)"; fi

# docs/vfs.md pastes this session: it must be what the console showed
sed -n '/^<!-- creds_session:/,/^```$/p' docs/vfs.md | sed '1,2d;$d' > "$TMP/doc.txt"
log | sed -n '/^vellum:\/\$ id$/,/^power off: root/p' > "$TMP/session.txt"
if [ -s "$TMP/doc.txt" ] && cmp -s "$TMP/doc.txt" "$TMP/session.txt"; then pass "$T.docs_session"
else fail "$T.docs_session (docs/vfs.md's pasted session differs from this run's console)"
     diff "$TMP/doc.txt" "$TMP/session.txt" | head -10; fi
