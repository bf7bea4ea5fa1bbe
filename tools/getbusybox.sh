#!/bin/bash
# tools/getbusybox.sh: fetch Debian's busybox-static for i386 into a cache.
# Layer: host tooling (tools/tests/busybox.sh runs it; so does `make busybox`).
#
#   tools/getbusybox.sh DIR      -> DIR/busybox (a static i386 ELF), exit 0
#
# Uses the ordinary Debian client: `apt-get download busybox-static:i386`
# (after `dpkg --add-architecture i386` and one `apt-get update` if the
# package is unknown; both need root), then `dpkg-deb -x`.  Once DIR/busybox
# exists nothing is fetched again.  When it cannot be had (not Debian, not
# root, no network) it prints one line saying why on stdout and exits 1:
# callers SKIP, they never fail a build for it.
set -u
DIR=$1
BB=$DIR/busybox
[ -x "$BB" ] && exit 0
mkdir -p "$DIR" || { echo "cannot create $DIR"; exit 1; }
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
    { echo "no apt-get/dpkg on this host (not Debian or Ubuntu)"; exit 1; }
export DEBIAN_FRONTEND=noninteractive
SUDO=
[ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && SUDO=sudo; }
known() { apt-cache show busybox-static:i386 >/dev/null 2>&1; }
if ! known; then
    [ "$(id -u)" = 0 ] || [ -n "$SUDO" ] ||
        { echo "busybox-static:i386 unknown to apt and not root (run: dpkg --add-architecture i386 && apt-get update)"; exit 1; }
    case " $(dpkg --print-foreign-architectures | tr '\n' ' ') " in
        *" i386 "*) ;;
        *) $SUDO dpkg --add-architecture i386 || { echo "dpkg --add-architecture i386 failed"; exit 1; } ;;
    esac
    $SUDO apt-get update -q >"$DIR/apt-update.log" 2>&1 ||
        { echo "apt-get update failed: $(tail -1 "$DIR/apt-update.log")"; exit 1; }
    known || { echo "busybox-static:i386 is not in the apt sources"; exit 1; }
fi
rm -rf "$DIR/deb" "$DIR/x"; mkdir -p "$DIR/deb"
# apt-get download writes into the current directory; as root it may warn
# about the _apt sandbox user, harmlessly.
(cd "$DIR/deb" && apt-get download -q busybox-static:i386) >"$DIR/download.log" 2>&1 ||
    { echo "apt-get download busybox-static:i386 failed: $(grep -v '^W:' "$DIR/download.log" | tail -1)"; exit 1; }
deb=$(ls "$DIR"/deb/busybox-static_*_i386.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "no .deb after apt-get download"; exit 1; }
dpkg-deb -x "$deb" "$DIR/x" || { echo "dpkg-deb -x $deb failed"; exit 1; }
[ -f "$DIR/x/bin/busybox" ] || { echo "no bin/busybox in $deb"; exit 1; }
cp "$DIR/x/bin/busybox" "$BB.tmp" && chmod 755 "$BB.tmp" && mv "$BB.tmp" "$BB"
basename "$deb" > "$DIR/VERSION"
rm -rf "$DIR/x"
exit 0
