#!/bin/bash
# tools/gdb/gdbport.sh: the TCP port `make qemu-gdb` gives QEMU's gdb stub
# when GDBPORT is not set (mk/gdb.mk).  Owns only this choice.
#
# The first candidate is 26000 + (a hash of the user id and the checkout's
# path) mod 5000: the same checkout gets the same port run after run, and two
# users, or one user (root, say) with two checkouts, get different ones (the
# old default, xv6's 26000 + uid mod 5000, was one port for every root user).
# A candidate something already listens on (another QEMU) is skipped for the
# next one (found in /proc/net/tcp, never by connecting); the port chosen is written into .gdbinit, so gdb follows.
#   usage: tools/gdb/gdbport.sh [DIR]     (DIR: the checkout, default $PWD)
dir=${1:-$PWD}
h=$(printf '%s:%s' "$(id -u)" "$dir" | cksum)
port=$((26000 + ${h%% *} % 5000))
# listening PORT: is a TCP socket in state LISTEN (0A) on PORT?  Read from
# /proc/net/tcp{,6}, without connecting: a connection to a QEMU gdb stub
# would stop that QEMU (the stub pauses the VM when gdb attaches).
listening() {
    local hex
    hex=$(printf '%04X' "$1")
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
        awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}
for _ in $(seq 20); do
    if ! listening "$port"; then
        echo "$port"
        exit 0
    fi
    port=$((port + 1))
done
echo "$port"
