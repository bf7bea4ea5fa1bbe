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
# The helper commands of tools/gdb/vellum.py, each checked against what plain
# gdb prints of the same state (print, ptype, x on the ELF) and the host's
# view (readelf of the shell, the serial log), at a known point:
#  gdb.lx_page              in ext2_write_end of /etc/rc's `echo vellum-gdb-check >
#                           /root/gdb.txt`: page->flags decoded by ptype's enum order,
#                           locked by the writer, inode and path, index 0, the bytes
#  gdb.lx_page_after_write_end   after generic_write_end: dirty, unlocked
#  gdb.lx_file_pages        by path and by struct file *: i_size 17, the one page
#  gdb.lx_file_pages_paths  through the ramfs mount on /tmp, a new ext2 directory; errors
#  gdb.lx_ps                pid 0 swapper, pid 1 init, the writer marked running
#  gdb.lx_cpus              (two CPUs, -smp 2) CPU 0 online running the writer,
#                           selected; CPU 1 online, APIC id 1, its idle swapper/1
#  gdb.lx_runqueues         CPUs 0 and 1's run queues, the writer the current of one,
#                           each with its counters (kernel/sched.c runqueues[])
#  gdb.lx_locks             the page lock and i_mutex held by the writer
#  gdb.lx_vmas              the shell's LOAD segments (readelf), its stack
#  gdb.lx_dmesg             log_head bytes, the banner first as on the serial console
#  gdb.lx_extable           every entry as x/2xw reads __ex_table from the ELF, one in
#                           __copy_user; kmain has none
#  gdb.lx_functions         $lx_page_address(page) holds the bytes written, $lx_virt_to_page
#                           goes back; print *file and *inode name /root/gdb.txt
#  gdb.lx_locks_page_waiter  the test kernel's pagecache contention test: held by
#                           "holder", the test's task waiting, in lx-locks/lx-page/lx-ps
#  gdb.lx_locks_mutex_waiter the mutex suite's waiter test: "waiter" waits for m,
#                           held by "holder"
#  gdb.lx_locks_held_stacks  the same, the lock validator's held-lock stacks in lx-locks
# Its first run after a change rebuilds the DEBUG=1 kernels (-Og) and each
# session boots one under -icount: minutes on a loaded machine.
# host-timeout: 300
source "$(dirname "$0")/../testlib.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-gdb.XXXXXX") || exit 1
if [ "${KEEP:-}" = 1 ]; then echo "gdb: logs kept in $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
unset MAKEFLAGS MFLAGS MAKELEVEL

# gdb_session KERNEL QEMU-ARGS OUT GDB-ARGS...: write $TMP/.gdbinit for
# KERNEL with QEMU on a pipe, run gdb in $TMP as `make gdb` does (-nh: not
# the tester's own ~/.gdbinit), output in OUT.  Each session ends itself
# (its last command kills QEMU); the 300 s are a backstop for a breakpoint
# never reached, generous because the host's load sets a session's pace
# (a session took over 60 s under a load of 20 on two cores).
gdb_session() {
    local kernel=$1 qargs=$2 out=$3
    shift 3
    sh tools/gdb/mkgdbinit.sh "$kernel" "| exec $QEMU -accel tcg -display none -no-reboot -m 128M -nic none -monitor none -gdb stdio -S -kernel $ROOT/$kernel -device isa-debug-exit,iobase=0xf4,iosize=0x04 $qargs" > "$TMP/.gdbinit"
    (cd "$TMP" && timeout -k 5 "$(backstop 300)" gdb -q -nh -batch -iex "add-auto-load-safe-path $TMP/.gdbinit" "$@" </dev/null >"$out" 2>&1)
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
timeout "$(backstop 30)" "$QEMU" -display none -monitor none -serial none -nic none -S -gdb "tcp:127.0.0.1:$p" </dev/null >/dev/null 2>&1 &
qpid=$!
for _ in $(seq 50); do                 # until QEMU listens (5 s at most)
    q=$(bash tools/gdb/gdbport.sh "$TMP")
    [ "$q" != "$p" ] && break
    sleep 0.1
done
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
# The root of make qemu is ext3, whose files write through
# ext3_ordered_write_end: the copy drops its journal, plain ext2 again (as
# docs/getting-started.md's session does).
cp "$BUILD/images/rootfs.img" "$TMP/disk.img"
PATH=$PATH:/usr/sbin:/sbin tune2fs -O ^has_journal "$TMP/disk.img" >/dev/null 2>&1
printf 'echo vellum-gdb-check > /root/gdb.txt\necho tmpdata > /tmp/t.txt\nmkdir /root/sub\necho deep > /root/sub/d.txt\n' > "$TMP/rc"
debugfs -w -R 'rm /etc/rc' "$TMP/disk.img" >/dev/null 2>&1
debugfs -w -R "write $TMP/rc /etc/rc" "$TMP/disk.img" >/dev/null 2>&1
DISKQ="-smp 2 -serial file:$TMP/serial.log -append root=hda -drive file=$TMP/disk.img,format=raw,if=ide,index=0"
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

# ---- the helper commands (tools/gdb/vellum.py), on the DEBUG=1 kernel.
# One session stopped in ext2_write_end of /etc/rc's write of /root/gdb.txt
# (shell pid 3, its first write), then after generic_write_end has run.  Each
# command's output is set between "=== NAME" marks; raw values printed with
# plain gdb `print` beside them are what the checks compare against.
H=$TMP/helpers.out
gdb_session "$DKERNEL" "$DISKQ" "$H" \
    -ex 'break ext2_write_end' -ex 'continue' \
    -ex 'echo === raw\n' -ex 'print/x page->flags' -ex 'print page->_count' -ex 'print mapping->host->i_ino' \
    -ex 'print $lx_current()->pid' -ex 'print page - mem_map' -ex 'print log_head' -ex 'print/x page' \
    -ex 'print $lx_current()->mm->map_count' -ex 'print mapping->host->i_mutex.owner == $lx_current()' \
    -ex 'echo === page\n' -ex 'lx-page page' \
    -ex 'echo === pagevirt\n' -ex 'lx-page (char *)0xc0000000 + 4096 * (page - mem_map) + 5' \
    -ex 'echo === ps\n' -ex 'lx-ps' \
    -ex 'echo === cpus\n' -ex 'lx-cpus' \
    -ex 'echo === runqueues\n' -ex 'lx-runqueues' \
    -ex 'echo === locks\n' -ex 'lx-locks' \
    -ex 'echo === vmas\n' -ex 'lx-vmas $lx_current()->pid' \
    -ex 'echo === dmesg\n' -ex 'lx-dmesg' \
    -ex 'echo === extable\n' -ex 'lx-extable' \
    -ex 'echo === extable_kmain\n' -ex 'lx-extable kmain' \
    -ex 'echo === funcs\n' -ex 'print (char *)$lx_page_address(page)' -ex 'print $lx_virt_to_page((char *)$lx_page_address(page) + 100) == page' \
    -ex 'print *file' -ex 'print *mapping->host' \
    -ex 'tbreak generic_write_end' -ex 'continue' -ex 'finish' \
    -ex 'echo === raw2\n' -ex 'print/x page->flags' \
    -ex 'echo === page2\n' -ex 'lx-page page' \
    -ex 'echo === filepages\n' -ex 'lx-file-pages /root/gdb.txt' \
    -ex 'echo === filepages_file\n' -ex 'lx-file-pages file' \
    -ex 'continue' -ex 'echo === paths\n' -ex 'lx-file-pages /tmp/t.txt' -ex 'lx-file-pages /root/sub/d.txt' \
    -ex 'lx-file-pages /root/nope' -ex 'lx-file-pages /proc/meminfo' \
    -ex 'echo === end\n' -ex 'kill'
section() { sed -n "/^=== $1\$/,/^=== /p" "$H" | sed '1d;$d'; }
raw() { section raw | sed -n "s/^\\\$$1 = //p"; }
FLAGS=$(raw 1) COUNT=$(raw 2) INO=$(raw 3) PID=$(raw 4) PFN=$(raw 5) LOGHEAD=$(raw 6) PAGE=$(raw 7)
MAPCOUNT=$(raw 8) IMUTEX_MINE=$(raw 9)
helpers_ok=1
[ -n "$FLAGS" ] && [ -n "$PAGE" ] && grep -q '^=== end$' "$H" || helpers_ok=0
if [ $helpers_ok = 0 ]; then
    fail "gdb.helpers_session (the session did not reach its end)"
    show_tail "$H" 30
fi

# decode FLAGS: the names of its set bits, from enum pageflags as `ptype`
# prints it (gdb reading the ELF, not vellum.py), joined with |
ENUM=$(gdb -nx -batch -ex 'ptype enum pageflags' "$DKERNEL" 2>/dev/null | sed -n 's/.*{\(.*\)}.*/\1/p' | tr -d ' ')
decode() {
    local v=$(($1)) i=0 out= n
    for n in $(echo "$ENUM" | tr , ' '); do
        [ $((v >> i & 1)) = 1 ] && out=$out${out:+|}${n#PG_}
        i=$((i + 1))
    done
    echo "${out:-none}"
}
check() {                              # NAME WHY COMMAND...
    local name=$1 why=$2
    shift 2
    [ $helpers_ok = 1 ] || return
    if "$@"; then pass "$name"; else fail "$name ($why)"; fi
}
has() { section "$1" | grep -qE -- "$2"; }

# lx-page at write_end: the write path holds the page lock (current task),
# the page caches /root/gdb.txt at index 0 and holds the bytes just copied.
want=$(decode "$FLAGS")
page_ok() {
    has page "^page $PAGE: pfn $PFN, phys 0x$(printf %x $((PFN * 4096))), page_address 0x$(printf %x $((0xc0000000 + PFN * 4096)))\$" &&
    has page "^  flags +$FLAGS $(echo "$want" | sed 's/|/\\|/g')\$" && echo "$want" | grep -qw locked &&
    has page "^  _count +$COUNT\$" && has page "^  mapping .*: inode $INO of hda \(ext2\), /root/gdb.txt\$" &&
    has page "^  index +0 " && has page "^  lock +held by sh\[$PID\]\$" && has page "^  waiters +none\$" &&
    has page "^  0000 +76 65 6c 6c 75 6d .*\|vellum-gdb-check\|\$" &&
    [ "$(section page | head -1)" = "$(section pagevirt | head -1)" ]
}
check gdb.lx_page "lx-page page in ext2_write_end: flags $FLAGS should read $want, locked by sh[$PID], inode $INO /root/gdb.txt, index 0, bytes vellum-gdb-check" page_ok
[ $helpers_ok = 1 ] && ! page_ok && section page | sed 's/^/    | /'
# After generic_write_end: dirty, unlocked (Linux's generic_write_end:
# set_page_dirty, unlock_page), and lx-page says so.
FLAGS2=$(section raw2 | sed -n 's/^\$[0-9]* = //p')
want2=$(decode "$FLAGS2")
page2_ok() {
    echo "$want2" | grep -qw dirty && ! echo "$want2" | grep -qw locked &&
    has page2 "^  flags +$FLAGS2 $(echo "$want2" | sed 's/|/\\|/g')\$" && has page2 "^  lock +unlocked\$"
}
check gdb.lx_page_after_write_end "after generic_write_end flags $FLAGS2 ($want2) should be dirty and unlocked, as lx-page shows" page2_ok
[ $helpers_ok = 1 ] && ! page2_ok && section page2 | sed 's/^/    | /'

# lx-file-pages by path and by struct file *: the one page, index 0, dirty
files_ok() {
    for s in filepages filepages_file; do
        has $s "^inode $INO of hda \(ext2\), /root/gdb.txt, i_size 17, nrpages 1\$" &&
        has $s "^ +0 $PAGE $FLAGS2 $(echo "$want2" | sed 's/|/\\|/g') .* - +\|vellum-gdb-chec" || return 1
    done
}
check gdb.lx_file_pages "lx-file-pages /root/gdb.txt and lx-file-pages file: inode $INO, i_size 17, page $PAGE at index 0 with flags $FLAGS2" files_ok
[ $helpers_ok = 1 ] && ! files_ok && section filepages | sed 's/^/    | /'

# $lx_page_address / $lx_virt_to_page (include/mm.h's inlines), the
# struct file / struct inode pretty printers
check gdb.lx_functions "\$lx_page_address(page) should show vellum-gdb-check, \$lx_virt_to_page invert it, print *file / *inode name inode $INO /root/gdb.txt" \
    eval 'has funcs "^\\\$[0-9]+ = 0x$(printf %x $((0xc0000000 + PFN * 4096))) \"vellum-gdb-check\\\\n\"\$" && has funcs "^\\\$[0-9]+ = 1\$" &&
          has funcs "^\\\$[0-9]+ = struct file for inode $INO of hda \(ext2\), /root/gdb.txt = \{f_path = " &&
          has funcs "^\\\$[0-9]+ = struct inode: inode $INO of hda \(ext2\), /root/gdb.txt = \{i_ino = $INO, "'

# Paths through a mount (/tmp is ramfs) and a new ext2 directory, stopped
# in the write_end of /root/sub/d.txt; a missing name; proc (not walkable)
check gdb.lx_file_pages_paths "lx-file-pages /tmp/t.txt (ramfs, tmpdata) and /root/sub/d.txt (locked by sh[$PID], deep); /root/nope missing; /proc not walkable" \
    eval 'has paths "^inode [0-9]+ of none \(ramfs\), /tmp/t.txt, i_size 8, nrpages 1\$" && has paths "^ +0 0x[0-9a-f]+ .* \|tmpdata" &&
          has paths "^inode [0-9]+ of hda \(ext2\), /root/sub/d.txt, i_size 0, nrpages 1\$" && has paths "^ +0 0x[0-9a-f]+ 0x[0-9a-f]+ locked.* sh\[$PID\] +\|deep" &&
          has paths "^/root/nope: no nope in /root\$" && has paths "^/proc/meminfo: cannot read directory /proc here \(a proc directory"'
[ $helpers_ok = 1 ] && ! grep -q '^inode [0-9]* of none (ramfs), /tmp/t.txt' "$H" && section paths | sed 's/^/    | /'

# lx-ps: init is pid 1; the running task (*) is the selected CPU's current task
check gdb.lx_ps "lx-ps: pid 1 init, pid 0 swapper, pid $PID sh marked running" \
    eval 'has ps "^ +1 +0 [RSD] 0x[0-9a-f]+ 0x[0-9a-f]+ +init" && has ps "^ +0 +0 R 0x[0-9a-f]+ - +swapper" &&
          has ps "^ +$PID +1 R 0x[0-9a-f]+ 0x[0-9a-f]+ +sh \*\$"'

# lx-cpus: the CPU that stopped at the breakpoint (the thread GDB selected,
# either CPU: both run tasks, docs/smp.md) runs the writer; both CPUs are
# online, each with its own APIC id
check gdb.lx_cpus "lx-cpus: CPU 0 or 1 running sh[$PID] (selected), CPUs 0 and 1 online with APIC ids 0 and 1" \
    eval 'has cpus "^ +[01] yes +[01] 0x[0-9a-f]+ +$PID sh \*\$" && has cpus "^ +0 yes +0 0x" && has cpus "^ +1 yes +1 0x"'

# lx-runqueues: both CPUs' queues; the writer is the current of the one
# that stopped; each has its counters line
check gdb.lx_runqueues "lx-runqueues: CPUs 0 and 1, one running sh[$PID], with their counters" \
    eval 'has runqueues "^ +[01] 0x[0-9a-f]+ +$PID sh " && has runqueues "^ +0 0x" && has runqueues "^ +1 0x" &&
          [ "$(section runqueues | grep -c "^ *switches [0-9]*, woken here")" = 2 ]'

# lx-locks: the page lock and the inode's i_mutex, both held by the writer
check gdb.lx_locks "lx-locks: page $PAGE and i_mutex of inode $INO held by sh[$PID] (i_mutex.owner == current: $IMUTEX_MINE)" \
    eval '[ "$IMUTEX_MINE" = 1 ] && has locks "^  page $PAGE \(inode $INO of hda \(ext2\), /root/gdb.txt, index 0\): held by sh\[$PID\]; waiters: none\$" &&
          has locks "^  i_mutex of inode $INO of hda \(ext2\), /root/gdb.txt \(0x[0-9a-f]+, .*\): held by sh\[$PID\]; waiters: none\$"'

# lx-vmas: the shell's LOAD segments (readelf on the host), the stack
vmas_ok() {
    [ "$(section vmas | grep -c '^  [0-9a-f]\{8\}-')" = "$MAPCOUNT" ] || return 1
    has vmas "^  [0-9a-f]{8}-c0000000 rw-p .*\[stack\]\$" || return 1
    local va msz fl perm s e
    while read -r va msz fl; do            # readelf's flags: R, R E, RW
        case $fl in R) perm=r--p ;; RE) perm=r-xp ;; RW) perm=rw-p ;; *) perm=$fl ;; esac
        s=$(printf %08x $((va & ~0xfff)))
        if [ "$perm" = rw-p ]; then          # data, bss and the brk heap: one VMA here
            has vmas "^  $s-[0-9a-f]{8} rw-p " || return 1
        else
            e=$(printf %08x $(((va + msz + 0xfff) & ~0xfff)))
            has vmas "^  $s-$e $perm " || return 1
        fi
    done < <(readelf -lW "$BUILD/user/bin/sh" |
             awk '$1 == "LOAD" { fl = ""; for (i = 7; i < NF; i++) fl = fl $i; print $3, $6, fl }')
}
check gdb.lx_vmas "lx-vmas of sh[$PID]: $MAPCOUNT VMAs, the LOAD segments of $BUILD/user/bin/sh, a stack ending at 0xc0000000" vmas_ok
[ $helpers_ok = 1 ] && ! vmas_ok && { section vmas; readelf -lW "$BUILD/user/bin/sh" | grep LOAD; } | sed 's/^/    | /'

# lx-dmesg: log_head bytes, the boot banner first, the root mount, and the
# same banner and mount lines on the serial console
dmesg_ok() {
    [ "$(section dmesg | wc -c)" = "$LOGHEAD" ] || [ "$(section dmesg | wc -c)" = $((LOGHEAD + 1)) ] || return 1
    [ "$(section dmesg | head -1)" = "$(tr -d '\r' < "$TMP/serial.log" | head -1)" ] || return 1
    section dmesg | head -1 | grep -q '^Vellum ' && has dmesg '^VFS: Mounted root \(ext2 filesystem\) on device hda\.$' &&
    tr -d '\r' < "$TMP/serial.log" | grep -q '^VFS: Mounted root (ext2 filesystem) on device hda\.$'
}
check gdb.lx_dmesg "lx-dmesg: $LOGHEAD bytes (log_head), the banner 'Vellum ...' first as on the serial console, the root mount line" dmesg_ok
[ $helpers_ok = 1 ] && ! dmesg_ok && section dmesg | head -5 | sed 's/^/    | /'

# lx-extable: the whole table as gdb reads it from the ELF (x/2xw from
# __start_ex_table), and the entry of a copy_user instruction found by name
EXT=$(gdb -nx -batch -ex 'print ((char *)&__stop_ex_table - (char *)&__start_ex_table) / 8' \
      -ex 'x/64xw &__start_ex_table' "$DKERNEL" 2>/dev/null)
NENT=$(echo "$EXT" | sed -n 's/^\$1 = //p')
WORDS=$(echo "$EXT" | grep '^0x' | cut -d: -f2 | tr -s ' \t' '\n' | grep . | head -n $((NENT * 2)))
extable_ok() {
    [ -n "$NENT" ] && [ "$NENT" -gt 0 ] && has extable "^$NENT entries\$" || return 1
    [ "$(section extable | grep -c '^0x')" = "$NENT" ] || return 1
    local insn fix found=0
    while read -r insn && read -r fix; do
        has extable "^0x${insn#0x} <[^>]+>  fixup 0x${fix#0x} <" || return 1
        section extable | grep -q "^0x${insn#0x} <__copy_user+" && found=1
    done <<< "$WORDS"
    [ $found = 1 ] && has extable_kmain '^0x[0-9a-f]+ <kmain>: no exception-table entry'
}
check gdb.lx_extable "lx-extable: $NENT entries as in the ELF's __ex_table, one in __copy_user; kmain has none" extable_ok
[ $helpers_ok = 1 ] && ! extable_ok && section extable | head -5 | sed 's/^/    | /'

# ---- waiters, on the (-O2) test kernel's own contention tests.
# pagecache.lock_page_contention_sleeps_and_wakes: the kthread "holder" locks
# a page and sleeps; the test's task then sleeps in lock_page.  Stopped in
# the holder's unlock_page of that page: held by holder, the test task waits.
W=$TMP/pagewait.out
gdb_session "$TKERNEL" "-serial null -append test=pagecache.lock_page_contention_sleeps_and_wakes" "$W" \
    -ex 'break ktest_pagecache_lock_page_contention_sleeps_and_wakes' -ex 'continue' \
    -ex 'print current_task->pid' -ex 'print current_task->comm' \
    -ex 'break unlock_page if page == lock_test_page' -ex 'continue' \
    -ex 'print current_task->pid' -ex 'print current_task->comm' -ex 'print/x lock_test_page' \
    -ex 'echo === locks\n' -ex 'lx-locks' -ex 'echo === page\n' -ex 'lx-page lock_test_page 0' \
    -ex 'echo === ps\n' -ex 'lx-ps' -ex 'echo === end\n' -ex 'kill'
H=$W helpers_ok=1
grep -q '^=== end$' "$H" || { helpers_ok=0; fail "gdb.lx_locks_page_waiter (the session did not reach its end)"; show_tail "$H" 20; }
v() { sed -n "s/^\\\$$1 = //p" "$H" | tr -d '"' | sed 's/\\000//g'; }
TPID=$(v 1) TCOMM=$(v 2) HPID=$(v 3) HCOMM=$(v 4) LPAGE=$(v 5)
check gdb.lx_locks_page_waiter "page $LPAGE held by $HCOMM[$HPID] (the holder kthread), $TCOMM[$TPID] waiting: in lx-locks, lx-page and lx-ps" \
    eval '[ "$HCOMM" = holder ] && [ -n "$TPID" ] && [ "$TPID" != "$HPID" ] &&
          has locks "^  page $LPAGE \(not in the page cache\): held by holder\[$HPID\]; waiters: $TCOMM\[$TPID\]\$" &&
          has locks "^  $TCOMM\[$TPID\] D: lock of page $LPAGE, held by holder\[$HPID\]\$" &&
          has page "^  lock +held by holder\[$HPID\]\$" && has page "^  waiters +$TCOMM\[$TPID\]\$" &&
          has ps "^ +$TPID +[0-9]+ D .* $TCOMM +\(waits for page $LPAGE\)\$" && has ps "^ +$HPID +[0-9]+ R .* holder \*\$"'

# mutex.waiter_sleeps_until_unlock: "holder" holds the test's mutex m,
# "waiter" sleeps in mutex_lock(&m); the test then calls show_task(waiter).
W=$TMP/mutexwait.out
gdb_session "$TKERNEL" "-serial null -append test=mutex.waiter_sleeps_until_unlock" "$W" \
    -ex 'break ktest_mutex_waiter_sleeps_until_unlock' -ex 'continue' -ex 'break show_task' -ex 'continue' \
    -ex 'print t->pid' -ex 'print t->comm' -ex 'print/x t->waiting_on' \
    -ex 'echo === locks\n' -ex 'lx-locks' -ex 'echo === ps\n' -ex 'lx-ps' -ex 'echo === end\n' -ex 'kill'
H=$W helpers_ok=1
grep -q '^=== end$' "$H" || { helpers_ok=0; fail "gdb.lx_locks_mutex_waiter (the session did not reach its end)"; show_tail "$H" 20; }
WPID=$(v 1) WCOMM=$(v 2) MUTEX=$(v 3)
MHOLDER=$(section ps | awk '$NF == "holder" || $(NF) == "holder" {print $1}' | head -1)
check gdb.lx_locks_mutex_waiter "mutex $MUTEX (\"m\") held by holder[$MHOLDER], $WCOMM[$WPID] waiting: in lx-locks and lx-ps" \
    eval '[ "$WCOMM" = waiter ] && [ -n "$MHOLDER" ] &&
          has locks "^  mutex waited on by waiter\[$WPID\] \($MUTEX, \"m\"\): held by holder\[$MHOLDER\]; waiters: waiter\[$WPID\]\$" &&
          has locks "^  waiter\[$WPID\] D: mutex $MUTEX \"m\", held by holder\[$MHOLDER\]\$" &&
          has ps "^ +$WPID +[0-9]+ D .* waiter +\(waits on mutex $MUTEX\)\$"'
# The lock validator's stacks (the test kernel has CONFIG_LOCKDEP): the
# holder holds m, the waiter's entry was pushed before it slept.
check gdb.lx_locks_held_stacks "lx-locks shows holder[$MHOLDER] #0: m {mutex} and waiter[$WPID] #0: m, waiting for it" \
    eval 'has locks "^held locks \(validator on; [0-9]+ classes, [0-9]+ dependencies, 0 reports\):\$" &&
          has locks "^  holder\[$MHOLDER\] #0: m \{mutex\} $MUTEX, at 0x[0-9a-f]+ [a-z_]+\+[0-9]+\$" &&
          has locks "^  waiter\[$WPID\] #0: m \{mutex\} $MUTEX, at 0x[0-9a-f]+ [a-z_]+\+[0-9]+ \(waiting for it\)\$"'
