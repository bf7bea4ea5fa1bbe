#!/bin/bash
# tools/getbusybox.sh: fetch Debian's busybox-static for i386 into a cache.
# Layer: host tooling (`make busybox` and tools/tests/busybox.sh run it).
#
#   tools/getbusybox.sh DIR      -> DIR/busybox (a static i386 ELF), exit 0
#
# Uses Debian's own client, apt-get, and changes nothing on the host: no
# `dpkg --add-architecture`, no `apt-get update` of the host's lists, no
# package installed, no root needed.
#   1. If the host's apt already knows busybox-static:i386 (the host has the
#      i386 architecture), `apt-get download busybox-static:i386`.
#   2. Else, or if that download fails (a stale host index), an apt of our
#      own: the host's apt sources, but i386 as the architecture and the
#      package lists in DIR/apt/ (`apt-get -o Dir::State::Lists=DIR/apt/lists
#      -o APT::Architectures=i386 update`, then `apt-get download`).  It says
#      so on stderr before it downloads anything.
# An `apt-get update` that fails for some index (a mirror mid-sync: "File
# has unexpected size", "Some index files failed to download") is not the
# end: what counts is whether apt then has a candidate for busybox-static
# (`apt-cache policy`), and only that package's index is needed.
# BUSYBOX_OWN_APT=1 skips step 1 (what a host without i386 goes through).
# Then `dpkg-deb -x` and DIR/busybox; DIR/VERSION names the .deb.  Once
# DIR/busybox exists nothing is fetched again.
#
# Progress goes to stderr.  When it cannot, one line on stdout says why:
#   exit 1   this host cannot (no apt-get/dpkg-deb: not Debian or Ubuntu)
#   exit 2   it tried and failed (network, the sources, apt's own error)
set -u
DIR=$1
BB=$DIR/busybox
[ -x "$BB" ] && exit 0
say() { echo "getbusybox: $*" >&2; }
mkdir -p "$DIR" || { echo "cannot create $DIR"; exit 2; }
DIR=$(cd "$DIR" && pwd)
for c in apt-get apt-cache dpkg-deb; do
    command -v $c >/dev/null 2>&1 || { echo "no $c on this host (not Debian or Ubuntu)"; exit 1; }
done
export DEBIAN_FRONTEND=noninteractive LC_ALL=C

# candidate [APT-OPTION...]: the version apt would download, or nothing.
candidate() {
    apt-cache "$@" policy busybox-static:i386 2>/dev/null |
        sed -n 's/^ *Candidate: *//p' | grep -v '^(none)$' | head -1
}
# download [APT-OPTION...]: the .deb into $DIR/deb (apt-get download writes
# into the current directory).
download() {
    rm -rf "$DIR/deb"; mkdir -p "$DIR/deb"
    (cd "$DIR/deb" && apt-get -q "$@" download busybox-static:i386) >"$DIR/download.log" 2>&1 &&
        ls "$DIR"/deb/busybox-static_*_i386.deb >/dev/null 2>&1
}

got=
v=
[ -n "${BUSYBOX_OWN_APT:-}" ] || v=$(candidate)
if [ -n "$v" ]; then
    say "the host's apt knows busybox-static:i386 $v: apt-get download busybox-static:i386"
    download && got=host
fi
if [ -z "$got" ]; then
    A=$DIR/apt
    mkdir -p "$A/lists/partial" "$A/cache/archives/partial"
    APTOPT=(-o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache"
            -o APT::Architecture=i386 -o APT::Architectures=i386 -o Acquire::Languages=none)
    # as root apt fetches as the user _apt, who cannot write into $DIR
    [ "$(id -u)" = 0 ] && APTOPT+=(-o APT::Sandbox::User=root)
    say "fetching Debian's i386 package lists (from the host's apt sources) into $A/"
    say "  (apt-get update with lists of its own: the host's apt and dpkg stay as they are)"
    if ! apt-get -q "${APTOPT[@]}" update >"$A/update.log" 2>&1; then
        errs=$(grep '^E: ' "$A/update.log" | grep -v 'Some index files failed' | head -1)
        if [ -n "$(candidate "${APTOPT[@]}")" ]; then
            say "apt-get update had errors for indexes busybox does not need (ignored):"
            say "  ${errs:-$(grep '^E: ' "$A/update.log" | tail -1)}"
        else
            echo "apt-get update failed: ${errs:-$(tail -1 "$A/update.log")} ($A/update.log)"
            exit 2
        fi
    fi
    v=$(candidate "${APTOPT[@]}")
    [ -n "$v" ] || { echo "busybox-static:i386 is not in the host's apt sources ($A/update.log)"; exit 2; }
    say "apt-get download busybox-static:i386 $v"
    download "${APTOPT[@]}" ||
        { echo "apt-get download busybox-static:i386 failed: $(grep -v '^W:' "$DIR/download.log" | tail -1)"; exit 2; }
fi
deb=$(ls "$DIR"/deb/busybox-static_*_i386.deb | head -1)
rm -rf "$DIR/x"
dpkg-deb -x "$deb" "$DIR/x" || { echo "dpkg-deb -x $deb failed"; exit 2; }
[ -f "$DIR/x/bin/busybox" ] || { echo "no bin/busybox in $deb"; exit 2; }
cp "$DIR/x/bin/busybox" "$BB.tmp" && chmod 755 "$BB.tmp" && mv "$BB.tmp" "$BB"
basename "$deb" > "$DIR/VERSION"
rm -rf "$DIR/x" "$DIR/apt"             # the lists are not needed again (the .deb stays)
say "$BB: $(cat "$DIR/VERSION")"
exit 0
