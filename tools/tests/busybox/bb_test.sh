# tools/tests/busybox/bb_test.sh: run by Debian's busybox sh on Vellum
# (/tests/bb_test.sh on the busybox test's disk; tools/tests/busybox.sh).
# The disk is what `make busybox` makes: /bin/busybox and the applet links
# in /usr/bin, which this script puts first in its PATH so that every
# command below is busybox's.  Results go to files in /home/bb, which the
# host reads back with debugfs; lines "bb: ..." go to the console.
PATH=/usr/bin:/bin
D=/home/bb
mkdir -p $D/sub/deeper || echo "bb: mkdir failed"
cd $D || exit 1

# ---- files and text
echo cherry > fruit
echo apple >> fruit
echo banana >> fruit
sort fruit > sorted
grep an fruit > grep.out
head -n 1 fruit > head.out
tail -n 1 fruit > tail.out
sed 's/a/A/g' fruit > sed.out
wc -l < fruit > wc.out
cat fruit fruit | wc -c > cat.out
cp fruit sub/deeper/copy
ls sub/deeper > ls.out
echo doomed > doomed; rm doomed
mkdir gone; rmdir gone
x=$((6 * 7)); echo "$x" > arith.out
first=$(head -n 1 sorted); echo "first=$first" > subst.out
if [ -f fruit ] && ! [ -e doomed ]; then echo yes > test.out; else echo no > test.out; fi

# ---- loops
for i in 1 2 3; do echo "n$i"; done > loop.out
n=0
while [ $n -lt 5 ]; do
    n=$((n + 1))
    [ $n -eq 2 ] && continue
    echo "w$n"
done > while.out
until [ $n -eq 0 ]; do n=$((n - 1)); done
echo "until $n" >> while.out
for i in 1 2 3; do
    for j in a b; do printf '%s%s ' $i $j; done
    echo
done > nested.out
while read -r name; do
    case $name in
        a*) echo "A:$name" ;;
        *an*) echo "AN:$name" ;;
        *) echo "-:$name" ;;
    esac
done < fruit > case.out
sq() { echo $(($1 * $1)); }
total=0
for k in $(seq 1 10); do total=$((total + $(sq $k))); done
echo $total > func.out
i=0
while true; do i=$((i + 1)); [ $i -ge 100 ] && break; done
echo $i > break.out
mkdir -p many
for i in $(seq 1 20); do echo "file $i" > many/f$i; done
ls many | wc -l > many.out

# ---- busybox's shell itself: -c, a script on stdin
busybox sh -c 'echo "c: $((3 * 4))"' > sh_c.out
echo 'for x in p q; do echo "in:$x"; done' | busybox sh > sh_stdin.out

# ---- processes: ps against /proc, a kill, top
/bin/busybox sleep 60 &           # by path: exec'd, so ps shows its own argv
SLP=$!
i=0                               # until it has exec'd and sleeps in nanosleep
until [ $i -ge 30 ] || { grep -q sleep /proc/$SLP/cmdline && grep -q 'S (sleeping)' /proc/$SLP/status; }; do
    sleep 1; i=$((i + 1))
done
ps -o pid,ppid,stat,args > ps.out &
PSPID=$!; wait $PSPID
ls /proc > proc.out &
LSPID=$!; wait $LSPID
echo "$$ $SLP $PSPID $LSPID" > pids.out
kill $SLP; wait $SLP; echo $? > killed.out
ps -o pid,args > ps2.out
top -n1 > top.out
cat /proc/meminfo > meminfo.out
cat /proc/loadavg > loadavg.out
free > free.out
uptime > uptime.out
sync

# ---- df last: no block of the disk is allocated after it (the host checks
# its numbers against the image), so its output goes to the console
echo "bb: df begin"
df
df -i /
echo "bb: df end"
echo "bb: done"
