# tools/suites/jbd-common.sh: shared by the jbd*.conf suites (sourced): the
# images of tools/mkjournal.sh (in $BUILD/images, from `make images`) and
# the host-side checks of a recovered journal.
. "$(dirname "${BASH_SOURCE[0]}")/ext2-common.sh"

# same_as_host NAME IMAGE ORIGINAL: IMAGE (recovered by Vellum) equals a copy
# of ORIGINAL recovered by the host's e2fsck (-E journal_only: the replay
# and nothing else), byte for byte, except two superblock fields each side
# stamps its own way: s_wtime (bytes 48..51 of the superblock, the time of
# the write) and s_kbytes_written (376..383, counted by e2fsprogs only).
# The superblock starts at byte 1024 whatever the block size.
same_as_host() {
    local host=$T/host.img diffs
    cp "$3" "$host"
    if ! e2fsck -E journal_only -y "$host" >$T/e2fsck.log 2>&1; then
        echo "FAIL $1 (the host's e2fsck could not recover $3)"; sed 's/^/    /' $T/e2fsck.log
        return
    fi
    # cmp -l: 1-based offset, then the two bytes (octal)
    diffs=$(cmp -l "$2" "$host" | awk '{ o = $1 - 1 - 1024 }
        !((o >= 48 && o < 52) || (o >= 376 && o < 384)) { print }' | head -5)
    if [ -z "$diffs" ]; then
        echo "PASS $1"
    else
        echo "FAIL $1 (differs from the host's recovery; first bytes, 1-based offset and octal values:)"
        echo "$diffs" | sed 's/^/    /'
    fi
    rm -f "$host"
}

# journal_empty NAME IMAGE SEQUENCE: debugfs logdump shows an empty journal
# whose next transaction is SEQUENCE, and needs_recovery is clear
journal_empty() {
    local out
    out=$(debugfs -R logdump "$2" 2>/dev/null)
    if [ "$out" = "Journal starts at block 0, transaction $3" ] &&
       ! dumpe2fs -h "$2" 2>/dev/null | grep -q needs_recovery; then
        echo "PASS $1"
    else
        echo "FAIL $1 (logdump: $(echo $out | head -c 200))"
    fi
}

# journal_emptied NAME IMAGE: transactions were written (the next ID is past
# 1) and the journal left empty, needs_recovery clear: a clean unmount
journal_emptied() {
    local out
    out=$(debugfs -R logdump "$2" 2>/dev/null)
    if [[ "$out" =~ ^"Journal starts at block 0, transaction "([0-9]+)$ ]] &&
       [ "${BASH_REMATCH[1]}" -gt 1 ] &&
       ! dumpe2fs -h "$2" 2>/dev/null | grep -q needs_recovery; then
        echo "PASS $1"
    else
        echo "FAIL $1 (logdump: $(echo $out | head -c 200))"
    fi
}

# replayed NAME IMAGE PREFIX: /a /b /e equal PREFIX.expect-{a,b,e}
replayed() {
    local f
    for f in a b e; do same_file $1_$f "$2" /$f $3.expect-$f; done
}

# unchanged NAME IMAGE ORIGINAL: a refused mount wrote nothing
unchanged() {
    if cmp -s "$2" "$3"; then echo "PASS $1"; else echo "FAIL $1 (the image was written)"; fi
}

# doc_block MARKER [FILE]: the lines of FILE's (docs/journal.md's) fenced
# block between "<!-- MARKER begin -->" and "<!-- MARKER end -->"
doc_block() {
    sed -n "/<!-- $1 begin -->/,/<!-- $1 end -->/p" "${2:-docs/journal.md}" | sed '1d;$d' | sed '1d;$d'
}

# doc_bootlog NAME MARKER: every line of that block is a line of this boot's
# serial log ($LOG, whose lines end in CR LF): the pasted output is real
doc_bootlog() {
    local l missing=""
    while IFS= read -r l; do
        tr -d '\r' < "$LOG" | grep -qxF -- "$l" || missing="$l"
    done < <(doc_block "$2")
    if [ -n "$(doc_block "$2")" ] && [ -z "$missing" ]; then
        echo "PASS $1"
    else
        echo "FAIL $1 (docs/journal.md's $2 block: not in this boot's log: ${missing:-empty block})"
    fi
}

# commit_files NAME IMAGE A0: the files of fs/jbd/transaction_test.c's
# workload: /a = P(A0, 0) P(t2, 0) P(a, 2) P(t2, 1) with the JBD magic in
# its first word (A0: t1 if T10 was lost, t10 if committed), /big = P(g9)
# (P(key, i): block i of the pattern key; the block size from dumpe2fs)
commit_files() {
    local bs e=$T/exp
    bs=$(dumpe2fs -h "$2" 2>/dev/null | sed -n 's/^Block size: *//p')
    { "$VPATTERN" $3 $bs; "$VPATTERN" t2 $bs
      "$VPATTERN" a $((3 * bs)) | dd bs=$bs skip=2 count=1 status=none
      printf '\xc0\x3b\x39\x98'; "$VPATTERN" t2 $((2 * bs)) | tail -c $((bs - 4)); } > $e
    same_file $1.a "$2" /a $e
    "$VPATTERN" g9 $((200 * bs)) > $e
    same_file $1.big "$2" /big $e
}

# committed_escaped NAME IMAGE: logdump -a shows a block logged with the
# ESCAPE flag (a[3], which starts with the magic)
committed_escaped() {
    if debugfs -R "logdump -a" "$2" 2>/dev/null |
       grep -Eq "logged at journal block [0-9]+ \(flags 0x[0-9a-f]*[13579bdf]\)"; then
        echo "PASS $1"
    else
        echo "FAIL $1 (no escaped block in the log)"
    fi
}
