#!/bin/bash
# tools/mkcorrupt.sh: derive deliberately corrupt ext2 images from a good one.
#
#   tools/mkcorrupt.sh OUTDIR VPATTERN
#
# Builds corrupt-base.img (1 KiB blocks, a few files) and five copies, each
# with ONE corruption written by dd at an offset computed from dumpe2fs and
# debugfs output (never a hard-coded guess):
#   corrupt-magic.img   s_magic (superblock byte 56) zeroed
#   corrupt-range.img   /file's i_block[0] = block count + 1000 (past the end)
#   corrupt-sbptr.img   /f2's i_block[0] = s_first_data_block (the superblock)
#   corrupt-dirent.img  /dir's third entry gets rec_len 2000 (runs off its block)
#   corrupt-loop.img    /ind's double-indirect block's first pointer = itself
# fs/ext2/ext2_test.c (suite ext2corrupt) mounts each one.
set -euo pipefail
OUT=$1
VP=$2
export E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null TZ=UTC LC_ALL=C
export PATH=$PATH:/usr/sbin:/sbin        # e2fsprogs: not in a Debian user's PATH
S=$OUT/staging-corrupt
rm -rf "$S"; mkdir -p "$S/dir"
"$VP" file 3000 > "$S/file"
"$VP" f2 1000 > "$S/f2"
"$VP" ind $((300 * 1024)) > "$S/ind"            # > (12+256) KiB: double indirect
for n in alpha beta gamma delta; do "$VP" $n 10 > "$S/dir/$n"; done
find "$S" -type d -exec chmod 755 {} +; find "$S" -type f -exec chmod 644 {} +
find "$S" -exec touch -h -d @1700000000 {} +
BASE=$OUT/corrupt-base.img
rm -f "$BASE"
mke2fs -q -F -t ext2 -T default -m 0 -b 1024 -r 1 -I 128 -O none,filetype \
    -U 5e11d0c0-0000-4000-8000-000000000003 \
    -E hash_seed=5e11d0c0-0000-4000-8000-000000000004,root_owner=0:0 \
    -d "$S" "$BASE" 1M >/dev/null 2>&1
# mke2fs -d copies host ctimes, which touch cannot set: fix them (reproducible bytes)
(cd "$S" && find . -mindepth 1 | sort | sed "s|^\.\(.*\)|sif \"\1\" ctime 1700000000\nsif \"\1\" atime 1700000000|") > "$BASE.cmds"
debugfs -w -f "$BASE.cmds" "$BASE" >/dev/null 2>&1
rm -f "$BASE.cmds"

BS=$(dumpe2fs -h "$BASE" 2>/dev/null | awk -F: '/^Block size/ {print $2+0}')
NBLOCKS=$(dumpe2fs -h "$BASE" 2>/dev/null | awk -F: '/^Block count/ {print $2+0}')
FIRST=$(dumpe2fs -h "$BASE" 2>/dev/null | awk -F: '/^First block/ {print $2+0}')

le32() {   # le32 VALUE: the 4 bytes, little-endian
    local v=$1
    printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $(((v >> 8) & 255)))"
    printf "\\x$(printf %02x $(((v >> 16) & 255)))\\x$(printf %02x $(((v >> 24) & 255)))"
}
poke32() { le32 "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
poke16() { printf "\\x$(printf %02x $(($3 & 255)))\\x$(printf %02x $((($3 >> 8) & 255)))" |
           dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
peek16() { od -An -tu2 -j "$2" -N2 "$1" | tr -d ' '; }
# Byte offset of inode PATH's on-disk inode (debugfs imap: "located at block B, offset 0xO").
inode_off() {
    debugfs -R "imap $2" "$1" 2>/dev/null |
        sed -n 's/.*located at block \([0-9]*\), offset \(0x[0-9a-f]*\).*/\1 \2/p' |
        { read -r b o; echo $((b * BS + o)); }
}
I_BLOCK=40                                      # offset of i_block[] in struct ext2_inode

cp "$BASE" "$OUT/corrupt-magic.img"
poke16 "$OUT/corrupt-magic.img" $((1024 + 56)) 0

cp "$BASE" "$OUT/corrupt-range.img"
poke32 "$OUT/corrupt-range.img" $(( $(inode_off "$BASE" /file) + I_BLOCK )) $((NBLOCKS + 1000))

cp "$BASE" "$OUT/corrupt-sbptr.img"
poke32 "$OUT/corrupt-sbptr.img" $(( $(inode_off "$BASE" /f2) + I_BLOCK )) "$FIRST"

cp "$BASE" "$OUT/corrupt-dirent.img"
DB=$(debugfs -R "bmap /dir 0" "$BASE" 2>/dev/null)
R0=$(peek16 "$BASE" $((DB * BS + 4)))                   # "." entry's rec_len
R1=$(peek16 "$BASE" $((DB * BS + R0 + 4)))              # ".." entry's rec_len
poke16 "$OUT/corrupt-dirent.img" $((DB * BS + R0 + R1 + 4)) 2000

cp "$BASE" "$OUT/corrupt-loop.img"
DIND=$(debugfs -R "stat /ind" "$BASE" 2>/dev/null | sed -n 's/.*(DIND):\([0-9]*\).*/\1/p')
poke32 "$OUT/corrupt-loop.img" $((DIND * BS)) "$DIND"

for f in magic range sbptr dirent loop; do
    cmp -s "$BASE" "$OUT/corrupt-$f.img" && { echo "mkcorrupt: $f unchanged" >&2; exit 1; }
done
exit 0
