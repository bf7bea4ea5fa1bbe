#!/bin/bash
# tools/tests/ext2fuzz.sh: the corrupt-image fuzzer (host test; docs/systests.md).
# tools/ext2fuzz.c (built here with the host compiler) mutates two good ext2
# images, 1 KiB and 4 KiB blocks, made here with mke2fs -d from a tree that
# has every kind of metadata (a file with a double-indirect block at 1 KiB,
# a sparse file, a directory of several blocks, nested directories, fast and
# slow symlinks, a hard link).  Seed S mutates the 1 KiB image if S is even,
# the 4 KiB one if odd; the same seed always gives the same image.
#
# Each boot of the test kernel (root=hda init=/tests/ext2walk blkslice=4096)
# gets up to PER_BOOT images laid end to end on hdb, which
# kernel/test/blkslice.c slices into hdb1, hdb2, ...: slice 1 is the unmutated
# control image, the others fuzzed ones.  user/tests/ext2walk.c mounts each,
# walks, reads, creates, writes, renames, unlinks and unmounts it.
#
# Verdicts:
#   ext2fuzz.control      the control image of every boot mounted, walked every
#                         entry without an error, every change succeeded, and
#                         after the boot it is e2fsck -fn clean with the file the
#                         walker wrote (/fz.new) exact and /fz.moved in place
#   ext2fuzz.failed_mount_forgotten   each boot ends with an image whose root
#                         inode is a regular file (refused, EINVAL), then the
#                         control image again, which must mount and walk whole
#   ext2fuzz.images       every fuzzed image ended (mounted or refused) with no
#                         oops, panic, BUG, WARNING, hung-task report, walker FAIL
#                         line or hang while it was in progress; a failure names
#                         the seed:   FUZZ_SEED=S FUZZ_IMAGES=1 tools/tests/ext2fuzz.sh
#                         reruns it, and `ext2fuzz BASE OUT S` rebuilds the image
# A boot that dies stops its images at the culprit; the rest go to the next boot.
#
# Environment: FUZZ_SEED (first seed, 1), FUZZ_IMAGES (how many, 150: the short
# campaign of make check; make fuzz runs 1500), PER_BOOT (images per boot, 50),
# FUZZ_SUMMARY=1 (print the outcome classes; make fuzz sets it), KEEP=1.
source "$(dirname "$0")/../testlib.sh"
T=ext2fuzz
SEED0=${FUZZ_SEED:-1}
NIMG=${FUZZ_IMAGES:-150}
PER_BOOT=${PER_BOOT:-50}
SLOT_KB=4096
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-ext2fuzz.XXXXXX") || exit 1
trap '[ "${KEEP:-}" = 1 ] && echo "kept $TMP" || rm -rf "$TMP"' EXIT
export E2FSPROGS_FAKE_TIME=1700000000 MKE2FS_CONFIG=/dev/null TZ=UTC LC_ALL=C

make -s --no-print-directory BUILD="$BUILD" test-kernel user >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
FZ=$TMP/ext2fuzz VP=$TMP/vpattern
{ gcc -O2 -Wall -Werror -o "$FZ" tools/ext2fuzz.c && gcc -O2 -o "$VP" tools/vpattern.c; } \
    2>"$TMP/gcc.log" || { fail "$T.tool_build"; show_tail "$TMP/gcc.log"; exit 0; }

# ---- the two base images
S=$TMP/tree
mkdir -p "$S/dir/sub/deep" "$S/dir/a_directory_with_a_rather_long_name_for_the_slow_link"
"$VP" small 3000 > "$S/small"
: > "$S/empty"
"$VP" mid 20000 > "$S/mid"
"$VP" big $((300 * 1024)) > "$S/big"               # 1 KiB blocks: double indirect
"$VP" -w "$S/hole" hole 200000 100                  # sparse: a hole, then a block
for i in $(seq -w 1 40); do "$VP" "e$i" 10 > "$S/dir/entry_with_a_long_name_$i"; done
"$VP" deep 5000 > "$S/dir/sub/deep/file"
"$VP" far 10 > "$S/dir/a_directory_with_a_rather_long_name_for_the_slow_link/target"
ln "$S/small" "$S/hard"
ln -s small "$S/lnk_fast"
ln -s dir/a_directory_with_a_rather_long_name_for_the_slow_link/target "$S/lnk_slow"
ln -s dir/sub "$S/lnk_dir"
find "$S" -type d -exec chmod 755 {} +; find "$S" -type f -exec chmod 644 {} +
find "$S" -exec touch -h -d @1700000000 {} +
ENTRIES=$(( $(find "$S" -mindepth 1 | wc -l) + 1 ))   # + lost+found
want="END mounted entries=$ENTRIES "                    # a whole, sound image
mkbase() {             # IMAGE BLOCKSIZE SIZE MKE2FS-OPTIONS...
    local img=$1 b=$2 size=$3; shift 3
    rm -f "$img"
    mke2fs -q -F -t ext2 -b "$b" -m 0 -O none,filetype "$@" \
        -U 5e11d0c0-0000-4000-8000-00000000000f -E hash_seed=5e11d0c0-0000-4000-8000-000000000010,root_owner=0:0 \
        -d "$S" "$img" "$size" >"$TMP/mkfs.log" 2>&1 || return 1
    (cd "$S" && find . -mindepth 1 | sort |
        sed "s|^\.\(.*\)|sif \"\1\" ctime 1700000000\nsif \"\1\" atime 1700000000|") > "$img.cmds"
    debugfs -w -f "$img.cmds" "$img" >/dev/null 2>&1
    rm -f "$img.cmds"
    e2fsck -fn "$img" >"$TMP/fsck.log" 2>&1
}
BASE0=$TMP/base1k.img BASE1=$TMP/base4k.img
if ! mkbase "$BASE0" 1024 1M -g 256 -N 128 -I 128 || ! mkbase "$BASE1" 4096 4M -g 256 -N 128 -I 256; then
    fail "$T.base_images"; show_tail "$TMP/mkfs.log"; show_tail "$TMP/fsck.log"; exit 0
fi

# The regression image for a failed mount's leftovers: the root inode is a
# regular file.  Each boot ends with it, then the control image again.
ROOTBAD=$TMP/rootbad.img
cp "$BASE0" "$ROOTBAD"
debugfs -w -R "sif <2> mode 0100755" "$ROOTBAD" >/dev/null 2>&1

# ---- the campaign
R=$TMP/root
mkdir -p "$R/tests" "$R/etc" "$R/dev" "$R/proc" "$R/tmp"
cp "$BUILD/rootfs/tests/ext2walk" "$R/tests/"
QUEUE=()
for ((s = SEED0; s < SEED0 + NIMG; s++)); do QUEUE+=("$s"); done
FAILS=0 CTRL_BAD=0 AFTER_BAD=0 BOOTS=0
declare -A CLASS
: > "$TMP/failures"
# The patterns of trouble in a serial log.
TROUBLE='Oops|Kernel panic|BUG|WARNING:|hung_task: no console|bad page|ext2walk: [0-9]+ FAIL|ext2walk: FAIL'

while [ ${#QUEUE[@]} -gt 0 ]; do
    BOOTS=$((BOOTS + 1))
    batch=("${QUEUE[@]:0:PER_BOOT}")
    QUEUE=("${QUEUE[@]:PER_BOOT}")
    n=$(( ${#batch[@]} + 3 ))              # + the control, the bad root and its sequel
    ctrl=$([ $((BOOTS % 2)) = 1 ] && echo "$BASE0" || echo "$BASE1")
    disk=$TMP/fuzz.img
    rm -f "$disk"
    truncate -s $((n * SLOT_KB))K "$disk"
    dd if="$ctrl" of="$disk" conv=notrunc,sparse status=none
    i=1
    for s in "${batch[@]}"; do
        base=$([ $((s % 2)) = 0 ] && echo "$BASE0" || echo "$BASE1")
        "$FZ" "$base" "$TMP/one.img" "$s" > "$TMP/mut.$s" ||
            { fail "$T.mutate (seed $s)"; exit 0; }
        dd if="$TMP/one.img" of="$disk" bs=1K seek=$((i * SLOT_KB)) conv=notrunc,sparse status=none
        i=$((i + 1))
    done
    dd if="$ROOTBAD" of="$disk" bs=1K seek=$(((n - 2) * SLOT_KB)) conv=notrunc,sparse status=none
    dd if="$ctrl" of="$disk" bs=1K seek=$(((n - 1) * SLOT_KB)) conv=notrunc,sparse status=none
    echo "$n" > "$R/etc/ext2walk"
    rm -f "$TMP/root.img"
    mke2fs -q -t ext2 -b 1024 -d "$R" "$TMP/root.img" 4M >"$TMP/mkfs.log" 2>&1 ||
        { fail "$T.root_image"; show_tail "$TMP/mkfs.log"; exit 0; }
    log=$TMP/boot$BOOTS.log
    vellum_qemu "$log" $((20 + n)) -kernel "$TKERNEL" \
        -append "root=hda init=/tests/ext2walk blkslice=$SLOT_KB hung_task=10" \
        -drive "file=$TMP/root.img,format=raw,if=ide,index=0" \
        -drive "file=$disk,format=raw,if=ide,index=1"
    rc=$?
    # Per slot: its end line and the first trouble line while it was current.
    tr -d '\r' < "$log" | awk -v trouble="$TROUBLE" '
        function slot(   s) { s = substr($0, index($0, "ext2walk: ") + 10); return s + 0 }
        /ext2walk: [0-9]+ start/ { cur = slot(); started[cur] = 1; next }
        /ext2walk: [0-9]+ end / { k = slot(); sub(/.* end /, ""); end[k] = $0 }
        $0 ~ trouble { if (!(cur in bad)) bad[cur] = $0 }
        END {
            for (k = 0; k <= 1000; k++) {
                if (k in bad) print k, "BAD", bad[k]
                else if (k in end) print k, "END", end[k]
                else if (k in started) print k, "HUNG"
            }
        }' > "$TMP/slots"
    # Slot 0: trouble before the first image (boot, root mount).
    if grep -q "^0 BAD" "$TMP/slots"; then
        echo "boot $BOOTS: $(sed -n 's/^0 BAD //p' "$TMP/slots")" >> "$TMP/failures"
        FAILS=$((FAILS + 1))
    fi
    # The control image.
    c=$(sed -n 's/^1 \(.*\)/\1/p' "$TMP/slots")
    if [[ "$c" != "$want"* ]] || [[ "$c" != *" eio=0 errs=0 "*"opsfail=0" ]]; then
        CTRL_BAD=$((CTRL_BAD + 1))
        echo "control image, boot $BOOTS: '${c:-no line}' (want '${want}... eio=0 errs=0 ... opsfail=0')" >> "$TMP/ctrl"
    else
        dd if="$disk" of="$TMP/ctrl.img" bs=1K count=$SLOT_KB status=none
        rm -f "$TMP/got"
        debugfs -R "dump /fz.new $TMP/got" "$TMP/ctrl.img" >/dev/null 2>&1
        awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%c", (i * 7 + 3) % 256 }' > "$TMP/want"
        if ! e2fsck -fn "$TMP/ctrl.img" >"$TMP/cfsck.log" 2>&1; then
            CTRL_BAD=$((CTRL_BAD + 1))
            echo "control image, boot $BOOTS: e2fsck -fn: $(grep -v '^Pass\|^e2fsck\|^$' "$TMP/cfsck.log" | head -3 | tr '\n' ' ')" >> "$TMP/ctrl"
        elif ! cmp -s "$TMP/got" "$TMP/want" ||
             ! debugfs -R "stat /fz.moved" "$TMP/ctrl.img" 2>/dev/null | grep -q "Type: regular"; then
            CTRL_BAD=$((CTRL_BAD + 1))
            echo "control image, boot $BOOTS: /fz.new not the 5000 bytes written, or no /fz.moved" >> "$TMP/ctrl"
        fi
    fi
    # The fuzzed images: slot i + 2 is batch[i].  A boot that died leaves the
    # images after the culprit (or after its end) for the next boot.
    rest=()
    for ((i = 0; i < ${#batch[@]}; i++)); do
        s=${batch[i]} k=$((i + 2))
        line=$(grep "^$k " "$TMP/slots" | cut -d' ' -f2-)
        case $line in
            "")               rest=("${batch[@]:i}"); break ;;   # never started
            END\ refused\ *)  cls="refused ${line#END refused }" ;;
            END\ mounted*eio=0\ errs=0*) cls="mounted and walked, no errors" ;;
            END\ mounted*eio=0\ *) cls="mounted and walked, errors other than EIO" ;;
            END\ mounted*)    cls="mounted and walked, EIO seen" ;;
            BAD\ *)           cls=FAILED; why=${line#BAD } ;;
            *)                cls=FAILED; why="no end line (hang, panic or reset; QEMU $(qemu_status_text $rc))" ;;
        esac
        if [ "$cls" = FAILED ]; then
            FAILS=$((FAILS + 1))
            { echo "seed $s (boot $BOOTS, /dev/hdb$k): $why"; sed 's/^/    /' "$TMP/mut.$s"; } >> "$TMP/failures"
            [ "$line" = HUNG ] && { rest=("${batch[@]:i+1}"); break; }
        fi
        CLASS[$cls]=$(( ${CLASS[$cls]:-0} + 1 ))
    done
    if [ ${#rest[@]} -gt 0 ] || [ "$line" = HUNG ]; then
        if ! grep -q "^1 " "$TMP/slots"; then     # not even the control ran: give up
            echo "boot $BOOTS: died before any image (QEMU $(qemu_status_text $rc))" >> "$TMP/failures"
            FAILS=$((FAILS + 1)); rest=()
        fi
        show_tail "$log" 30 >> "$TMP/failures"
        QUEUE=("${rest[@]}" "${QUEUE[@]}")
    fi
    # The bad root must be refused, and the image mounted right after it
    # must be whole: nothing of the failed mount (its root inode) may
    # survive into the next one.
    r=$(sed -n "s/^$((n - 1)) \(.*\)/\1/p" "$TMP/slots")
    a=$(sed -n "s/^$n \(.*\)/\1/p" "$TMP/slots")
    if [ ${#rest[@]} -eq 0 ] && [ "$line" != HUNG ]; then   # the boot got that far
        if [ "$r" != "END refused EINVAL" ] || [[ "$a" != "$want"* ]] ||
           [[ "$a" != *" eio=0 errs=0 "*"opsfail=0" ]]; then
            AFTER_BAD=$((AFTER_BAD + 1))
            echo "boot $BOOTS: bad root: '$r' (want 'END refused EINVAL'), then '$a' (want '$want... eio=0 errs=0 ... opsfail=0')" >> "$TMP/after"
        fi
    fi
done

if [ "$CTRL_BAD" -eq 0 ]; then pass "$T.control ($BOOTS boots, $ENTRIES entries each)"
else fail "$T.control ($CTRL_BAD of $BOOTS boots)"; sed 's/^/    /' "$TMP/ctrl"; fi
if [ "$AFTER_BAD" -eq 0 ]; then pass "$T.failed_mount_forgotten"
else fail "$T.failed_mount_forgotten ($AFTER_BAD of $BOOTS boots)"; sed 's/^/    /' "$TMP/after"; fi
if [ "$FAILS" -eq 0 ]; then pass "$T.images (seeds $SEED0..$((SEED0 + NIMG - 1)), $BOOTS boots)"
else fail "$T.images ($FAILS failures in seeds $SEED0..$((SEED0 + NIMG - 1)))"; cat "$TMP/failures"; fi
if [ "${FUZZ_SUMMARY:-}" = 1 ] || [ "$FAILS" -gt 0 ]; then
    echo "ext2fuzz summary: $NIMG images, $BOOTS boots"
    for c in "${!CLASS[@]}"; do printf '  %5d  %s\n' "${CLASS[$c]}" "$c"; done | sort -k2
    [ "$FAILS" -gt 0 ] && printf '  %5d  %s\n' "$FAILS" "FAILED"
fi
exit 0
