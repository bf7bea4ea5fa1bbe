# tools/tests/toolchain.sh: the kernel also builds with another compiler.
# CC=clang (the Makefile adds --target=i686-elf) linked by ld.lld, into its
# own build directory ($BUILD/clang), -Werror clean, still a Multiboot
# kernel, and its test kernel passes the kernel tests.  Skipped (not failed)
# when clang or ld.lld is not installed: tools/setup.sh does not install them.
#   toolchain.clang_build     make CC=clang LD=ld.lld BUILD=$BUILD/clang builds both kernels
#   toolchain.clang_boots     that test kernel passes the disk-less core suites under QEMU
source "$(dirname "$0")/../testlib.sh"
if ! command -v clang >/dev/null || ! command -v ld.lld >/dev/null; then
    skip "toolchain.clang (clang or ld.lld not installed; apt-get install clang lld to run it)"
    exit 0
fi
unset MAKEFLAGS MFLAGS MAKELEVEL
cb=$BUILD/clang
log=${TMPDIR:-/tmp}/clang-build.log
if make -s -j2 BUILD="$cb" CC=clang LD=ld.lld "$cb/vellum.elf" "$cb/vellum-test.elf" >"$log" 2>&1 &&
   grub-file --is-x86-multiboot "$cb/vellum.elf"; then
    pass toolchain.clang_build
else
    fail "toolchain.clang_build (make CC=clang LD=ld.lld BUILD=$cb failed)"
    show_tail "$log" 15
    exit 0
fi
serial=${TMPDIR:-/tmp}/clang-serial.log
CORE_SUITES=cmdline,printk,traps,timer,ksyms,console,page_alloc,paging,kmalloc,fault,sched,wait,mutex,blk
vellum_qemu "$serial" 30 -kernel "$cb/vellum-test.elf" -append "test=$CORE_SUITES"
rc=$?
if [ $rc -eq 1 ] && { tr -d '\r' < "$serial"; } 2>/dev/null | grep -qE 'ktest: done [1-9][0-9]* passed, 0 failed'; then
    pass toolchain.clang_boots
else
    fail "toolchain.clang_boots (core suites on the clang test kernel: $(qemu_status_text $rc))"
    show_tail "$serial"
fi
