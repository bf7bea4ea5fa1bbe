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
