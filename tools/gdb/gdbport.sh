#!/bin/bash
# tools/gdb/gdbport.sh: the TCP port `make qemu-gdb` gives QEMU's gdb stub
# when GDBPORT is not set (mk/gdb.mk).  Owns only this choice.
#
# The first candidate is 26000 + (a hash of the user id and the checkout's
# path) mod 5000: the same checkout gets the same port run after run, and two
# users, or one user (root, say) with two checkouts, get different ones (the
# old default, xv6's 26000 + uid mod 5000, was one port for every root user).
# A candidate something already listens on (another QEMU) is skipped for the
# next one; the port chosen is written into .gdbinit, so gdb follows.
#   usage: tools/gdb/gdbport.sh [DIR]     (DIR: the checkout, default $PWD)
dir=${1:-$PWD}
h=$(printf '%s:%s' "$(id -u)" "$dir" | cksum)
port=$((26000 + ${h%% *} % 5000))
for _ in $(seq 20); do
    # bash's /dev/tcp: the connect succeeds only if something listens there
    if ! timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
        echo "$port"
        exit 0
    fi
    port=$((port + 1))
done
echo "$port"
