#!/bin/sh
# tools/bench.sh KERNEL: how long a boot takes, from starting QEMU to the
# kernel's "ktest: done" (test=cmdline,printk), as host wall-clock time over
# 5 runs.  QEMU runs with -icount shift=0, so the guest executes the same
# instructions at the same virtual times on every run; what varies is how
# fast this host emulates them, which is what this measures.  (A count of
# guest instructions needs the kernel to report its own rdtsc at "done";
# that comes with a later issue.)  Layer: host tooling (`make bench`).
kernel=${1:-build/vellum.elf}
runs=5
log=${TMPDIR:-/tmp}/vellum-bench.$$.log
times=""
i=0
while [ $i -lt $runs ]; do
    t0=$(date +%s%N)
    timeout 30 qemu-system-i386 -accel tcg -icount shift=0 -display none -no-reboot -nic none \
        -monitor none -serial "file:$log" -kernel "$kernel" -append "test=cmdline,printk" \
        -device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null >/dev/null 2>&1
    rc=$?
    t1=$(date +%s%N)
    if [ $rc -ne 1 ] || ! grep -q 'ktest: done' "$log"; then
        echo "bench: boot failed (QEMU status $rc); serial log:"; cat "$log"; rm -f "$log"; exit 1
    fi
    times="$times $(( (t1 - t0) / 1000000 ))"
    i=$((i + 1))
done
rm -f "$log"
echo "$times" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk -v runs=$runs '
    { t[NR] = $1 } END {
    printf "bench: boot to ktest done (QEMU -kernel, tcg, -icount shift=0, test=cmdline,printk)\n"
    printf "bench: wall clock over %d runs: min %d ms, median %d ms, max %d ms\n", runs, t[1], t[int((NR + 1) / 2)], t[NR] }'
