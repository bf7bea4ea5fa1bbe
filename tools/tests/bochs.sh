# tools/tests/bochs.sh: Vellum under Bochs (tools/bochs.sh, boot/bochsrc),
# headless (COM1 into a file or on a socket, a display that never waits for
# a viewer).  Two boots, each bounded (Bochs is slow):
#  1. the GRUB test ISO: the kernel reports in, runs its quick tests
#     (boot/grub-test.cfg) and powers the machine off (kernel/x86/power.c:
#     ACPI PM1a at 0xB004 on Bochs's PIIX4)
#       bochs.banner          the kernel banner is on COM1
#       bochs.tests_pass      "ktest: done N passed, 0 failed", N > 0
#       bochs.power_off       Bochs ended by the guest's soft power-off (not a
#                             panic, a triple fault or the timeout)
#  2. build/vellum.iso, the ISO `make bochs` boots, with a copy of the root
#     disk as hda, on two CPUs (BOCHS_CPUS=2): GRUB's first entry
#     (boot/grub.cfg, root=hda), init, the shell; the test types at its
#     prompt over COM1 (a socket), then checks the disk on the host
#       bochs.shell_prompt    the shell's prompt came
#       bochs.shell_file      a file written at the prompt is on the disk, by
#                             debugfs, with the contents typed
#       bochs.shell_ls        `ls /bin | wc -l` there counted the programs
#                             the image holds
#       bochs.shell_power_off `poweroff` at the prompt ended Bochs (status 0
#                             from tools/bochs.sh) after syncing the root
#       bochs.shell_fsck      e2fsck -fn finds the disk clean
#       bochs.shell_two_cpus  the kernel brought both CPUs up
#       bochs.same_disk       `make bochs` attaches the disk `make qemu` boots
#       bochs.cpus            `make bochs` gives Bochs one CPU, `make bochs
#                             CPUS=4` four (make -n)
#  3. the same from a terminal (a pseudo-terminal made by script(1)):
#     tools/bochs.sh picks the term display and connects this terminal to it
#       bochs.term_display    the VGA screen's text reached the terminal and
#                             keys typed there reached the shell: the command
#                             typed wrote its file on the disk (debugfs)
source "$(dirname "$0")/../testlib.sh"
T=bochs
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-bochs.XXXXXX") || exit 1
BPID=
cleanup() {
    [ -n "$BPID" ] && kill "$BPID" 2>/dev/null
    exec 3>&- 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
[ -f "$TEST_ISO" ] && [ -f "$ISO" ] && [ -f "$BUILD/images/rootfs.img" ] ||
    make -s BUILD="$BUILD" all test-iso >/dev/null

# ---- 1. the test ISO's quick kernel tests
serial=$TMP/smoke-serial.log
truncate -s 1M "$TMP/blank.img"               # hda: unused by these tests
BOCHS_LOG=$TMP/smoke.log timeout -k 5 "$(backstop 60)" tools/bochs.sh "$TEST_ISO" "$TMP/blank.img" \
    "file:$serial" </dev/null >"$TMP/smoke.out" 2>&1
rc=$?
bad=0
if { tr -d "\r" < "$serial"; } 2>/dev/null | grep -q '^Vellum [0-9]'; then pass $T.banner
else fail "$T.banner (no 'Vellum N.N' banner on COM1; tools/bochs.sh exit $rc)"; bad=1; fi
if { tr -d "\r" < "$serial"; } 2>/dev/null | grep -qE 'ktest: done [1-9][0-9]* passed, 0 failed'; then pass $T.tests_pass
else fail "$T.tests_pass (no 'ktest: done N passed, 0 failed')"; bad=1; fi
if [ $rc = 0 ] && grep -qE 'ACPI control: soft power off|Shutdown port: shutdown requested' "$TMP/smoke.log"; then
    pass $T.power_off
else
    fail "$T.power_off (Bochs did not end by a guest power-off; exit $rc)"; bad=1
    sed 's/^/    | /' "$TMP/smoke.out" | grep -v '^    | *$' | tail -n 5
fi
[ $bad = 0 ] || show_tail "$serial"

# ---- 2. build/vellum.iso to the shell on the root disk
IMG=$TMP/root.img
cp "$BUILD/images/rootfs.img" "$IMG"
CONSOLE_LOG=$TMP/console.log
: > "$CONSOLE_LOG"
# COM1 is a TCP server Bochs opens on a free port; it waits for us before it
# starts the machine (connect until it accepts).  A port someone else took in
# the meantime makes Bochs exit: try another.
in_use() {                             # a listener there already (ss: iproute2)
    ss -Htln 2>/dev/null | awk '{print $4}' | grep -q ":$1\$"
}
connected=
for try in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    in_use $port && continue
    BOCHS_CPUS=2 BOCHS_LOG=$TMP/shell.log timeout -k 5 "$(backstop 90)" tools/bochs.sh "$ISO" "$IMG" "socket:$port" \
        </dev/null >"$TMP/shell.out" 2>&1 &
    BPID=$!
    for _ in $(seq 100); do
        kill -0 $BPID 2>/dev/null || break
        if exec 3<>"/dev/tcp/127.0.0.1/$port"; then connected=1; break; fi
        sleep 0.1
    done 2>/dev/null
    [ -n "$connected" ] && break
    kill $BPID 2>/dev/null; wait $BPID 2>/dev/null; BPID=
done
if [ -z "$connected" ]; then
    fail "$T.shell_prompt (Bochs never listened on its COM1 socket)"
    sed 's/^/    | /' "$TMP/shell.out" | tail -n 5
    exit 0
fi
cat <&3 > "$CONSOLE_LOG" &
CONSOLE_PID=$BPID
START=$SECONDS
if console_wait 1 60; then pass "$T.shell_prompt (after $((SECONDS - START)) s)"
else fail "$T.shell_prompt (no shell prompt within 60 s)"; show_tail "$CONSOLE_LOG" 20; fi
console_type 1 'echo bochs was here > /root/bochs.txt'
console_type 2 'ls /bin | wc -l > /root/bochs-bin.txt'
console_type 3 'poweroff'
wait $BPID
rc=$?
BPID=
exec 3>&-

got=$(debugfs -R 'cat /root/bochs.txt' "$IMG" 2>/dev/null)
if [ "$got" = "bochs was here" ]; then pass "$T.shell_file"
else fail "$T.shell_file (/root/bochs.txt holds '$got')"; show_tail "$CONSOLE_LOG" 10; fi
want=$(ls "$BUILD/rootfs/bin" | wc -l)
got=$(debugfs -R 'cat /root/bochs-bin.txt' "$IMG" 2>/dev/null | tr -d ' ')
if [ "$got" = "$want" ]; then pass "$T.shell_ls"
else fail "$T.shell_ls (ls /bin | wc -l gave '$got', the image has $want)"; fi
if [ $rc = 0 ] && tr -d '\r' < "$CONSOLE_LOG" | grep -q 'power off: root (hda) synced and read-only'; then
    pass "$T.shell_power_off"
else
    fail "$T.shell_power_off (tools/bochs.sh exit $rc)"
    grep -v '^ *$' "$TMP/shell.out" | tail -n 3 | sed 's/^/    | /'; show_tail "$CONSOLE_LOG" 10
fi
if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.shell_fsck"
else fail "$T.shell_fsck"; show_tail "$TMP/fsck.log"; fi
if tr -d '\r' < "$CONSOLE_LOG" | grep -qx 'smp: Brought up 1 node, 2 CPUs'; then pass "$T.shell_two_cpus"
else fail "$T.shell_two_cpus (BOCHS_CPUS=2: $(tr -d '\r' < "$CONSOLE_LOG" | grep '^smp: ' | tail -1))"; fi

# make bochs and make qemu-nox name the same disk image (make -n: print only).
disk_of() { make -n --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 "$1" 2>/dev/null; }
qd=$(disk_of qemu-nox | grep -o 'file=[^,]*rootfs-run.img' | head -1 | sed 's/^file=//')
bd=$(disk_of bochs | grep -o 'tools/bochs.sh [^ ]* [^ ]*' | head -1 | awk '{print $3}')
if [ -n "$qd" ] && [ "$qd" = "$bd" ]; then pass "$T.same_disk ($bd)"
else fail "$T.same_disk (make qemu-nox boots '$qd', make bochs '$bd')"; fi
# make bochs: one CPU, unless CPUS is given
c1=$(disk_of bochs | grep -o 'BOCHS_CPUS=[0-9]*' | head -1)
c4=$(make -n --no-print-directory BUILD="$BUILD" VELLUM_SETUP_DONE=1 bochs CPUS=4 2>/dev/null |
     grep -o 'BOCHS_CPUS=[0-9]*' | head -1)
if [ "$c1" = BOCHS_CPUS=1 ] && [ "$c4" = BOCHS_CPUS=4 ]; then pass "$T.cpus"
else fail "$T.cpus (make bochs: '$c1', make bochs CPUS=4: '$c4')"; fi

# ---- 3. the term display, from a terminal
cp "$BUILD/images/rootfs.img" "$IMG"
serial=$TMP/term-serial.log
: > "$serial"
mkfifo "$TMP/keys"
TERM=xterm timeout -k 5 "$(backstop 60)" script -qfec \
    "tools/bochs.sh '$ISO' '$IMG' 'file:$serial'" "$TMP/typescript" <"$TMP/keys" >/dev/null 2>&1 &
BPID=$!
exec 5>"$TMP/keys"
CONSOLE_LOG=$serial CONSOLE_PID=$BPID
typed=
if console_wait 1 40; then
    # The first key Bochs's term display passes on can be lost while the
    # guest's keyboard is still settling (seen under load: 'cho typed...'):
    # press Enter until an empty command answers with a new prompt, then type.
    for i in 1 2 3 4 5; do
        printf '\r' >&5
        console_wait 2 4 && break
    done
    printf 'echo typed on the term display > /root/term.txt\r' >&5; typed=1
    console_wait 3 20 && printf 'poweroff\r' >&5
fi
wait $BPID
rc=$?
BPID=
exec 5>&-
got=$(debugfs -R 'cat /root/term.txt' "$IMG" 2>/dev/null)
if [ "$got" = "typed on the term display" ] &&
   sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$TMP/typescript" | grep -q 'vellum:/\$'; then
    pass "$T.term_display"
elif [ -z "$typed" ]; then
    fail "$T.term_display (no shell prompt on COM1 within 40 s; exit $rc)"; show_tail "$serial" 10
else
    fail "$T.term_display (/root/term.txt holds '$got'; exit $rc)"; show_tail "$serial" 10
fi
exit 0
