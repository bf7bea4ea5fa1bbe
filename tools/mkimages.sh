#!/bin/bash
# tools/mkimages.sh: build Vellum's ext2 test images, reproducibly, on the host.
#
#   tools/mkimages.sh OUTDIR VPATTERN
#
# OUTDIR gets staging trees (staging-1k/, staging-4k/, staging-small/) and:
#   ext2-1k.img         rev 1, 1 KiB blocks, filetype, the full staging tree
#   ext2-4k.img         rev 1, 4 KiB blocks, filetype + large_file (the sparse
#                       file reaches past 4 GiB: the triple-indirect boundary)
#   ext2-rev0.img       revision 0 (128-byte inodes, no features), 1 KiB blocks
#   ext2-nofiletype.img rev 1, 1 KiB blocks, no filetype feature
#   ext2-small.img      512 KiB, 1 KiB blocks, 32 inodes, nearly full (ENOSPC)
# Every file's content is the pattern of tools/vpattern.c (byte i of a file
# keyed NAME = vpattern_byte(fnv1a32(NAME), i)); fs/ext2/ext2_test.c knows
# the same list.  Times, UUIDs and hash seeds are fixed, so building twice
# gives the same bytes (checked by `make images-check`).
set -euo pipefail
OUT=$1
VP=$2
UUID=5e11d0c0-0000-4000-8000-000000000001
SEED=5e11d0c0-0000-4000-8000-000000000002
source "$(dirname "$0")/e2fsenv.sh"     # FAKE_TIME, and e2fsprogs reproducible

# pattern file: pfile PATH KEY SIZE
pfile() { "$VP" "$2" "$3" > "$1"; }

# The tree both big images share.  $1 = directory, $2 = block size (for the
# sparse file's layout: data just before and across the triple-indirect boundary).
stage_common() {
    local d=$1 bs=$2
    rm -rf "$d"; mkdir -p "$d"
    mkdir -p "$d/sizes" "$d/big" "$d/sparse" "$d/many" "$d/nested/a/b/c/d" "$d/links" \
             "$d/long_directory_name_to_make_the_symlink_target_longer_than_sixty"
    for n in 0 1 1023 1024 1025 4095 4096 4097; do pfile "$d/sizes/f$n" "f$n" $n; done
    # 12 direct + one indirect block's worth at 4 KiB: (12+1024)*4096 = 4243456
    pfile "$d/big/dind" dind 4300000
    # sparse: holes except three extents, keyed "sp".  P = pointers per block.
    local P=$((bs / 4))
    local D=$(( (12 + P + 5) * bs + 7 ))              # inside the double-indirect range
    local T=$(( (12 + P + P * P) * bs ))              # first byte mapped by triple indirect
    "$VP" -w "$d/sparse/sp" sp 0 100
    "$VP" -w "$d/sparse/sp" sp $D 3000
    "$VP" -w "$d/sparse/sp" sp $((T - 4000)) 8192
    for i in $(seq 0 299); do n=$(printf 'e%03d' $i); pfile "$d/many/$n" "$n" $((i * 3)); done
    pfile "$d/nested/a/b/c/d/deep" deep 5000
    pfile "$d/long_directory_name_to_make_the_symlink_target_longer_than_sixty/target" target 777
    ln -s ../sizes/f1025 "$d/links/fast"
    ln -s ../long_directory_name_to_make_the_symlink_target_longer_than_sixty/target "$d/links/slow"
    ln -s loop2 "$d/links/loop1"
    ln -s loop1 "$d/links/loop2"
    normalise "$d"
}

# Fixed modes and times: mke2fs -d copies them from the staging files.
normalise() {
    find "$1" -type d -exec chmod 755 {} +
    find "$1" -type f -exec chmod 644 {} +
    find "$1" -exec touch -h -d @$FAKE_TIME {} +
}

mkfs() {   # mkfs IMAGE SIZE STAGING extra-mke2fs-args...
    local img=$1 size=$2 dir=$3; shift 3
    rm -f "$img"
    mke2fs -q -F -t ext2 -T default -m 0 -U $UUID -E hash_seed=$SEED,root_owner=0:0 \
        "$@" -d "$dir" "$img" "$size" >/dev/null 2>&1 ||
        { echo "mkimages: mke2fs failed for $img" >&2; exit 1; }
    fix_times "$img" "$dir"
}

# mke2fs -d copies each file's ctime (no host tool can set it) and atime (reading
# the staging tree changes it): overwrite both with the fixed time through
# debugfs, so the image bytes are reproducible.
fix_times() {
    (cd "$2" && find . -mindepth 1 | sort | sed "s|^\.\(.*\)|sif \"\1\" ctime $FAKE_TIME\nsif \"\1\" atime $FAKE_TIME|") \
        > "$1.ctime-cmds"
    debugfs -w -f "$1.ctime-cmds" "$1" >/dev/null 2>&1
    rm -f "$1.ctime-cmds"
}

mkdir -p "$OUT"
stage_common "$OUT/staging-1k" 1024
stage_common "$OUT/staging-4k" 4096
mkfs "$OUT/ext2-1k.img" 16M "$OUT/staging-1k" -b 1024 -r 1 -I 128 -O none,filetype
mkfs "$OUT/ext2-4k.img" 16M "$OUT/staging-4k" -b 4096 -r 1 -I 128 -O none,filetype,large_file
mkfs "$OUT/ext2-rev0.img" 16M "$OUT/staging-1k" -b 1024 -r 0
mkfs "$OUT/ext2-nofiletype.img" 16M "$OUT/staging-1k" -b 1024 -r 1 -I 128 -O none

# Nearly full: 512 blocks, 32 inodes, a filler file using most of the space.
S=$OUT/staging-small
rm -rf "$S"; mkdir -p "$S"
pfile "$S/filler" filler $((400 * 1024))
normalise "$S"
mkfs "$OUT/ext2-small.img" 512K "$S" -b 1024 -r 1 -I 128 -N 32 -O none,filetype
