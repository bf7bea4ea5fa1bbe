# tools/tests/gdb.sh: GDB against QEMU's gdb stub, started the way
# `make qemu-gdb` + `make gdb` start it (mk/gdb.mk): the .gdbinit written by
# tools/gdb/mkgdbinit.sh, with `target remote | exec qemu ... -gdb stdio`
# instead of a TCP port (no port, safe to run in parallel), loaded through
# the auto-load safe-path as `make gdb` does.
#  gdb.break_cmdline_parse  stopped in cmdline_parse at kernel/cmdline.c:N
#  gdb.backtrace            bt shows cmdline_parse <- cmdline_init <- kmain with file:line
#  gdb.clean_start          the generated .gdbinit loads symbols before it attaches:
#                           no "auto-load has been declined", no "No executable", no warning
#  gdb.gdbport              GDBPORT=1234 reaches QEMU's -gdb option and .gdbinit; the
#                           default differs between two checkouts and skips a busy port
#  gdb.debug_build          make DEBUG=1 builds -Og kernels in $BUILD/debug: after a
#                           `next` in ext2_write_end the arguments still have values
#                           (page->flags), where the -O2 kernel says <optimized out>
source "$(dirname "$0")/../testlib.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-gdb.XXXXXX") || exit 1
if [ "${KEEP:-}" = 1 ]; then echo "gdb: logs kept in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
unset MAKEFLAGS MFLAGS MAKELEVEL

# gdb_session KERNEL QEMU-ARGS OUT GDB-ARGS...: write $TMP/.gdbinit for
# KERNEL with QEMU on a pipe, run gdb in $TMP as `make gdb` does (-nh: not
# the tester's own ~/.gdbinit), output in OUT.  60 s at most.
gdb_session() {
    local kernel=$1 qargs=$2 out=$3
    shift 3
    sh tools/gdb/mkgdbinit.sh "$kernel" "| exec $QEMU -accel tcg -display none -no-reboot -m 128M -nic none -monitor none -gdb stdio -S -kernel $ROOT/$kernel -device isa-debug-exit,iobase=0xf4,iosize=0x04 $qargs" > "$TMP/.gdbinit"
    (cd "$TMP" && timeout -k 5 60 gdb -q -nh -batch -iex "add-auto-load-safe-path $TMP/.gdbinit" "$@" </dev/null >"$out" 2>&1)
}

# ---- the -O2 production kernel: a breakpoint, a backtrace, a clean start
out=$TMP/cmdline.out
gdb_session "$KERNEL" "-serial null -append test=cmdline" "$out" \
    -ex 'break cmdline_parse' -ex 'continue' -ex 'bt' -ex 'kill'
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
# Everything gdb printed before the breakpoint: the attach, the banner lines
# of .gdbinit, the breakpoint's address.  No warning, no missing executable.
if grep -qiE 'warning|auto-load|No executable|No symbol table' "$out"; then
    fail "gdb.clean_start (gdb complained at start:)"
    grep -iE 'warning|auto-load|No executable|No symbol table' "$out" | head -5 | sed 's/^/    | /'
elif ! grep -q '^Attached to QEMU' "$out"; then
    fail "gdb.clean_start (the .gdbinit did not run: no 'Attached to QEMU')"
    show_tail "$out" 20
else
    pass gdb.clean_start
fi

# ---- GDBPORT: set on the command line, and the default's choice
n=$(make -s -n --no-print-directory VELLUM_SETUP_DONE=1 GDBPORT=1234 BUILD="$BUILD" qemu-gdb 2>&1)
p1=$(bash tools/gdb/gdbport.sh /checkout/one) p2=$(bash tools/gdb/gdbport.sh /checkout/two)
busy_ok=0
# Something listening on the first candidate (a paused QEMU's stub): the next one.
p=$(bash tools/gdb/gdbport.sh "$TMP")
timeout 30 "$QEMU" -display none -monitor none -serial none -nic none -S -gdb "tcp:127.0.0.1:$p" </dev/null >/dev/null 2>&1 &
qpid=$!
for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break
    sleep 0.1
done
q=$(bash tools/gdb/gdbport.sh "$TMP")
kill "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null
[ "$q" = $((p + 1)) ] && busy_ok=1
if echo "$n" | grep -q -- '-gdb tcp:127.0.0.1:1234' && echo "$n" | grep -q 'mkgdbinit.sh .* 127.0.0.1:1234' &&
   [ "$p1" != "$p2" ] && [ "$busy_ok" = 1 ] && [ "$p" -ge 26000 ] && [ "$p" -lt 31000 ]; then
    pass gdb.gdbport
else
    fail "gdb.gdbport (GDBPORT=1234 not in make -n qemu-gdb's QEMU/.gdbinit lines, or default ports $p1 = $p2 for two checkouts, or busy port $p not skipped: got $q)"
    echo "$n" | grep -E 'gdb|tcp' | sed 's/^/    | /'
fi

# ---- make DEBUG=1: -Og kernels in $BUILD/debug
DKERNEL=$BUILD/debug/vellum.elf
if ! make -s --no-print-directory -j2 BUILD="$BUILD" DEBUG=1 "$DKERNEL" >"$TMP/debug-build.log" 2>&1; then
    fail "gdb.debug_build (make DEBUG=1 $DKERNEL failed)"
    show_tail "$TMP/debug-build.log" 20
    exit 0
fi
# A root disk whose /etc/rc writes one known file: the first ext2 write_end.
cp "$BUILD/images/rootfs.img" "$TMP/disk.img"
printf 'echo vellum-gdb-check > /root/gdb.txt\n' > "$TMP/rc"
debugfs -w -R 'rm /etc/rc' "$TMP/disk.img" >/dev/null 2>&1
debugfs -w -R "write $TMP/rc /etc/rc" "$TMP/disk.img" >/dev/null 2>&1
DISKQ="-serial file:$TMP/serial.log -append root=hda -drive file=$TMP/disk.img,format=raw,if=ide,index=0"
for k in "$KERNEL" "$DKERNEL"; do
    gdb_session "$k" "$DISKQ" "$TMP/$(basename "$(dirname "$k")").wend" \
        -ex 'break ext2_write_end' -ex 'continue' -ex 'next' -ex 'next' -ex 'print/x page->flags' -ex 'info args' -ex 'kill'
done
O2=$TMP/$(basename "$BUILD").wend OG=$TMP/debug.wend
if grep -qE '^\$1 = 0x[0-9a-f]+' "$OG" && ! grep -q 'optimized out' "$OG" && grep -q '^len = 17' "$OG" &&
   grep -q 'optimized out' "$O2"; then
    pass gdb.debug_build
else
    fail "gdb.debug_build (DEBUG=1: page->flags and the arguments after next in ext2_write_end should have values, and at -O2 be <optimized out>)"
    show_tail "$OG" 12
    show_tail "$O2" 6
fi
