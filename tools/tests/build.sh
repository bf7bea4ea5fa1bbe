# tools/tests/build.sh: the build's products are what GRUB needs.
#  build.multiboot  grub-file accepts build/vellum.elf as Multiboot v1
#  build.iso_boots  the GRUB test ISO (boot/grub-test.cfg) boots in QEMU from
#                   CD and its kernel tests reach "ktest: done ... 0 failed"
source "$(dirname "$0")/../testlib.sh"
[ -f "$TEST_ISO" ] || make -s BUILD="$BUILD" test-iso >/dev/null

if grub-file --is-x86-multiboot "$KERNEL"; then
    pass build.multiboot
else
    fail "build.multiboot (grub-file --is-x86-multiboot $KERNEL says no)"
fi

log=${TMPDIR:-/tmp}/iso-serial.log
vellum_qemu "$log" 30 -cdrom "$TEST_ISO" -boot d
rc=$?
if tr -d '\r' < "$log" | grep -q 'ktest: done [0-9]* passed, 0 failed' && [ $rc -eq 1 ]; then
    pass build.iso_boots
else
    fail "build.iso_boots (GRUB ISO boot: $(qemu_status_text $rc), 'ktest: done N passed, 0 failed' expected)"
    show_tail "$log"
fi

# ---- build/vellum.iso as a new user boots it: qemu-system-i386 -cdrom with
# the root disk as the first IDE disk (-cdrom is the secondary channel's
# master, which the kernel leaves alone).  GRUB's first entry (root=hda)
# reaches the shell; the test types at its prompt on COM1 (FIFOs) and
# checks the disk.
#  build.iso_shell_prompt    the shell's prompt came
#  build.iso_shell_file      a file written at the prompt is on the disk
#                            (debugfs), with the contents typed
#  build.iso_power_off       `poweroff` there synced the root and QEMU exited 0
#  build.iso_test_entry      the menu's test entry: its command line, booted
#                            with the root disk attached, runs its suites
#                            (N passed, 0 failed, N >= 100) and leaves the
#                            disk byte for byte as it was
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-iso.XXXXXX") || exit 1
QPID=
trap '[ -n "$QPID" ] && kill $QPID 2>/dev/null; exec 3>&- 2>/dev/null; rm -rf "$TMP"' EXIT
[ -f "$ISO" ] && [ -f "$BUILD/images/rootfs.img" ] || make -s BUILD="$BUILD" all >/dev/null
IMG=$TMP/root.img
cp "$BUILD/images/rootfs.img" "$IMG"
console_open "$TMP/console.log"
timeout -k 2 "$(backstop 60)" "$QEMU" -accel tcg -display none -no-reboot -m 128M -nic none -monitor none \
    -serial "$CONSOLE_SERIAL" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
    -cdrom "$ISO" -boot d -drive "file=$IMG,format=raw,if=ide,index=0" </dev/null >"$TMP/qemu.out" 2>&1 &
QPID=$!
CONSOLE_PID=$QPID
# GRUB and the boot run without -icount here: the wait is a backstop
# (40 s idle, scaled by TIMEOUT_FACTOR; a load of 8 took longer than 40 s)
if console_wait 1 "$(backstop 40)"; then pass build.iso_shell_prompt
else fail "build.iso_shell_prompt (no shell prompt within $(backstop 40) s)"; show_tail "$CONSOLE_LOG" 20; fi
console_type 1 'echo iso was here > /root/iso.txt'
console_type 2 'poweroff'
wait $QPID
rc=$?
QPID=
exec 3>&-
got=$(debugfs -R 'cat /root/iso.txt' "$IMG" 2>/dev/null)
if [ "$got" = "iso was here" ]; then pass build.iso_shell_file
else fail "build.iso_shell_file (/root/iso.txt holds '$got')"; fi
if [ $rc = 0 ] && tr -d '\r' < "$CONSOLE_LOG" | grep -q 'power off: root (hda) synced and read-only'; then
    pass build.iso_power_off
else fail "build.iso_power_off (QEMU exit $rc)"; show_tail "$CONSOLE_LOG" 10; fi

cfg=$BUILD/isodir/boot/grub/grub.cfg
line=$(sed -n 's|^ *multiboot /boot/vellum-test.elf ||p' "$cfg")
cp "$BUILD/images/rootfs.img" "$IMG"
vellum_qemu "$TMP/entry.log" 120 -kernel "$TKERNEL" -append "$line" \
    -drive "file=$IMG,format=raw,if=ide,index=0"
rc=$?
n=$(tr -d '\r' < "$TMP/entry.log" | sed -n 's/^ktest: done \([0-9]*\) passed, 0 failed$/\1/p')
if [ "${n:-0}" -ge 100 ] && [ $rc = 1 ] && cmp -s "$IMG" "$BUILD/images/rootfs.img"; then
    pass "build.iso_test_entry ($n passed)"
elif [ -z "$line" ]; then fail "build.iso_test_entry (no test-kernel entry in $cfg)"
elif ! cmp -s "$IMG" "$BUILD/images/rootfs.img"; then fail "build.iso_test_entry (it wrote the root disk)"
else fail "build.iso_test_entry ($(qemu_status_text $rc); '${line:0:60}...')"; show_tail "$TMP/entry.log"; fi
