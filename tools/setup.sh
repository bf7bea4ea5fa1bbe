#!/bin/sh
# tools/setup.sh: make sure this machine can build, boot, test and debug
# Vellum; install whatever is missing with apt-get (Debian/Ubuntu).
#
# Layer: host tooling.  `make qemu`, `make check` and friends run it first
# (mk/run.mk), so a fresh machine with only git, make and gcc gets the rest.
# When everything is present it prints nothing and returns at once.
#
#   tool(s) looked for                          Debian package
#   qemu-system-i386                            qemu-system-x86
#   grub-mkrescue, grub-file                    grub-common
#   /usr/lib/grub/i386-pc (BIOS GRUB modules)   grub-pc-bin
#   xorriso                                     xorriso
#   mformat                                     mtools
#   bochs, its BIOS, VGA BIOS, term display     bochs bochsbios vgabios bochs-term
#   mke2fs, e2fsck, debugfs                     e2fsprogs
#   gdb                                         gdb
#   qemu-i386-static (runs our i386 programs    qemu-user-static
#     on a host kernel without IA32 emulation:
#     tools/tests/userland.sh)
#   ld, nm, objcopy                             binutils
#   a 32-bit C toolchain: i386-elf-gcc, i686-linux-gnu-gcc or gcc -m32
#                                               gcc-multilib (only if none works;
#       gcc-multilib and gcc-i686-linux-gnu remove each other, so if either
#       already works we install neither)
set -u
export DEBIAN_FRONTEND=noninteractive
PATH=$PATH:/usr/sbin:/sbin              # e2fsprogs lives in sbin
missing=""                               # Debian packages to install
why=""                                   # what we found missing, for the log

need() {                                 # need PACKAGE WHAT
    case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
    why="$why $2"
}
have() { command -v "$1" >/dev/null 2>&1; }
have_glob() { for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }

have qemu-system-i386 || need qemu-system-x86 qemu-system-i386
have grub-mkrescue    || need grub-common grub-mkrescue
have grub-file        || need grub-common grub-file
[ -d /usr/lib/grub/i386-pc ] || need grub-pc-bin /usr/lib/grub/i386-pc
have xorriso          || need xorriso xorriso
have mformat          || need mtools mformat
have bochs            || need bochs bochs
[ -e /usr/share/bochs/BIOS-bochs-latest ] || need bochsbios BIOS-bochs-latest
[ -e /usr/share/vgabios/vgabios.bin ]     || need vgabios vgabios.bin
have_glob /usr/lib/*/bochs/plugins/libbx_term_gui.so* /usr/lib/bochs/plugins/libbx_term* ||
    need bochs-term bochs-term-plugin
have mke2fs           || need e2fsprogs mke2fs
have e2fsck           || need e2fsprogs e2fsck
have debugfs          || need e2fsprogs debugfs
have gdb              || need gdb gdb
have qemu-i386-static || need qemu-user-static qemu-i386-static
have ld               || need binutils ld
have nm               || need binutils nm
have objcopy          || need binutils objcopy
have cpio             || need cpio "cpio (the Linux initramfs of make bench-linux)"

# A 32-bit C toolchain works when it compiles a file that needs libgcc
# (64-bit division) and links it, as the Makefile does, against the libgcc
# the compiler names.
cc_works() {                             # cc_works "CC FLAGS" LD
    have "${1%% *}" || return 1
    tmp=${TMPDIR:-/tmp}/vellum-setup.$$
    mkdir -p "$tmp" || return 1
    printf 'unsigned long long _start(unsigned long long a, unsigned long long b)\n{ return a / b; }\n' > "$tmp/t.c"
    ok=1
    lib=$($1 -print-libgcc-file-name 2>/dev/null) &&
        [ -f "$lib" ] &&
        $1 -ffreestanding -fno-pie -c "$tmp/t.c" -o "$tmp/t.o" 2>/dev/null &&
        $2 -m elf_i386 -o "$tmp/t" "$tmp/t.o" "$lib" 2>/dev/null && ok=0
    rm -rf "$tmp"
    return $ok
}
if ! cc_works i386-elf-gcc i386-elf-ld &&
   ! cc_works i686-linux-gnu-gcc i686-linux-gnu-ld &&
   ! cc_works "gcc -m32" ld; then
    need gcc-multilib "gcc -m32 (libgcc for i386)"
fi

[ -z "$missing" ] && exit 0

if ! have apt-get; then
    echo "setup: no apt-get here; install the equivalents of:$missing" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif have sudo; then
    SUDO="sudo"
else
    echo "setup: not root and no sudo; run as root: apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi
echo "setup: missing:$why"
echo "setup: installing:$missing"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null &&
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    $missing </dev/null || {
    echo "setup: apt-get failed; run: apt-get install -y --no-install-recommends$missing" >&2
    exit 1
}
echo "setup: done"
