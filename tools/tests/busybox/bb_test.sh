# tools/tests/busybox/bb_test.sh: run by Debian's busybox sh on Vellum
# (/tests/bb_test.sh in the busybox test image; tools/tests/busybox.sh).
# The applets are symlinks in /bb to /bin/busybox.  Results go to files in
# /home/bb, which the host reads back with debugfs; lines "bb: ..." go to
# the console.
PATH=/bb:/bin
D=/home/bb
mkdir -p $D/sub/deeper || echo "bb: mkdir failed"
cd $D || exit 1
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
for i in 1 2 3; do echo "n$i"; done > loop.out
x=$((6 * 7)); echo "$x" > arith.out
first=$(head -n 1 sorted); echo "first=$first" > subst.out
if [ -f fruit ] && ! [ -e doomed ]; then echo yes > test.out; else echo no > test.out; fi
sync
echo "bb: done"
