#!/bin/bash
# tools/bochs.sh: run Vellum under Bochs (the machine in boot/bochsrc).
# Layer: host tooling (`make bochs` and tools/tests/bochs.sh run it).
#
#   tools/bochs.sh ISO DISK file:LOG      COM1 into LOG (output only)
#   tools/bochs.sh ISO DISK socket:PORT   COM1 on a TCP server at
#                                         localhost:PORT (Bochs waits for one
#                                         client before it starts the machine)
#
# ISO is the GRUB ISO to boot (build/vellum.iso), DISK the raw image attached
# as the first IDE disk, hda (build/images/rootfs-run.img, the one `make qemu`
# boots).  Bochs sizes a disk by its geometry, so it is computed here from
# DISK's size: 16 heads and the largest of 63, 32, 16, ... sectors per track
# that divides it exactly.
#
# The display is chosen now, when Bochs starts (not when make parses the
# Makefile, where output is always a pipe): standard input and output both a
# terminal -> `term` (VGA text in this terminal, your keys to the PS/2
# keyboard); otherwise headless: `nogui` where this Bochs has it, else `rfb`
# with timeout=0 (it does not wait for a viewer; a VNC viewer on
# localhost:5900 shows the screen).  BOCHS_DISPLAY='...' overrides it.
# BOCHS_CPUS=N gives the machine N CPUs (default 1; Bochs's BIOS lists
# them in its MADT and MP table, docs/smp.md).
# Bochs's own log goes to $BOCHS_LOG (default: a temporary file).  Exit
# status: 0 when the guest powered the machine off (Bochs itself calls that a
# panic and exits 1: "ACPI control: soft power off") or you quit at Bochs's
# debugger prompt; otherwise Bochs's status, with its last message on stderr
# (a missing file, a disk locked by another Bochs, a triple fault...).
set -u
[ $# -eq 3 ] || { echo "usage: tools/bochs.sh ISO DISK file:LOG|socket:PORT" >&2; exit 2; }
ISO=$1 DISK=$2 COM=$3
for f in "$ISO" "$DISK"; do
    [ -f "$f" ] || { echo "bochs.sh: no $f" >&2; exit 2; }
done
TOP=$(cd "$(dirname "$0")/.." && pwd)

sectors=$(( $(stat -c %s "$DISK") / 512 ))
heads=16
for spt in 63 32 16 8 4 2 1; do
    [ $((sectors % (heads * spt))) -eq 0 ] && break
done
if [ $((sectors % (heads * spt))) -ne 0 ]; then
    echo "bochs.sh: $DISK is not a whole number of 16 x 512-byte sectors" >&2; exit 2
fi
export VELLUM_ISO=$(realpath "$ISO") VELLUM_DISK=$(realpath "$DISK")
export VELLUM_CYLS=$((sectors / (heads * spt))) VELLUM_HEADS=$heads VELLUM_SPT=$spt
# BOCHS_CPUS=N: the CPUs the machine has (default 1; make bochs CPUS=N)
case ${BOCHS_CPUS:-1} in
    [1-9]|1[0-6]) export VELLUM_CPUS=${BOCHS_CPUS:-1} ;;
    *) echo "bochs.sh: BOCHS_CPUS is 1 to 16, not '$BOCHS_CPUS'" >&2; exit 2 ;;
esac
case $COM in
    file:*)   export VELLUM_SERIAL_MODE=file VELLUM_SERIAL_DEV=$(realpath -m "${COM#file:}") ;;
    socket:*) export VELLUM_SERIAL_MODE=socket-server VELLUM_SERIAL_DEV=localhost:${COM#socket:} ;;
    *) echo "bochs.sh: COM1 is file:LOG or socket:PORT, not '$COM'" >&2; exit 2 ;;
esac

if [ -n "${BOCHS_DISPLAY:-}" ]; then
    display=$BOCHS_DISPLAY
elif [ -t 0 ] && [ -t 1 ]; then
    display=term
elif ls /usr/lib/*/bochs/plugins/libbx_nogui_gui.so* /usr/lib/bochs/plugins/libbx_nogui_gui.so* \
        >/dev/null 2>&1; then
    display=nogui
else
    display='rfb, options="timeout=0"'
fi

# Debian's Bochs is built with its debugger: it then wants commands at start
# (these: run, and quit when the run ends) or it stops at its prompt.
dbg=
bochs --help 2>&1 | grep -q -- '-rc filename' && dbg=1
tmp=$(mktemp "${TMPDIR:-/tmp}/vellum-bochs.XXXXXX") || exit 1
log=${BOCHS_LOG:-}
[ -n "$log" ] || log=$tmp.log
saved_tty=
cleanup() {
    [ -n "$saved_tty" ] && stty "$saved_tty" 2>/dev/null
    rm -f "$tmp" "$tmp.log" "$tmp.err" "$tmp.out"
}
trap cleanup EXIT
printf 'continue\nquit\n' > "$tmp"
: > "$log"
# -unlock: a Bochs that was killed leaves DISK.lock behind, and the next one
# would refuse the disk.  Its chatter before it opens the log (the plugins
# it loads) goes to $tmp.err.
args=(-f "$TOP/boot/bochsrc" -q -unlock ${dbg:+-rc "$tmp"} "display_library: $display" "log: $log")

if [ "$display" = term ] && [ -n "$dbg" ]; then
    # The debugger keeps the terminal for its prompt, so the term display
    # draws on a new pseudo-terminal ("Bochs connected to screen
    # /dev/pts/N").  Connect this terminal to it: the screen is copied here,
    # each key you press goes there.  LINES/COLUMNS: ncurses then sizes its
    # screen as the VGA's 80x25 text mode.
    LINES=25 COLUMNS=80 bochs "${args[@]}" </dev/null >"$tmp.out" 2>"$tmp.err" &
    bpid=$!
    pts=
    for _ in $(seq 100); do
        pts=$(sed -n 's/.*Bochs connected to screen "\(.*\)".*/\1/p' "$tmp.err")
        [ -n "$pts" ] && break
        kill -0 $bpid 2>/dev/null || break
        sleep 0.1
    done
    if [ -n "$pts" ]; then
        echo "*** Bochs's screen follows; poweroff at the shell prompt ends it, Ctrl-] quits Bochs."
        sleep 1
        # A plain byte pipe both ways: no echo, no line editing, no signals
        # from the screen's bytes; Enter (CR) reaches curses as NL.
        stty -F "$pts" raw -echo opost ocrnl -onlcr 2>/dev/null
        saved_tty=$(stty -g)
        stty raw -echo
        cat "$pts" 2>/dev/null &
        cpid=$!
        exec 4>"$pts"
        while kill -0 $bpid 2>/dev/null; do
            IFS= read -r -s -n 1 -d '' -t 0.5 key
            r=$?
            [ $r -gt 128 ] && continue                 # no key within 0.5 s
            [ $r -ne 0 ] && break                      # end of input
            if [ "$key" = $'\x1d' ]; then quit=1; kill -HUP $bpid; break; fi
            [ -n "$key" ] && printf '%s' "$key" >&4 2>/dev/null
            # Bochs's PS/2 controller holds 16 scan codes (a key is 2 to 6):
            # pace a paste so that it does not overflow.
            sleep 0.03
        done
        wait $bpid
        status=$?
        exec 4>&-
        kill $cpid 2>/dev/null; wait $cpid 2>/dev/null
        stty "$saved_tty"; saved_tty=
        printf '\033[0m\033[H\033[2J'               # leave a clean terminal
    else
        wait $bpid
        status=$?
    fi
    cat "$tmp.out" >> "$log"
else
    bochs "${args[@]}" 2>"$tmp.err"
    status=$?
fi
[ -n "${quit:-}" ] && { echo "bochs.sh: you quit Bochs (Ctrl-])"; exit 0; }
if grep -qE 'ACPI control: soft power off|Shutdown port: shutdown requested' "$log"; then
    exit 0
fi
if [ $status -ne 0 ]; then
    why=$(cat "$log" "$tmp.err" | grep '>>PANIC<<' | tail -n 1 | sed 's/.*>>PANIC<< *//')
    echo "bochs.sh: Bochs stopped with status $status: ${why:-see $log}" >&2
fi
exit $status
