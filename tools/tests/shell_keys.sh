#!/bin/bash
# tools/tests/shell_keys.sh: the shell's line editor (user/sh/lineedit.c),
# driven by keystrokes on the serial console, as a student at `make qemu`
# presses them.  Layer: host test (kernel tty in raw mode with VMIN/VTIME,
# the VGA/serial consoles, sh, the utilities).
#
# Boots a copy of build/images/rootfs.img with COM1 on a pair of FIFOs (as
# tools/tests/shell_session.sh does) and, at each prompt, types a line's
# keys at once: text, arrows and Home/End/Delete as the escape sequences a
# terminal sends (ESC [ A ...), Tab, and Ctrl keys as their bytes (Ctrl-U is
# 0x15).  Each line writes what it did into a file under /home/keys; after
# `poweroff`, debugfs reads the files back on the host, so each check is
# about the command that really ran, not about what the screen showed:
#   history (Up runs a line again, Ctrl-P, Up Up Down), Left/Right and
#   insert, Home/End (both encodings), Ctrl-A/E, Delete, Backspace,
#   Ctrl-U, Ctrl-K, Ctrl-W, Ctrl-Y, Alt-B, Ctrl-C (line dropped, $? 130),
#   Ctrl-R (a search runs the line found), Tab (a command name, /bin/ech,
#   /etc/r, a directory, a second Tab listing the choices), Ctrl-L (the
#   screen cleared, no error), `clear`, a script and a pipe into sh (read
#   unedited), the cooked tty a command gets (cat with the tty's own erase,
#   and ^D), Ctrl-D at an empty prompt (the shell exits, init starts another).
source "$(dirname "$0")/../testlib.sh"
T=shell_keys
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-keys.XXXXXX") || exit 1
QPID=
cleanup() {
    [ -n "$QPID" ] && kill "$QPID" 2>/dev/null
    exec 3>&- 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

make -s --no-print-directory BUILD="$BUILD" all >"$TMP/build.log" 2>&1 ||
    { fail "$T.build"; show_tail "$TMP/build.log"; exit 0; }
IMG=$TMP/root.img
cp "$BUILD/images/rootfs.img" "$IMG"

console_boot "$IMG"     # tools/testlib.sh: LOG, QPID, NP, LOST

log() { tr -d '\r' < "$LOG"; }

# The keys, as a terminal sends them.
K_UP='\033[A' K_DOWN='\033[B' K_RIGHT='\033[C' K_LEFT='\033[D'
K_HOME='\033[H' K_END='\033[F' K_HOME2='\033[1~' K_END2='\033[4~' K_DEL='\033[3~'
K_ALT_B='\033b' K_TAB='\t' K_ENTER='\r' K_BS='\177'
C_A='\001' C_C='\003' C_D='\004' C_E='\005' C_K='\013' C_L='\014'
C_P='\020' C_R='\022' C_U='\025' C_W='\027' C_Y='\031'
right() { printf "$K_RIGHT%.0s" $(seq "$1"); }      # right N: N times Right

NP=1                                   # prompts expected so far
LOST=0
# keys KEYS [REDRAWS]: at the next prompt, press KEYS (printf %b: the
# escapes above), which end the line (Enter, Ctrl-C...); then wait for the
# prompt after it.  REDRAWS: prompts the editor draws again on the way
# (Ctrl-L, a Tab list, the end of a Ctrl-R search: one each).
keys() {
    [ $LOST = 1 ] && return 1
    if ! console_wait $NP 60; then
        fail "$T.prompt (no prompt #$NP before keys: $1)"; show_tail "$LOG" 20
        LOST=1
        return 1
    fi
    printf '%b' "$1" >&3
    NP=$((NP + 1 + ${2:-0}))
}

if console_wait 1 120; then pass "$T.boot_to_prompt"
else fail "$T.boot_to_prompt (no shell prompt within 120 s)"; show_tail "$LOG" 30; LOST=1; fi

H=/home/keys
keys "mkdir $H; cd $H$K_ENTER"
# history: Up brings the last line back, Enter runs it again
keys "echo abc >> hist.txt$K_ENTER"
keys "$K_UP$K_ENTER"
keys "echo other >> hist.txt$K_ENTER"
keys "$K_UP$K_UP$K_UP$K_DOWN$K_ENTER"     # 3 back (mkdir), 1 forward: "echo abc"
keys "$C_P$K_ENTER"                       # Ctrl-P is Up
# Left and insert in the middle; Home/End in both encodings; Ctrl-A/E; Alt-B
keys "echo ac${K_LEFT}b$K_END > left.txt$K_ENTER"
keys "cho home${K_HOME}e$K_END > home.txt$K_ENTER"
keys "cho home2${K_HOME2}e$K_END2 > home2.txt$K_ENTER"
keys "echo ctrl$C_A$(right 5)$C_E-ae > ae.txt$K_ENTER"
keys "echo 2 3$K_ALT_B${K_ALT_B}1 $K_END > alt-b.txt$K_ENTER"
# Delete under the cursor, Backspace before it
keys "echo abXc > del.txt$C_A$(right 7)$K_DEL$K_ENTER"
keys "echo abcX$K_BS > bs.txt$K_ENTER"
# Ctrl-U: the line typed so far goes; Ctrl-K: from the cursor on
keys "echo wrong > wrong.txt${C_U}echo right > right.txt$K_ENTER"
keys "echo kept > kept.txt; echo cut > cut.txt$C_A$(right 20)$C_K$K_ENTER"
# Ctrl-W: the word before the cursor; Ctrl-Y puts the last cut back
keys "echo one two three$C_W$C_W> w.txt$K_ENTER"
keys "echo yank$C_W$C_Y$C_Y > y.txt$K_ENTER"
# Ctrl-C drops the line; $? is 130 then
keys "echo never > never.txt$C_C"
keys "echo st=\$? > cc.txt$K_ENTER"
# Ctrl-R: search back for "needl" and run what it finds
keys "echo needle >> r.txt$K_ENTER"
keys "echo hay > hay.txt$K_ENTER"
keys "${C_R}needl$K_ENTER" 1
# Tab: a command name (builtin echo and /bin/echo: one choice), a path, a
# file of /etc, a directory (no space after it: Tab goes on inside it)
keys "ech${K_TAB}cmd > tab-cmd.txt$K_ENTER"
keys "/bin/ech${K_TAB}tabbed > tab-bin.txt$K_ENTER"
keys "cat /etc/r$K_TAB> tab-rc.txt$K_ENTER"
keys "cd /ho${K_TAB}ke$K_TAB$K_ENTER"
keys "pwd > tab-dir.txt$K_ENTER"
# a second Tab lists the choices (and draws the prompt again)
keys "/bin/s$K_TAB$K_TAB${C_U}echo listed > list.txt$K_ENTER" 1
# Ctrl-L clears the screen and draws the line again: the line still runs
keys "echo after$C_L-l > ctrl-l.txt$K_ENTER" 1
keys "clear; echo cleared > clear.txt$K_ENTER"
# scripts and pipes are read as they are, unedited
keys "echo 'echo from-script > script.txt' > s.sh; sh s.sh$K_ENTER"
keys "echo 'echo piped > pipe.txt' | sh$K_ENTER"
# a command gets the cooked tty back: cat reads a line that the tty's own
# erase (DEL) edited, and ^D ends its input
keys "cat > cooked.txt$K_ENTER"
sleep 2
printf 'hellx\177o\n\004' >&3
# Ctrl-D on the empty line: the shell exits, init starts another one
keys "$C_D"
keys "echo back > $H/back.txt$K_ENTER"     # the new shell starts in /
keys "sync$K_ENTER"
keys "poweroff$K_ENTER"

console_end                            # QEMU gone by itself (poweroff): rc
if [ $rc = 0 ] && log | grep -q 'power off: root (hda) synced and read-only'; then
    pass "$T.power_off"
else
    fail "$T.power_off (qemu status $rc: $(qemu_status_text $rc))"; show_tail "$LOG" 20
fi

# ---- what ran: the files, read back with debugfs
expect() {                             # expect NAME CONTENT (printf %b)
    debugfs -R "cat $H/$1" "$IMG" > "$TMP/got" 2>/dev/null
    printf '%b' "$2" > "$TMP/want"
    if cmp -s "$TMP/got" "$TMP/want"; then pass "$T.$3"
    else fail "$T.$3 ($1: got '$(od -c "$TMP/got" | head -3 | tr -s ' ' | tr '\n' ' ')')"; fi
}
absent() {                             # absent NAME CHECK
    if debugfs -R "stat $H/$1" "$IMG" 2>&1 | grep -q 'File not found'; then pass "$T.$2"
    else fail "$T.$2 ($1 exists: that line ran)"; fi
}
expect hist.txt 'abc\nabc\nother\nabc\nabc\n' history_up_runs_again
expect left.txt 'abc\n' left_then_insert
expect home.txt 'home\n' home_end
expect home2.txt 'home2\n' home_end_vt_keys
expect ae.txt 'ctrl-ae\n' ctrl_a_ctrl_e
expect alt-b.txt '1 2 3\n' alt_b
expect del.txt 'abc\n' delete_key
expect bs.txt 'abc\n' backspace
expect right.txt 'right\n' ctrl_u
absent wrong.txt ctrl_u_dropped
expect kept.txt 'kept\n' ctrl_k
absent cut.txt ctrl_k_cut
expect w.txt 'one\n' ctrl_w
expect y.txt 'yankyank\n' ctrl_y
absent never.txt ctrl_c_dropped
expect cc.txt 'st=130\n' ctrl_c_status_130
expect r.txt 'needle\nneedle\n' ctrl_r_search
expect tab-cmd.txt 'cmd\n' tab_command_name
expect tab-bin.txt 'tabbed\n' tab_bin_ech
debugfs -R "cat $H/tab-rc.txt" "$IMG" > "$TMP/rc" 2>/dev/null
if cmp -s "$TMP/rc" user/rootfs/etc/rc; then pass "$T.tab_etc_r"
else fail "$T.tab_etc_r (tab-rc.txt is not /etc/rc: $(head -c 60 "$TMP/rc" | tr '\n' '|'))"; fi
expect tab-dir.txt "$H\n" tab_directory
expect list.txt 'listed\n' tab_tab_then_ctrl_u
expect ctrl-l.txt 'after-l\n' ctrl_l
expect clear.txt 'cleared\n' clear
expect script.txt 'from-script\n' script_unedited
expect pipe.txt 'piped\n' pipe_unedited
expect cooked.txt 'hello\n' command_gets_cooked_tty
expect back.txt 'back\n' ctrl_d_exits_new_shell

# ---- and what the screen showed
# the second Tab listed /bin/s*: a line with sh, sleep, sort, stat and sync
if log | grep -E '(^|  )sh  ' | grep -q 'sleep .*sort .*stat .*sync'; then pass "$T.tab_tab_lists"
else fail "$T.tab_tab_lists (no line listing sh sleep sort stat sync)"; show_tail "$LOG" 10; fi
# Ctrl-L and clear sent ESC [ H ESC [ 2 J; no "command too long" (^L once was a word)
nclear=$(grep -o $'\033\\[H\033\\[2J' "$LOG" | wc -l)
if [ "$nclear" -ge 2 ] && ! log | grep -q 'command too long'; then pass "$T.screen_cleared"
else fail "$T.screen_cleared ($nclear clear sequences, want 2; or 'command too long')"; fi
# the search showed what it found
if log | grep -q "(reverse-i-search)\`needl': echo needle >> r.txt"; then pass "$T.ctrl_r_shown"
else fail "$T.ctrl_r_shown (no '(reverse-i-search)\`needl': echo needle >> r.txt')"; fi
if e2fsck -fn "$IMG" >"$TMP/fsck.log" 2>&1; then pass "$T.fsck_clean"
else fail "$T.fsck_clean"; show_tail "$TMP/fsck.log"; fi
