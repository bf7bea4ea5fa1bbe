# tools/tests/gdb.sh: scripted gdb against QEMU's gdb stub stops at a
# breakpoint in a named kernel function and shows a backtrace with source
# file:line.  Uses `target remote | exec qemu ... -gdb stdio` (no TCP port,
# safe to run in parallel), as documented in docs/getting-started.md.
#  gdb.break_cmdline_parse  stopped in cmdline_parse at kernel/cmdline.c:N
#  gdb.backtrace            bt shows cmdline_parse <- cmdline_init <- kmain with file:line
source "$(dirname "$0")/../testlib.sh"
out=${TMPDIR:-/tmp}/gdb.out
timeout -k 5 60 gdb -nx -batch \
    -ex "target remote | exec $QEMU -accel tcg -display none -no-reboot -nic none -serial null -monitor none -gdb stdio -S -kernel $KERNEL -append 'test=cmdline' -device isa-debug-exit,iobase=0xf4,iosize=0x04" \
    -ex 'break cmdline_parse' -ex 'continue' -ex 'bt' -ex 'info source' -ex 'kill' \
    "$KERNEL" </dev/null >"$out" 2>&1
rc=$?
if grep -qE '^Breakpoint 1, cmdline_parse \(.*\) at kernel/cmdline\.c:[0-9]+' "$out"; then
    pass gdb.break_cmdline_parse
else
    fail "gdb.break_cmdline_parse (gdb status $rc; no 'Breakpoint 1, cmdline_parse (...) at kernel/cmdline.c:N')"
    show_tail "$out" 20
fi
# Frame #0 in cmdline_parse, and a caller frame in kmain, both with file:line.
if grep -qE '^#0 +cmdline_parse \(.*\) at kernel/cmdline\.c:[0-9]+' "$out" &&
   grep -qE '^#[1-9] .*(cmdline_init|kmain) \(.*\) at kernel/(cmdline|main)\.c:[0-9]+' "$out"; then
    pass gdb.backtrace
else
    fail "gdb.backtrace (no '#0 cmdline_parse ... at kernel/cmdline.c:N' and caller frame)"
    show_tail "$out" 20
fi
