# tools/tests/bochs.sh: the GRUB test ISO boots under Bochs, headless (rfb
# display that never waits for a viewer, COM1 into a file), the kernel
# reports in and runs its quick tests (boot/grub-test.cfg), then powers the
# machine off (kernel/x86/power.c: ACPI PM1a at 0xB004 on Bochs's PIIX4).
#   bochs.banner          the kernel banner is on COM1
#   bochs.tests_pass      "ktest: done N passed, 0 failed", N > 0
#   bochs.power_off       Bochs ended by the guest's soft power-off, not by a
#                         panic, a triple fault or the timeout
source "$(dirname "$0")/../testlib.sh"
dir=${TMPDIR:-/tmp}
[ -f "$TEST_ISO" ] || make -s BUILD="$BUILD" test-iso >/dev/null
serial=$dir/bochs-serial.log
out=$dir/bochs.out
printf 'continue\nquit\n' > "$dir/bochs.rc"      # no debugger prompt
rm -f "$serial"
VELLUM_ISO=$(realpath "$TEST_ISO") VELLUM_SERIAL=$serial timeout -k 5 60 \
    bochs -f boot/bochsrc -q -rc "$dir/bochs.rc" 'display_library: rfb, options="timeout=0"' \
    </dev/null >"$out" 2>&1
rc=$?
bad=0
if { tr -d "\r" < "$serial"; } 2>/dev/null | grep -q '^Vellum [0-9]'; then pass bochs.banner
else fail "bochs.banner (no 'Vellum N.N' banner on COM1; bochs exit $rc)"; bad=1; fi
if { tr -d "\r" < "$serial"; } 2>/dev/null | grep -qE 'ktest: done [1-9][0-9]* passed, 0 failed'; then pass bochs.tests_pass
else fail "bochs.tests_pass (no 'ktest: done N passed, 0 failed')"; bad=1; fi
if grep -qE 'ACPI control: soft power off|Shutdown port: shutdown requested' "$out"; then pass bochs.power_off
else fail "bochs.power_off (Bochs did not end by a guest power-off; exit $rc)"; bad=1
    echo "    --- Bochs said:"; grep -E '>>PANIC<<|exception|exiting|message' "$out" | tail -n 5 | sed 's/^/    | /'
fi
[ $bad = 0 ] || show_tail "$serial"
exit 0
