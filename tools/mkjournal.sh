#!/bin/bash
# tools/mkjournal.sh: build the ext3 test images of the journal layer
# (fs/jbd/, docs/journal.md), reproducibly, on the host.
#
#   tools/mkjournal.sh OUTDIR VPATTERN
#
# Every image is `mke2fs -t ext3` with a few pattern files (tools/vpattern.c):
#   /a (4 blocks, key "a"), /b (2 blocks, "b"), /e (1 block, "e").  The
# transactions are written into the journal by debugfs (journal_open,
# journal_write, journal_close), which leaves needs_recovery set:
#   T1  a[0] a[1] a[2]     <- data "t1" (3 blocks)
#   T2  a[1] b[0]          <- data "t2" (2 blocks): a[1] logged twice, T2 wins
#   T3  revoke a[2] a[3]   (T1's copy of a[2] must not be replayed)
#   T4  a[3] e[0]          <- data "t4" (2 blocks), whose second block starts
#                             with the JBD magic: logged escaped; a[3] was
#                             revoked in T3, but T4 is later, so it is replayed
#   T5  b[1]               <- data "t5", NO commit block: never replayed
# (a[i] is the i-th block of /a.)  After a correct recovery:
#   /a = t1[0] t2[0] a[2] t4[0]   /b = t2[1] b[1]   /e = t4[1]
# written as OUTDIR/jbd-BS.expect-{a,b,e} (BS = 1k, 4k).
#
# OUTDIR gets:
#   jbd-1k.img, jbd-4k.img   the transactions above (1 KiB / 4 KiB blocks)
#   jbd-wrap.img             jbd-1k.img's log moved round the circle: it starts
#                            7 blocks before the journal's end and wraps to
#                            s_first inside T2, between its two logged blocks
#                            (debugfs always starts a log at s_first;
#                            a log holds no journal block numbers, so moving
#                            it whole keeps it valid)
#   jbd-wipe.img             4 KiB, the same log but needs_recovery cleared: the
#                            mount must ignore the log (Linux's journal_wipe)
#   ext3-1k.img              a clean ext3 (empty journal), 1 KiB blocks
#   jbd-badmagic.img         jbd-1k.img with the journal superblock's magic zeroed
#   jbd-first.img            jbd-1k.img with s_first = s_maxlen
#   jbd-hole.img             jbd-1k.img with a hole in the journal inode (block 5)
#   jbd-csum.img             jbd-1k.img with the journal's incompat features
#                            REVOKE|CSUM_V3 (checksums v3: refused)
#   jbd-loop.img             jbd-1k.img with every log block an empty revoke
#                            block of transaction 1: a log without end
#   jbd-errno.img            ext3-1k.img with s_errno -5 (-EIO) in the journal
#                            superblock: an error a previous mount recorded
#   jcommit-1k.img, jcommit-4k.img   the write side's (fs/jbd/transaction_test.c):
#                            a fresh ext3 whose journal has 1024 blocks (the
#                            smallest: the log fills and wraps), /a (4 blocks,
#                            key "a") and /big (200 blocks, key "big")
# Offsets come from debugfs/dumpe2fs output, never hard-coded.
set -euo pipefail
OUT=$1
VP=$2
UUID=5e11d0c0-0000-4000-8000-000000000003
SEED=5e11d0c0-0000-4000-8000-000000000004
source "$(dirname "$0")/e2fsenv.sh"     # FAKE_TIME, and e2fsprogs reproducible
mkdir -p "$OUT"
W=$OUT/staging-jbd
rm -rf "$W"; mkdir -p "$W"

# mkext3 IMAGE BS SIZE [JOURNAL-MB]: the three pattern files on a fresh ext3
# (with JOURNAL-MB: a journal of that size, and /a and /big instead)
mkext3() {
    local img=$1 bs=$2 size=$3 s=$W/tree jsize=${4:+-J size=$4}
    rm -rf "$s"; mkdir -p "$s"
    if [ -n "$jsize" ]; then
        "$VP" a $((4 * bs)) > "$s/a"; "$VP" big $((200 * bs)) > "$s/big"
    else
        "$VP" a $((4 * bs)) > "$s/a"; "$VP" b $((2 * bs)) > "$s/b"; "$VP" e $bs > "$s/e"
    fi
    find "$s" -type d -exec chmod 755 {} +; find "$s" -type f -exec chmod 644 {} +
    find "$s" -exec touch -h -d @$FAKE_TIME {} +
    rm -f "$img"
    # -j -O ext_attr -I 256: what Debian's mke2fs.conf makes of -t ext3 (the
    # host's own file is ignored, MKE2FS_CONFIG above)
    mke2fs -q -F -t ext3 -j $jsize -O ext_attr -I 256 -b "$bs" -m 0 -U $UUID -E hash_seed=$SEED,root_owner=0:0 \
        -d "$s" "$img" "$size" >/dev/null 2>&1 ||
        { echo "mkjournal: mke2fs failed for $img" >&2; exit 1; }
    # mke2fs -d copies ctime and atime from the staging files: fix them
    local f
    for f in $(ls "$s"); do
        printf 'sif /%s ctime %s\nsif /%s atime %s\n' $f $FAKE_TIME $f $FAKE_TIME
    done > "$W/cmds"
    debugfs -w -f "$W/cmds" "$img" >/dev/null 2>&1
}

# poke IMAGE OFFSET HEX: write bytes (hex, e.g. c03b3998) at OFFSET
poke() { printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

# blk IMAGE PATH N: the disk block of block N of PATH
blk() { debugfs -R "bmap $2 $3" "$1" 2>/dev/null; }

# journal IMAGE BS: write T1..T5
journal() {
    local img=$1 bs=$2
    local a0 a1 a2 a3 b0 b1 e0
    a0=$(blk "$img" /a 0); a1=$(blk "$img" /a 1); a2=$(blk "$img" /a 2); a3=$(blk "$img" /a 3)
    b0=$(blk "$img" /b 0); b1=$(blk "$img" /b 1); e0=$(blk "$img" /e 0)
    "$VP" t1 $((3 * bs)) > "$W/t1"; "$VP" t2 $((2 * bs)) > "$W/t2"; "$VP" t5 $bs > "$W/t5"
    "$VP" t4 $((2 * bs)) > "$W/t4"
    printf '\xc0\x3b\x39\x98' | dd of="$W/t4" bs=1 seek=$bs conv=notrunc status=none
    {
        echo "jo"
        echo "jw -b $a0,$a1,$a2 $W/t1"
        echo "jw -b $a1,$b0 $W/t2"
        echo "jw -r $a2,$a3"
        echo "jw -b $a3,$e0 $W/t4"
        echo "jw -c -b $b1 $W/t5"
        echo "jc"
    } > "$W/cmds"
    debugfs -w -f "$W/cmds" "$img" >/dev/null 2>&1
    # debugfs stamps each commit block with the real time (h_commit_sec at
    # byte 0x30, h_commit_nsec at 0x38): the fixed time instead
    local jb
    for jb in $(debugfs -R logdump "$img" 2>/dev/null |
                sed -n 's/.*(commit block) at block \([0-9]*\)$/\1/p'); do
        local off=$(( $(blk "$img" "<8>" $jb) * bs ))
        poke "$img" $((off + 0x30)) $(printf '%016x' $FAKE_TIME)
        poke "$img" $((off + 0x38)) 00000000
    done
    dumpe2fs -h "$img" 2>/dev/null | grep -q needs_recovery ||
        { echo "mkjournal: $img does not need recovery" >&2; exit 1; }
}

# expect PREFIX BS: the files a correct recovery of journal() leaves
expect() {
    local p=$1 bs=$2
    { dd if="$W/t1" bs=$bs count=1 status=none; dd if="$W/t2" bs=$bs count=1 status=none
      "$VP" a $((4 * bs)) | dd bs=$bs skip=2 count=1 status=none
      dd if="$W/t4" bs=$bs count=1 status=none; } > "$p.expect-a"
    { dd if="$W/t2" bs=$bs skip=1 count=1 status=none
      "$VP" b $((2 * bs)) | dd bs=$bs skip=1 count=1 status=none; } > "$p.expect-b"
    dd if="$W/t4" bs=$bs skip=1 count=1 status=none > "$p.expect-e"
}

for bs in 1024 4096; do
    k=$((bs / 1024))k
    mkext3 "$OUT/jbd-$k.img" $bs 16M
    journal "$OUT/jbd-$k.img" $bs
    expect "$OUT/jbd-$k" $bs
done

# jblk IMAGE N: byte offset of journal block N (1 KiB blocks)
jblk() { echo $(( $(blk "$1" "<8>" $2) * 1024 )); }
J0=$(jblk "$OUT/jbd-1k.img" 0)
MAXLEN=$((16#$(od -An -tx1 -j $((J0 + 16)) -N4 "$OUT/jbd-1k.img" | tr -d ' \n')))
LOGLEN=$(( $(debugfs -R logdump "$OUT/jbd-1k.img" 2>/dev/null |
              sed -n 's/^No magic number at block \([0-9]*\):.*/\1/p') - 1 ))
WRAP=$((MAXLEN - 7))                     # the log's new first block: T2's two
                                         # logged blocks straddle the wrap
cp "$OUT/jbd-1k.img" "$OUT/jbd-wrap.img"
for i in $(seq 1 $LOGLEN); do           # zero the old log, then write it moved
    dd if=/dev/zero of="$OUT/jbd-wrap.img" bs=1024 count=1 seek=$(( $(jblk "$OUT/jbd-1k.img" $i) / 1024 )) \
        conv=notrunc status=none
done
for i in $(seq 0 $((LOGLEN - 1))); do
    d=$((WRAP + i)); [ $d -ge $MAXLEN ] && d=$((d - MAXLEN + 1))   # s_first is 1
    dd if="$OUT/jbd-1k.img" of="$OUT/jbd-wrap.img" bs=1024 count=1 \
        skip=$(( $(jblk "$OUT/jbd-1k.img" $((1 + i))) / 1024 )) \
        seek=$(( $(jblk "$OUT/jbd-1k.img" $d) / 1024 )) conv=notrunc status=none
done
poke "$OUT/jbd-wrap.img" $((J0 + 0x1c)) $(printf '%08x' $WRAP)
for f in a b e; do cp "$OUT/jbd-1k.expect-$f" "$OUT/jbd-wrap.expect-$f"; done

cp "$OUT/jbd-4k.img" "$OUT/jbd-wipe.img"
debugfs -w -R "feature ^needs_recovery" "$OUT/jbd-wipe.img" >/dev/null 2>&1

mkext3 "$OUT/ext3-1k.img" 1024 16M

# The corrupt journals: J0 (above) is the journal superblock's byte offset.
cp "$OUT/jbd-1k.img" "$OUT/jbd-badmagic.img"
poke "$OUT/jbd-badmagic.img" $J0 00000000
cp "$OUT/jbd-1k.img" "$OUT/jbd-first.img"
poke "$OUT/jbd-first.img" $((J0 + 20)) $(printf '%08x' $MAXLEN)
cp "$OUT/jbd-1k.img" "$OUT/jbd-hole.img"
debugfs -w -R "sif <8> block[5] 0" "$OUT/jbd-hole.img" >/dev/null 2>&1
cp "$OUT/jbd-1k.img" "$OUT/jbd-csum.img"
poke "$OUT/jbd-csum.img" $((J0 + 40)) 00000011
cp "$OUT/jbd-1k.img" "$OUT/jbd-loop.img"
{ printf '\xc0\x3b\x39\x98\x00\x00\x00\x05\x00\x00\x00\x01\x00\x00\x00\x10'
  head -c 1008 /dev/zero; } > "$W/revoke"             # magic, type 5, tid 1, r_count 16
# the journal inode's data extents, "(FIRST-LAST):DISK-..." in debugfs's stat
# (the (IND)/(DIND) entries, its indirect blocks, are left alone)
debugfs -R "stat <8>" "$OUT/jbd-1k.img" 2>/dev/null | sed -n '/^BLOCKS:/{n;p}' | tr ',' '\n' |
    sed -n 's/^ *(\([0-9]*\)-\([0-9]*\)):\([0-9]*\)-[0-9]*$/\1 \2 \3/p' |
while read -r first last disk; do
    for j in $(seq $first $last); do                # every block but block 0 (the superblock)
        [ $j -eq 0 ] && continue
        dd if="$W/revoke" of="$OUT/jbd-loop.img" bs=1024 seek=$((disk + j - first)) \
            conv=notrunc status=none
    done
done
cp "$OUT/ext3-1k.img" "$OUT/jbd-errno.img"
poke "$OUT/jbd-errno.img" $(( $(jblk "$OUT/ext3-1k.img" 0) + 0x20 )) fffffffb

mkext3 "$OUT/jcommit-1k.img" 1024 4M 1      # 1 MiB: 1024 journal blocks
mkext3 "$OUT/jcommit-4k.img" 4096 16M 4
rm -rf "$W"
