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
#   its GTK/SDL window, if $DISPLAY is set      qemu-system-gui
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
#   cpio (the Linux initramfs: make             cpio
#     bench-linux, tools/tests/ext3linux.sh)
#   zip, unzip (make gradescope, its test)      zip, unzip
#   hexdump (the userland test's reference)     bsdextrautils
#   python3, its yaml module (host tests)       python3, python3-yaml
#   a 32-bit C toolchain: i386-elf-gcc, i686-elf-gcc, i686-linux-gnu-gcc
#     or gcc -m32                               gcc-multilib (only if none works;
#       gcc-multilib and gcc-i686-linux-gnu remove each other, so if either
#       already works we install neither)
#
# A host without apt-get (macOS with Homebrew, another Linux;
# docs/any-laptop.md) installs by hand.  There the tools `make`, `make qemu`
# and `make gdb` need (marked "core" below: the compiler, QEMU, e2fsprogs,
# GRUB's grub-mkrescue or Homebrew's i686-elf-grub-mkrescue, xorriso, gdb)
# must all be found, or setup stops, naming them; the others (Bochs,
# qemu-user-static, mtools, ...: `make check`, `make bochs`) are named on
# one line and setup lets make go on.
set -u
export DEBIAN_FRONTEND=noninteractive
PATH=$PATH:/usr/sbin:/sbin              # e2fsprogs lives in sbin
missing=""                               # Debian packages to install
why=""                                   # what we found missing, for the log
core=""                                  # what of it make and make qemu need

need() {                                 # need PACKAGE WHAT [core]
    case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac
    why="$why $2"
    [ "${3:-}" = core ] && core="$core $2"
}
have() { command -v "$1" >/dev/null 2>&1; }
have_glob() { for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }
have apt-get && apt=1 || apt=0

have qemu-system-i386 || need qemu-system-x86 qemu-system-i386 core
# The window of `make qemu` (when $DISPLAY is set: a desktop, WSLg on
# Windows) is QEMU's GTK or SDL display, Debian's qemu-system-gui: only a
# Recommends of qemu-system-x86, which --no-install-recommends leaves out
# (QEMU then serves the screen on VNC instead).
if [ $apt = 1 ] && [ -n "${DISPLAY:-}" ] &&
   ! { have qemu-system-i386 && qemu-system-i386 -display help 2>/dev/null | grep -qx -e gtk -e sdl; }; then
    need qemu-system-gui "a QEMU window (DISPLAY is set)"
fi
if [ $apt = 0 ] && have i686-elf-grub-mkrescue; then
    :                                    # Homebrew's i686-elf-grub: its own modules
else
    have grub-mkrescue || need grub-common grub-mkrescue core
    [ -d /usr/lib/grub/i386-pc ] || need grub-pc-bin /usr/lib/grub/i386-pc core
fi
have grub-file        || have i686-elf-grub-file || need grub-common grub-file
have xorriso          || need xorriso xorriso core
have mformat          || need mtools mformat
have bochs            || need bochs bochs
[ -e /usr/share/bochs/BIOS-bochs-latest ] || need bochsbios BIOS-bochs-latest
[ -e /usr/share/vgabios/vgabios.bin ]     || need vgabios vgabios.bin
have_glob /usr/lib/*/bochs/plugins/libbx_term_gui.so* /usr/lib/bochs/plugins/libbx_term* ||
    need bochs-term bochs-term-plugin
have mke2fs           || need e2fsprogs mke2fs core
have e2fsck           || need e2fsprogs e2fsck core
have debugfs          || need e2fsprogs debugfs core
have gdb              || need gdb gdb core
have qemu-i386-static || need qemu-user-static qemu-i386-static
have ld               || need binutils ld
have nm               || need binutils nm
have objcopy          || need binutils objcopy
have cpio             || need cpio "cpio (the Linux initramfs of make bench-linux and the ext3linux test)"
have zip              || need zip "zip (the bundle of make gradescope)"
have unzip            || need unzip "unzip (the gradescope test opens that bundle)"
# What some host tests compare with or read results through; a fresh
# Debian (minbase, a container) has none of them.
have hexdump          || need bsdextrautils "hexdump (the userland test compares ours with it)"
have python3          || need python3 "python3 (the mmap, labs, mklab and gradescope tests)"
if [ $apt = 1 ] && [ ! -e /usr/lib/python3/dist-packages/yaml/__init__.py ]; then
    need python3-yaml "python3-yaml (the gradescope test's workflow check)"
fi

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
   ! cc_works i686-elf-gcc i686-elf-ld &&
   ! cc_works i686-linux-gnu-gcc i686-linux-gnu-ld &&
   ! cc_works "gcc -m32" ld; then
    need gcc-multilib "gcc -m32 (libgcc for i386)"
    core="$core i686-elf-gcc"
fi

[ -z "$missing" ] && exit 0

if [ $apt = 0 ]; then
    if [ -n "$core" ]; then
        echo "setup: no apt-get here, and make needs:$core; install them and put them in PATH (docs/any-laptop.md), or use the container (tools/container/Dockerfile)" >&2
        exit 1
    fi
    echo "setup: no apt-get here; make and make qemu have what they need, make check and make bochs also need:$why (docs/any-laptop.md)" >&2
    exit 0
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
