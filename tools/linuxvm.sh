# tools/linuxvm.sh: Debian's Linux 6.1 booted in QEMU beside Vellum, for the
# tools that compare the two (tools/ubench.sh: the benchmark;
# tools/conform.sh: the conformance suite).  Layer: host tooling; bash,
# sourced, never run.
#
#   linux_setup          fetch (once) Debian's linux-image-amd64 and
#                        busybox-static with apt-get download into
#                        $VELLUM_CACHE/linux (default ~/.cache/vellum/linux),
#                        build the initramfs; sets LINUX_KERNEL, LINUX_INITRD
#   linux_qemu LOG TIMEOUT DISK RUN [DISK2]   (LINUX_SMP=N: -smp N, default 1)
#                        boot it under -icount shift=0 with DISK (an ext2
#                        image) as /dev/sda (and DISK2, if given, as
#                        /dev/sdb, for RUN to mount); the initramfs's init mounts
#                        proc, sysfs, devtmpfs, a ramfs on /tmp (Vellum's
#                        /tmp is a ramfs too: the same libfs code in Linux)
#                        and DISK on /mnt, then runs RUN: a command whose
#                        words are joined by commas (no spaces), e.g.
#                        /mnt/ubench,-q,/mnt; then powers off.  Serial
#                        output (the command's stdout) in LOG; QEMU's
#                        status is returned (124 on time-out).
# Needs: TMP (a scratch directory of the caller's), apt-get (the first time),
# dpkg, cpio, objcopy, xz or zstd, qemu-system-x86_64.  Exits 2 on a setup
# failure.  The boot runs in a temporary directory with fixed file names, so
# the guest sees the same bytes every time (tools/ubench.sh compares runs).

LINUXVM_CACHE=${VELLUM_CACHE:-$HOME/.cache/vellum}/linux
LINUXVM_SCRIPT=${BASH_SOURCE[0]}

linux_setup() {
    local vmlinuz
    vmlinuz=$(ls "$LINUXVM_CACHE"/x/boot/vmlinuz-* 2>/dev/null | head -1)
    if [ -z "$vmlinuz" ]; then
        echo "linuxvm: fetching Debian's Linux kernel and busybox-static into $LINUXVM_CACHE (once)"
        mkdir -p "$LINUXVM_CACHE" || exit 2
        local pkg
        pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
        if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
            # a machine whose package lists were never loaded (tools/setup.sh
            # updates them only when it has something to install): load them
            echo "linuxvm: apt-cache knows no linux-image-amd64: apt-get update"
            DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >"$TMP/apt-update.log" 2>&1
            pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
        fi
        if [ -z "$pkg" ]; then
            echo "linuxvm: apt-cache knows no linux-image-amd64 (run apt-get update)"; exit 2
        fi
        (cd "$LINUXVM_CACHE" && rm -f ./*.deb && apt-get download "$pkg" busybox-static:amd64) \
            >"$TMP/apt.log" 2>&1 || { echo "linuxvm: apt-get download failed:"; cat "$TMP/apt.log"; exit 2; }
        rm -rf "$LINUXVM_CACHE/x"
        for d in "$LINUXVM_CACHE"/*.deb; do dpkg -x "$d" "$LINUXVM_CACHE/x" || exit 2; done
        vmlinuz=$(ls "$LINUXVM_CACHE"/x/boot/vmlinuz-* | head -1)
    fi
    LINUX_KERNEL=$vmlinuz
    local ver=${vmlinuz##*/vmlinuz-}
    LINUX_INITRD=$LINUXVM_CACHE/initrd-$ver.cpio
    [ -f "$LINUX_INITRD" ] && [ "$LINUX_INITRD" -nt "$LINUXVM_SCRIPT" ] && return
    linux_build_initrd "$LINUXVM_CACHE/x/lib/modules/$ver" "$LINUX_INITRD"
}

# modinfo_field KO FIELD: a field of a module's .modinfo section (no kmod needed)
modinfo_field() {
    objcopy -O binary --only-section=.modinfo "$1" /dev/stdout 2>/dev/null | tr '\0' '\n' |
        sed -n "s/^$2=//p"
}

# The package ships no modules.dep: resolve ata_piix, sd_mod and ext4 from
# each module's depends= and softdep pre: (an alias such as crypto-crc32c is
# looked up among the modules' alias= lines), deepest first.
linux_build_initrd() {   # linux_build_initrd MODDIR OUT
    local moddir=$1 out=$2 root=$TMP/initrd
    rm -rf "$root"; mkdir -p "$root"/{bin,dev,proc,sys,mnt,mod,tmp}
    cp "$LINUXVM_CACHE/x/bin/busybox" "$root/bin/busybox" || exit 2
    ln -s busybox "$root/bin/sh"
    : > "$TMP/order"
    declare -A seen
    find_ko() {   # module name or alias -> .ko paths
        local n=${1//-/_} f
        f=$(find "$moddir" -name "$n.ko*" -o -name "${1//_/-}.ko*" | head -1)
        if [ -n "$f" ]; then echo "$f"; return; fi
        grep -rlaZ --include='*.ko*' "alias=$1" "$moddir" | tr '\0' '\n'
    }
    add_mod() {   # add_mod NAME: its dependencies first, then itself
        local f d
        for f in $(find_ko "$1"); do
            [ -n "${seen[$f]:-}" ] && continue
            seen[$f]=1
            for d in $(modinfo_field "$f" softdep | sed -n 's/.*pre: *//p') \
                     $(modinfo_field "$f" depends | tr ',' ' '); do
                add_mod "$d"
            done
            echo "$f" >> "$TMP/order"
        done
    }
    for m in ata_piix sd_mod ext4; do add_mod "$m"; done
    local i=0 f b
    while read -r f; do
        b=$(printf '%02d' $i)-$(basename "${f%%.ko*}").ko
        case "$f" in
            *.xz) xz -dc "$f" > "$root/mod/$b" ;;     # busybox insmod reads plain .ko
            *.zst) zstd -dcq "$f" > "$root/mod/$b" ;;
            *) cp "$f" "$root/mod/$b" ;;
        esac
        i=$((i + 1))
    done < "$TMP/order"
    cat > "$root/init" <<'EOF'
#!/bin/sh
# initramfs init for the Linux side of tools/ubench.sh and tools/conform.sh
# (tools/linuxvm.sh): mount, run the command vrun= names (words joined by
# commas), power off.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t ramfs ramfs /tmp
chmod 1777 /tmp
for m in /mod/*.ko; do insmod "$m" 2>/dev/null; done
n=0
while [ ! -b /dev/sda ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
# ext2, or ext3 (a journal: the ext4 driver refuses it as ext2)
if mount -t ext2 /dev/sda /mnt 2>/dev/null || mount -t ext3 /dev/sda /mnt; then
    $(sed -n 's/.*vrun=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
    umount /mnt
else
    echo "linuxvm: error mount /dev/sda failed"
fi
poweroff -f
EOF
    chmod 755 "$root/init"
    (cd "$root" && find . | sort | cpio -o -H newc --quiet) > "$out.tmp" && mv "$out.tmp" "$out" || exit 2
}

linux_qemu() {   # linux_qemu LOG TIMEOUT DISK RUN [DISK2]
    local log=$1 t=$2 second=()
    [ "$3" -ef "$TMP/disk.img" ] || cp "$3" "$TMP/disk.img"
    if [ -n "${5:-}" ]; then
        [ "$5" -ef "$TMP/disk2.img" ] || cp "$5" "$TMP/disk2.img"
        second=(-drive file=disk2.img,format=raw,if=ide,index=1)
    fi
    cp "$LINUX_KERNEL" "$TMP/vmlinuz"; cp "$LINUX_INITRD" "$TMP/initrd.cpio"
    (cd "$TMP" && timeout -k 2 "$t" qemu-system-x86_64 -accel tcg -icount shift=0 -display none \
        -smp "${LINUX_SMP:-1}" -no-reboot -m 256M -nic none -monitor none -serial "file:$log" -kernel vmlinuz \
        -initrd initrd.cpio -append "console=ttyS0 quiet panic=-1 vrun=$4" \
        -drive file=disk.img,format=raw,if=ide,index=0 "${second[@]}" </dev/null >"$log.qemu" 2>&1)
}
