#!/bin/bash
# tools/debootstrap-check.sh: the README's commands on a fresh Debian
# bookworm, from nothing, as a student's new machine (or the container of
# tools/container/Dockerfile) goes through them.  Layer: host tooling; run
# by hand, as root (not by make check: it needs root, the network and
# half an hour).  docs/any-laptop.md has the results of the last run.
#
#   tools/debootstrap-check.sh [--no-check] [--window] [--keep] [--root DIR] [--log FILE] [REPO]
#
# 1. debootstrap --variant=minbase bookworm DIR (default
#    /var/tmp/vellum-bookworm) with git, make, gcc, ca-certificates and
#    sudo: the README's "Debian with git, make and gcc".  The official
#    debian:bookworm image the Dockerfile starts from is a minbase
#    bootstrap too.  DIR must not exist (a half-made one from an
#    interrupted run: remove it, or --root elsewhere).
# 2. a user `student` (uid 1000) with password-less sudo, as the
#    container's user `vellum`: the README's commands run as that user, so
#    tools/setup.sh installs through sudo, as on a student's laptop.
# 3. the repository: a bare copy of REPO (default: this checkout) put in
#    DIR, which the chroot's git clones; its current branch, committed
#    work only (a dirty tree is warned about).
# 4. in a mount namespace of its own (unshare -m: nothing mounted here is
#    seen outside it, and all of it goes when the script ends, however it
#    ends): DIR bind-mounted on itself (so that / is a mount point inside,
#    as on a machine or in a container), /proc, /sys, /dev and /dev/pts
#    mounted into it, the host's resolv.conf copied, an /etc/hosts with
#    localhost written (debootstrap writes none), then chroot, and as student:
#       make                       tools/setup.sh installs the rest
#       make qemu-nox              to the shell prompt (fed on a FIFO):
#                                  a command that writes /home/hi, poweroff
#       nice -n 19 make check      (--no-check: skipped)
#       --window: then make qemu's window as on a desktop (or WSLg): with
#                                  DISPLAY set, tools/setup.sh installs
#                                  QEMU's GTK display; make qemu on an Xvfb
#                                  server, a command typed, the screen
#                                  saved as FILE's .window.png (Xvfb, xwd
#                                  and netpbm installed for the test only)
#    each timed.  Everything goes to FILE too (default
#    /var/tmp/vellum-bookworm.log); the last lines are the summary.
# 5. stops any process still running inside DIR (by pid), unmounts in
#    reverse order, checks nothing under DIR is mounted, and removes DIR
#    (rm --one-file-system as well); --keep leaves it, unmounted.
# Exit status: 0 when every step passed (make check: its exit status).
set -u
ROOT=/var/tmp/vellum-bookworm
LOG=/var/tmp/vellum-bookworm.log
CHECK=1 KEEP=0 WINDOW=0 REPO=
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
PACKAGES=git,make,gcc,ca-certificates,sudo
while [ $# -gt 0 ]; do
    case $1 in
        --no-check) CHECK=0 ;;
        --keep) KEEP=1 ;;
        --window) WINDOW=1 ;;
        --root) ROOT=$2; shift ;;
        --log) LOG=$2; shift ;;
        --in-namespace) INNS=1 ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "debootstrap-check: unknown option $1" >&2; exit 2 ;;
        *) REPO=$1 ;;
    esac
    shift
done
REPO=${REPO:-$(cd "$(dirname "$0")/.." && pwd)}
REPO=$(cd "$REPO" && pwd) || exit 2
ROOT=${ROOT%/}
case $ROOT in /?*) ;; *) echo "debootstrap-check: --root must be an absolute path" >&2; exit 2 ;; esac

# ---- first: checks, then the same script again in a mount namespace of its own
if [ -z "${INNS:-}" ]; then
    [ "$(id -u)" = 0 ] || { echo "debootstrap-check: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
    command -v debootstrap >/dev/null || PATH=$PATH:/usr/sbin:/sbin
    command -v debootstrap >/dev/null ||
        { echo "debootstrap-check: no debootstrap: apt-get install debootstrap" >&2; exit 2; }
    [ -e "$ROOT" ] && { echo "debootstrap-check: $ROOT exists (an earlier run's?): remove it first, or --root DIR" >&2; exit 2; }
    git -C "$REPO" rev-parse --verify -q HEAD >/dev/null ||
        { echo "debootstrap-check: $REPO is not a git checkout" >&2; exit 2; }
    [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no)" ] &&
        echo "debootstrap-check: warning: $REPO has uncommitted changes; only commits are cloned" >&2
    args=()
    [ $CHECK = 0 ] && args+=(--no-check)
    [ $KEEP = 1 ] && args+=(--keep)
    [ $WINDOW = 1 ] && args+=(--window)
    : > "$LOG" || exit 2
    exec unshare --mount --propagation private bash "$0" --in-namespace "${args[@]}" \
        --root "$ROOT" --log "$LOG" "$REPO"
fi

exec > >(tee -a "$LOG") 2>&1
say() { echo "debootstrap-check: $*"; }
MOUNTED=()                               # in mount order
DBPID=                                   # debootstrap's process group, while it runs
cleanup() {
    local p pids="" m i
    trap '' INT TERM HUP                 # a second signal must not cut the clean-up short
    rm -f "$ROOT.debootstrap.log"
    if [ -n "$DBPID" ]; then
        say "stopping debootstrap"
        kill -- -"$DBPID" 2>/dev/null; sleep 2; kill -9 -- -"$DBPID" 2>/dev/null
    fi
    # processes still running inside the chroot (a QEMU of an interrupted
    # step): only ours can be there
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && pids="$pids ${p#/proc/}"
    done
    if [ -n "$pids" ]; then
        say "stopping processes left in the chroot:$pids"
        kill $pids 2>/dev/null; sleep 2; kill -9 $pids 2>/dev/null
    fi
    for (( i = ${#MOUNTED[@]} - 1; i >= 0; i-- )); do
        m=${MOUNTED[i]}
        umount "$m" 2>/dev/null || umount -l "$m" || say "could not unmount $m"
    done
    MOUNTED=()
    if findmnt -rno TARGET | grep -q "^$ROOT\(/\|$\)"; then
        say "something is still mounted under $ROOT: not removing it"
        findmnt -rno TARGET | grep "^$ROOT\(/\|$\)"
        return 1
    fi
    if [ $KEEP = 1 ]; then
        say "kept $ROOT (nothing mounted in it); remove it with: rm -rf --one-file-system $ROOT"
    elif [ -d "$ROOT" ]; then
        rm -rf --one-file-system "$ROOT" && say "removed $ROOT"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mnt() {                                  # mnt TARGET MOUNT-ARGS...
    local t=$1; shift
    mkdir -p "$t" && mount "$@" "$t" || { say "mount $* $t failed"; exit 1; }
    MOUNTED+=("$t")
}
step_time() { echo "$(( $(date +%s) - $1 ))"; }

say "$(date -u '+%Y-%m-%d %H:%M UTC'): $SUITE minbase in $ROOT, repository $REPO ($(git -C "$REPO" rev-parse --short HEAD) on $(git -C "$REPO" rev-parse --abbrev-ref HEAD)), load $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s)
setsid debootstrap --variant=minbase --include=$PACKAGES $SUITE "$ROOT" "$MIRROR" > "$ROOT.debootstrap.log" 2>&1 &
DBPID=$!
wait $DBPID
rc=$?
DBPID=
if [ $rc != 0 ]; then
    say "debootstrap failed ($rc):"; tail -5 "$ROOT.debootstrap.log"; rm -f "$ROOT.debootstrap.log"; exit 1
fi
rm -f "$ROOT.debootstrap.log"
T_BOOTSTRAP=$(step_time $t0)
say "debootstrap: $T_BOOTSTRAP s, $(du -sm --one-file-system "$ROOT" | cut -f1) MB"

# What an installed machine or a container has and a bare debootstrap
# lacks: / a mount point (df, /proc/self/mounts) and /etc/hosts (localhost:
# Bochs's COM1 socket, sudo).
mnt "$ROOT" --bind "$ROOT"
hostname > "$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    "$(hostname)" > "$ROOT/etc/hosts"
mnt "$ROOT/proc" -t proc proc
mnt "$ROOT/sys" -t sysfs sys
mnt "$ROOT/dev" --bind /dev
mnt "$ROOT/dev/pts" --bind /dev/pts
[ -d /dev/shm ] && mnt "$ROOT/dev/shm" -t tmpfs -o mode=1777 shm
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"

# the student and the repository
chroot "$ROOT" useradd -m -u 1000 -s /bin/bash student || exit 1
echo 'student ALL=(ALL) NOPASSWD: ALL' > "$ROOT/etc/sudoers.d/student"
chmod 440 "$ROOT/etc/sudoers.d/student"
BRANCH=$(git -C "$REPO" rev-parse --abbrev-ref HEAD)
git clone -q --bare --no-hardlinks "$REPO" "$ROOT/srv/vellum.git" || exit 1
chroot "$ROOT" chown -R student:student /srv/vellum.git

# the steps, as the student, with an environment of a fresh login
cat > "$ROOT/tmp/steps.sh" <<'STEPS'
set -u
cd "$HOME"
say() { echo "debootstrap-check: $*"; }
now() { date +%s; }
BRANCH=$1 CHECK=$2 WINDOW=$3
result=0
git clone -q -b "$BRANCH" /srv/vellum.git vellum && cd vellum || exit 1
say "cloned $(git log -1 --format='%h %s' | cut -c1-70)"

say "step 1: make"
t=$(now); make > ../make.log 2>&1; rc=$?
say "make: exit $rc, $(( $(now) - t )) s"
grep '^setup:' ../make.log
[ $rc = 0 ] || { tail -30 ../make.log; exit 1; }

say "step 2: make qemu-nox, a command typed at the prompt, poweroff"
# wait_for REGEX SECONDS: the console log shows REGEX
wait_for() {
    local i
    for (( i = 0; i < $2 * 10; i++ )); do
        tr -d '\r' < "$QLOG" | grep -q -- "$1" && return 0
        kill -0 $qpid 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
rm -f ../qemu.in; mkfifo ../qemu.in
QLOG=../qemu.log
t=$(now)
timeout 600 make qemu-nox < ../qemu.in > ../qemu.log 2>&1 &
qpid=$!
exec 3> ../qemu.in
ok=1
wait_for 'vellum:/\$ ' 300 || ok=0
[ $ok = 1 ] && printf 'echo hello from bookworm > /home/hi; cat /home/hi\n' >&3 &&
    wait_for '^hello from bookworm' 60 || ok=0
[ $ok = 1 ] && printf 'poweroff\n' >&3
wait_for 'power off: root (hda) synced' 120 || ok=0
exec 3>&-
wait $qpid; rc=$?
hi=$(/usr/sbin/debugfs -R 'cat /home/hi' build/images/rootfs-run.img 2>/dev/null)
say "make qemu-nox: exit $rc, $(( $(now) - t )) s; prompt, command and power off seen: $([ $ok = 1 ] && echo yes || echo no); /home/hi on the disk: '$hi'"
if [ $rc != 0 ] || [ $ok != 1 ] || [ "$hi" != 'hello from bookworm' ]; then
    tr -d '\r' < ../qemu.log | tail -20; result=1
else
    tr -d '\r' < ../qemu.log | grep -m1 -a 'Welcome to Vellum'
    tr -d '\r' < ../qemu.log | grep -a 'power off:'
fi

if [ "$CHECK" = 1 ]; then
    say "step 3: nice -n 19 make check"
    t=$(now); nice -n 19 make check > ../check.log 2>&1; rc=$?
    say "make check: exit $rc, $(( $(now) - t )) s; its last line:"
    tail -1 ../check.log
    grep -a -E '^(FAIL|SKIP)' ../check.log
    [ $rc = 0 ] || result=1
fi

if [ "$WINDOW" = 1 ]; then
    say "step 4: make qemu with \$DISPLAY set (an Xvfb server)"
    t=$(now); DISPLAY=:5 sh tools/setup.sh; rc=$?
    say "setup.sh with DISPLAY: exit $rc, $(( $(now) - t )) s; QEMU's displays now: $(qemu-system-i386 -display help 2>/dev/null | tail -n +2 | tr '\n' ' ')"
    sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        xvfb x11-apps netpbm xauth > ../window-apt.log 2>&1 || { say "apt-get install xvfb failed"; tail -5 ../window-apt.log; exit 1; }
    Xvfb :5 -screen 0 1024x768x24 > ../xvfb.log 2>&1 &
    xpid=$!
    sleep 2
    rm -f ../qemu.in; mkfifo ../qemu.in
    QLOG=../qemu-window.log
    DISPLAY=:5 timeout 600 make qemu < ../qemu.in > "$QLOG" 2>&1 &
    qpid=$!
    exec 3> ../qemu.in
    ok=1
    wait_for 'vellum:/\$ ' 300 || ok=0
    [ $ok = 1 ] && printf 'echo a window from bookworm\n' >&3 && wait_for '^a window from bookworm' 60 || ok=0
    sleep 2
    DISPLAY=:5 xwd -root -silent 2>/dev/null | xwdtopnm 2>/dev/null | pnmtopng > ../window.png 2>/dev/null
    [ $ok = 1 ] && printf 'poweroff\n' >&3
    wait_for 'power off: root (hda) synced' 120 || ok=0
    exec 3>&-
    wait $qpid; rc=$?
    kill $xpid 2>/dev/null; wait $xpid 2>/dev/null
    say "make qemu with DISPLAY: exit $rc; prompt, command, power off: $([ $ok = 1 ] && echo yes || echo no); screen: $(wc -c < ../window.png 2>/dev/null || echo no) bytes of PNG"
    [ $rc = 0 ] && [ $ok = 1 ] && [ -s ../window.png ] || { tr -d '\r' < "$QLOG" | tail -10; result=1; }
fi
exit $result
STEPS

say "as student in the chroot: git clone, make, make qemu-nox$([ $CHECK = 1 ] && echo ', make check')"
t0=$(date +%s)
chroot "$ROOT" /usr/sbin/runuser -u student -- /usr/bin/env -i HOME=/home/student USER=student \
    LOGNAME=student SHELL=/bin/bash PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm LANG=C.UTF-8 \
    /bin/bash /tmp/steps.sh "$BRANCH" "$CHECK" "$WINDOW" </dev/null
rc=$?
say "in the chroot: exit $rc, $(step_time $t0) s (debootstrap before it: $T_BOOTSTRAP s); packages: $(chroot "$ROOT" dpkg-query -f '.\n' -W | wc -l), $(du -sm --one-file-system "$ROOT" | cut -f1) MB"
for f in make.log qemu.log check.log window.png; do
    [ -f "$ROOT/home/student/$f" ] && cp "$ROOT/home/student/$f" "${LOG%.log}.$f"
done
say "logs: $LOG, ${LOG%.log}.{make,qemu,check}.log$([ $WINDOW = 1 ] && echo ", ${LOG%.log}.window.png")"
exit $rc
