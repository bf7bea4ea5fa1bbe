#!/bin/sh
# tools/tests/userland.sh - host tests of the userland (user/).
#
# Our programs are static i386 Linux ELF files using the Linux system-call
# ABI, so they run natively on the (Linux) build host: this script runs
# the libc self-tests, the utilities and the shell here, without booting
# Vellum (shell_session.sh and systests.sh run them on Vellum).  One line
# per check: "PASS user.NAME" or "FAIL user.NAME (why)"; the test runner
# counts them.
#
# usage: sh tools/tests/userland.sh     (from anywhere; builds `make user`;
#        BUILD=dir selects the build directory, as for tools/run-tests)

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) BDIR=$BUILD ;; *) BDIR=$ROOT/$BUILD ;; esac
B=$BDIR/user
BIN=$B/bin
TMP=${TMPDIR:-/tmp}

pass() { echo "PASS user.$1"; }
fail() { echo "FAIL user.$1${2:+ ($2)}"; }
# check NAME COMMAND...: PASS if the command succeeds
check() { name=$1; shift; if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name"; fi; }
# check_eq NAME GOT WANT
check_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi; }

if ! make -C "$ROOT" -s BUILD="$BUILD" user >"$TMP/userland-build.$$" 2>&1; then
	fail build "make user failed"
	sed 's/^/    /' "$TMP/userland-build.$$" | tail -20
	rm -f "$TMP/userland-build.$$"
	exit 1
fi
rm -f "$TMP/userland-build.$$"
pass build

T=$(mktemp -d "$TMP/vellum-userland.XXXXXX")
W=$T.run                                # the qemu-user wrappers, if needed
trap 'rm -rf "$T" "$W"' EXIT
cd "$T" || exit 1

# Can this host run i386 binaries?  A kernel without IA32 emulation (as on
# this project's machines) says "Exec format error".  Then every program
# runs under qemu-user (Debian's qemu-user-static, installed by
# tools/setup.sh): $W/{bin,sbin,tests}/NAME is a two-line host script
#     exec qemu-i386-static -0 "$0" build/user/.../NAME "$@"
# and B and BIN point there.  qemu-user runs one program; when it calls
# execve the host kernel runs the new file, so what our shell or init
# executes must be runnable by the host: the scripts are, wherever PATH
# finds them.  Under qemu a process's comm is "qemu-i386-stati"; runs()
# below looks at its command line instead.
QEMU_USER=""
if ! "$BIN/true" 2>/dev/null; then
	QEMU_USER=$(command -v qemu-i386-static) ||
		{ fail runner "this host cannot run i386 programs and has no qemu-i386-static (tools/setup.sh installs qemu-user-static)"; exit 1; }
	for prog in "$B"/bin/* "$B"/sbin/* "$B"/tests/*; do
		w=$W/${prog#"$B"/}
		mkdir -p "$(dirname "$w")"
		printf '#!/bin/sh\nexec %s -0 "$0" %s "$@"\n' "$QEMU_USER" "$prog" > "$w"
		chmod 755 "$w"
	done
	B=$W
	BIN=$B/bin
	"$BIN/true" || { fail runner "qemu-i386-static cannot run $BIN/true"; exit 1; }
	pass runner.qemu_user
else
	pass runner.native
fi

# ---- 1. the libc self-tests: forward their PASS/FAIL lines --------------------
for t in "$B"/tests/t_*; do
	name=$(basename "$t")
	out=$("$t" "$T" 2>&1)
	rc=$?
	echo "$out" | sed -n 's/^\(PASS\|FAIL\) /\1 user.libc./p'
	if [ $rc -ne 0 ] && ! echo "$out" | grep -q '^FAIL'; then
		fail "libc.$name" "exit status $rc without a FAIL line (crash?)"
	fi
done

# ---- 2. utilities: run them, then check the resulting state ------------------
printf 'one two three\nfour five\n\nsix\n' > words
head -c 20000 /dev/urandom > random.bin

"$BIN/cp" random.bin copy.bin
check utils.cp_identical cmp random.bin copy.bin
mkdir cpdir
"$BIN/cp" words random.bin cpdir
check utils.cp_into_dir cmp words cpdir/words

"$BIN/mkdir" -p a/b/c
check utils.mkdir_p test -d a/b/c
check utils.mkdir_p_existing "$BIN/mkdir" -p a/b/c
check utils.mkdir_exists_fails sh -c "! '$BIN/mkdir' a"
"$BIN/rmdir" a/b/c
check utils.rmdir test ! -e a/b/c

"$BIN/ln" -s words wlink
check_eq utils.ln_s "$(readlink wlink)" words
"$BIN/ln" words hardlink
check_eq utils.ln_hard "$(stat -c %h words)" 2

"$BIN/mv" hardlink moved
check utils.mv test ! -e hardlink -a -f moved
check utils.mv_same_inode test "$(stat -c %i moved)" = "$(stat -c %i words)"

"$BIN/rm" moved
check utils.rm test ! -e moved
"$BIN/rm" -r a
check utils.rm_r test ! -e a
check utils.rm_missing_fails sh -c "! '$BIN/rm' nonexistent 2>/dev/null"
check utils.rm_f_missing "$BIN/rm" -f nonexistent

check_eq utils.wc_l "$("$BIN/wc" -l words)" "4 words"
check_eq utils.wc_w "$("$BIN/wc" -w < words)" 6
check_eq utils.wc_c "$("$BIN/wc" -c < random.bin)" 20000
check_eq utils.wc_all "$("$BIN/wc" words)" "4 6 29 words"

# head, tail, grep, sort, uniq, tee, xargs, touch: against the host's own
# (GNU) tools on the same input, and on the files they leave behind.
seq 1 25 | sed 's/^/line /' > lines
printf 'pear\nApple\nfig\n10 ten\n9 nine\n100 hundred\nfig\nfig\nkiwi' > fruit
check_eq utils.head_default "$("$BIN/head" lines | cksum)" "$(head lines | cksum)"
check_eq utils.head_n "$("$BIN/head" -n 3 lines)" "$(head -n 3 lines)"
check_eq utils.head_c "$("$BIN/head" -c 7 < lines)" "line 1"
check_eq utils.head_two_files "$("$BIN/head" -n 1 lines fruit | cksum)" "$(head -n 1 lines fruit | cksum)"
check_eq utils.head_n0 "$("$BIN/head" -n 0 lines | wc -c)" 0
check_eq utils.tail_default "$("$BIN/tail" lines | cksum)" "$(tail lines | cksum)"
check_eq utils.tail_n "$("$BIN/tail" -n 2 < lines)" "$(tail -n 2 lines)"
check_eq utils.tail_unterminated "$("$BIN/tail" -n 2 fruit | cksum)" "$(tail -n 2 fruit | cksum)"
check_eq utils.tail_more_than_all "$("$BIN/tail" -n 99 fruit | cksum)" "$(cksum < fruit)"
for re in 'fig' '^f' 'i$' 'p.a' '^[0-9]*0 ' '[^a-z ]' 'k.*i' '^$' 'x*' '\.' '[A-Z]'; do
	check_eq "utils.grep_re_$(echo "$re" | tr -c 'a-zA-Z0-9\n' '_')" \
		"$("$BIN/grep" -n "$re" fruit | cksum)" "$(grep -n "$re" fruit | cksum)"
done
check_eq utils.grep_i "$("$BIN/grep" -i apple fruit)" Apple
check_eq utils.grep_v_c "$("$BIN/grep" -v -c fig fruit)" "$(grep -v -c fig fruit)"
check_eq utils.grep_two_files "$("$BIN/grep" 'line 2' lines fruit | cksum)" "$(grep 'line 2' lines fruit | cksum)"
"$BIN/grep" -q kiwi fruit; check_eq utils.grep_status_found $? 0
"$BIN/grep" -q plum fruit; check_eq utils.grep_status_none $? 1
"$BIN/grep" plum nonexistent 2>/dev/null; check_eq utils.grep_status_error $? 2
check_eq utils.sort "$("$BIN/sort" fruit | cksum)" "$(LC_ALL=C sort fruit | cksum)"
check_eq utils.sort_r "$("$BIN/sort" -r fruit | cksum)" "$(LC_ALL=C sort -r fruit | cksum)"
check_eq utils.sort_n "$(grep '^[0-9]' fruit | "$BIN/sort" -n | tr '\n' ,)" "9 nine,10 ten,100 hundred,"
check_eq utils.sort_u "$("$BIN/sort" -u fruit | cksum)" "$(LC_ALL=C sort -u fruit | cksum)"
check_eq utils.sort_uniq_c "$("$BIN/sort" fruit | "$BIN/uniq" -c | cksum)" "$(LC_ALL=C sort fruit | uniq -c | cksum)"
check_eq utils.uniq_d "$("$BIN/sort" fruit | "$BIN/uniq" -d)" fig
check_eq utils.uniq_u "$("$BIN/uniq" -u fruit | cksum)" "$(uniq -u fruit | cksum)"
"$BIN/uniq" fruit uniq.out
check_eq utils.uniq_output_file "$(cksum < uniq.out)" "$(uniq fruit | cksum)"
check_eq utils.tee_stdout "$("$BIN/tee" tee1 tee2 < lines | cksum)" "$(cksum < lines)"
check_eq utils.tee_files "$(cat tee1 tee2 | cksum)" "$(cat lines lines | cksum)"
echo more | "$BIN/tee" -a tee1 >/dev/null
check_eq utils.tee_append "$(tail -n 2 tee1)" "line 25
more"
check_eq utils.xargs_echo "$(printf 'a b\nc\n' | "$BIN/xargs")" "a b c"
check_eq utils.xargs_n "$(printf 'a b c d e' | "$BIN/xargs" -n 2 echo -)" "- a b
- c d
- e"
printf 'x1 x2\n' | "$BIN/xargs" touch
check utils.xargs_runs_command test -f x1 -a -f x2
printf 'q' | "$BIN/xargs" false; check_eq utils.xargs_status_123 $? 123
printf 'q' | "$BIN/xargs" no-such-program 2>/dev/null; check_eq utils.xargs_status_127 $? 127
"$BIN/touch" touched
check utils.touch_creates test -f touched -a ! -s touched
touch -d '2001-02-03 04:05:06' touched
"$BIN/touch" touched
check utils.touch_sets_mtime_now test $(( $(date +%s) - $(stat -c %Y touched) )) -lt 60
touch -d '2001-02-03 04:05:06' touched
"$BIN/touch" -c touched notcreated
check utils.touch_c_no_create test ! -e notcreated
check_eq utils.touch_c_still_sets "$(( $(stat -c %Y touched) > 981173106 ))" 1

check_eq utils.cat "$("$BIN/cat" words | cksum)" "$(cksum < words)"
check_eq utils.cat_binary "$("$BIN/cat" random.bin random.bin | cksum)" "$(cat random.bin random.bin | cksum)"
check_eq utils.echo "$("$BIN/echo" a 'b  c' d)" "a b  c d"
check_eq utils.echo_n "$("$BIN/echo" -n x; echo y)" "xy"

chmod 640 words
out=$("$BIN/ls" -l words)
# owner and group by name, from the host's /etc/passwd and /etc/group
want=$(printf '%s %3u %-8s %-8s %8s %s' -rw-r----- 1 "$(id -un)" "$(id -gn)" 29 words)
case "$out" in
"$want") pass utils.ls_l_mode_size ;;
*) fail utils.ls_l_mode_size "got '$out', want '$want'" ;;
esac
out=$("$BIN/ls" -l wlink)
case "$out" in
lrwxrwxrwx*" 5 wlink -> words") pass utils.ls_l_symlink ;;
*) fail utils.ls_l_symlink "got '$out'" ;;
esac
out=$("$BIN/ls" -ld cpdir)
case "$out" in d*) pass utils.ls_ld_dir ;; *) fail utils.ls_ld_dir "got '$out'" ;; esac
check_eq utils.ls_sorted "$("$BIN/ls" cpdir | tr '\n' ' ')" "random.bin words "
touch .hidden
check utils.ls_hides_dotfiles sh -c "! '$BIN/ls' | grep -q hidden"
check utils.ls_a_shows_dotfiles sh -c "'$BIN/ls' -a | grep -q hidden"

check_eq utils.hexdump_C "$("$BIN/hexdump" -C random.bin | cksum)" "$(hexdump -C random.bin | cksum)"
check_eq utils.hexdump_small "$(printf 'hello\n' | "$BIN/hexdump" -C)" \
"00000000  68 65 6c 6c 6f 0a                                 |hello.|
00000006"

out=$("$BIN/stat" words)
case "$out" in
*"Size: 29"*"Links: 1"*"(0640/-rw-r-----)"*) pass utils.stat ;;
*) fail utils.stat "got '$out'" ;;
esac

check utils.true "$BIN/true"
check utils.false sh -c "! '$BIN/false'"
check utils.cmp_same "$BIN/cmp" random.bin copy.bin
check utils.cmp_differs sh -c "! '$BIN/cmp' random.bin words >/dev/null"
check utils.sync "$BIN/sync"
start=$(date +%s%N)
"$BIN/sleep" 0.3
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
check utils.sleep test "$elapsed" -ge 290

# The victim must have exec'd sleep before we signal it: until then the
# forked child is still this shell, with our EXIT trap (rm -rf "$T"), which
# bash runs when a fatal signal kills it; that deleted our working
# directory under every later check (seen under load).
# wait_exec PID NAME: wait (at most ~5 s) until PID runs the program NAME.
# runs PID NAME: PID runs NAME (natively, or as qemu-i386-static's program)
runs() {
	local comm
	comm=$(cat /proc/$1/comm 2>/dev/null)
	[ "$comm" = "$2" ] && return 0
	[ -n "$QEMU_USER" ] && [ "$comm" = qemu-i386-stati ] &&
		[ "$(tr '\0' '\n' < /proc/$1/cmdline 2>/dev/null | sed -n 4p | xargs basename 2>/dev/null)" = "$2" ]
}
wait_exec() {
	for _ in $(seq 500); do
		runs "$1" "$2" && return 0
		sleep 0.01
	done
	return 1
}
sleep 10 & victim=$!
wait_exec $victim sleep
"$BIN/kill" -TERM $victim
wait $victim 2>/dev/null
check_eq utils.kill_TERM $? 143
sleep 10 & victim=$!
wait_exec $victim sleep
"$BIN/kill" -9 $victim
wait $victim 2>/dev/null
check_eq utils.kill_9 $? 137

# ps lists this script's shell with its parent (from the host's /proc:
# stat's PPID field, cmdline for COMMAND); df agrees with GNU df on the
# size of / (statfs64 through /proc/mounts).
"$BIN/ps" > ps.out
check_eq utils.ps_header "$(sed -n 1p ps.out)" "  PID  PPID S PSR     TIME COMMAND"
# PSR: stat's field 39, a CPU of this host (it may move between the reads).
check utils.ps_psr_is_a_cpu sh -c "awk -v p=$$ -v n=$(nproc) '\$1 == p && \$4 ~ /^[0-9]+\$/ && \$4 < n { ok = 1 } END { exit !ok }' ps.out"
check_eq utils.ps_self_ppid "$(awk -v p=$$ '$1 == p { print $2 }' ps.out)" "$PPID"
check utils.ps_self_cmdline sh -c "awk -v p=$$ '\$1 == p' ps.out | grep -q userland.sh"
check_eq utils.ps_init "$(awk '$1 == 1 { print $2 }' ps.out)" 0
"$BIN/df" > df.out 2>/dev/null
check_eq utils.df_root_blocks "$(awk '$6 == "/" { print $2 }' df.out)" \
	"$(df -kP / | awk 'NR == 2 { print $2 }')"
check_eq utils.df_header "$(sed -n 1p df.out)" \
	"Filesystem     1K-blocks      Used Available Use% Mounted on"
# df FILE: the mount FILE is on, the mount point and size GNU df gives.
"$BIN/df" "$PWD" > df1.out 2>/dev/null
check_eq utils.df_file_mount "$(awk 'NR == 2 { print $6 }' df1.out)" \
	"$(df -kP "$PWD" | awk 'NR == 2 { print $6 }')"
check_eq utils.df_file_blocks "$(awk 'NR == 2 { print $2 }' df1.out)" \
	"$(df -kP "$PWD" | awk 'NR == 2 { print $2 }')"
check_eq utils.df_file_lines "$(wc -l < df1.out)" 2
"$BIN/df" /nonexistent-vellum > /dev/null 2>&1
check_eq utils.df_missing_file_status $? 1

# mount with no arguments: a line per line of /proc/mounts, as Linux's
# mount words it ("SRC on DIR type TYPE (OPTIONS)").
check_eq utils.mount_lists "$("$BIN/mount" | wc -l)" "$(wc -l < /proc/mounts)"
check_eq utils.mount_lists_root "$("$BIN/mount" | awk '$3 == "/" { print $1, $2, $4, $5; exit }')" \
	"$(awk '$2 == "/" { print $1, "on type", $3; exit }' /proc/mounts)"

# clear: the cursor home and the screen erased, ANSI's two sequences, nothing else.
check_eq utils.clear "$("$BIN/clear" | od -An -c | tr -s ' ')" " 033 [ H 033 [ 2 J"

# Every utility rejects bad usage with a non-zero status.
for u in "ls -Z" "cat -Z" "mkdir" "mkdir -Z x" "rmdir" "rm" "mv a" "cp a" "ln" "ln -s a" \
	 "wc -Z" "stat" "hexdump -Z" "sync x" "sleep" "sleep abc" "kill" "kill -NOPE 1" \
	 "mount -r" "mount onlyone" "umount" "dmesg x" "poweroff x" "reboot x" "cmp a" "uname -Z" \
	 "sh -Z" "head -Z" "tail -Z" "tail a b" "grep" "grep -Z x" "sort -Z" "uniq -Z" "uniq a b c" \
	 "tee -Z" "touch" "touch -Z x" "xargs -Z" "ps x" "df -Z" "clear x"; do
	set -- $u
	prog=$1; shift
	"$BIN/$prog" "$@" >/dev/null 2>usage.err
	rc=$?
	if [ $rc -ne 0 ] && grep -q "usage" usage.err; then
		pass "usage.$prog${1:+_}$(echo "$*" | tr -c 'a-zA-Z0-9\n' '_')"
	else
		fail "usage.$prog${1:+_}$(echo "$*" | tr -c 'a-zA-Z0-9\n' '_')" "status $rc"
	fi
done

# ---- 3. the shell ----------------------------------------------------------------
SH=$BIN/sh
export PATH="$BIN:$PATH"

check_eq sh.pipe "$("$SH" -c 'echo a b | wc -w')" 2
check_eq sh.pipe3 "$("$SH" -c 'cat words | cat | wc -l')" 4
"$SH" -c 'echo hello > out1; echo world >> out1; ls nonexistent 2> err2'
check_eq sh.redirect_out "$(cat out1)" "hello
world"
check sh.redirect_err grep -q nonexistent err2
check_eq sh.redirect_in "$("$SH" -c 'wc -l < words')" 4
check_eq sh.redirect_2to1 "$("$SH" -c 'ls nonexistent 2>&1 | wc -l')" 1
check_eq sh.status "$("$SH" -c 'false; echo $?; true; echo $?')" "1
0"
check_eq sh.not_found_127 "$("$SH" -c 'nosuchcmd 2>/dev/null; echo $?')" 127
check sh.not_found_message /bin/sh -c "'$SH' -c nosuchcmd 2>&1 | grep -q 'sh: nosuchcmd: not found'"
"$SH" -c 'exit 7'
check_eq sh.exit_status $? 7
check_eq sh.cd_pwd "$("$SH" -c 'mkdir -p d1/d2; cd d1/d2; pwd')" "$T/d1/d2"
check_eq sh.cd_fail "$("$SH" -c 'cd /nonexistent 2>/dev/null; echo $?')" 1
check_eq sh.quotes "$("$SH" -c "echo 'a  |  b' \"x \$? y\" c\\ d")" "a  |  b x 0 y c d"
check_eq sh.variables "$("$SH" -c 'X=hello; export Y=world; echo $X ${Y}!')" "hello world!"
check_eq sh.env_to_child "$("$SH" -c 'export Z=zz; sh -c "echo \$Z"')" zz
check_eq sh.and_or "$("$SH" -c 'true && echo yes; false && echo no; false || echo alt')" "yes
alt"
check_eq sh.comment "$("$SH" -c 'echo visible # echo hidden')" visible
check_eq sh.semicolons "$("$SH" -c 'echo 1; echo 2;echo 3')" "1
2
3"
check_eq sh.builtin_in_pipe "$("$SH" -c 'pwd | wc -l')" 1
check sh.syntax_error /bin/sh -c "! '$SH' -c 'echo a | | b' 2>/dev/null"

# Control flow, test/[, variables, $(...) and $((...)): each result is
# what the commands printed or left in files, compared with what a POSIX
# shell gives.
check_eq sh.for "$("$SH" -c 'for i in a b "c d"; do echo "<$i>"; done')" "<a>
<b>
<c d>"
check_eq sh.for_split "$("$SH" -c 'L="x y  z"; for w in $L; do echo -n "$w,"; done; for w in "$L"; do echo "[$w]"; done')" "x,y,z,[x y  z]"
check_eq sh.for_args "$("$SH" -c 'for a; do echo $a; done' zero one two)" "one
two"
check_eq sh.while_arith "$("$SH" -c 'i=0; while [ $i -lt 3 ]; do echo $i; i=$((i + 1)); done; echo end=$i')" "0
1
2
end=3"
check_eq sh.until "$("$SH" -c 'n=3; until test $n -eq 0; do n=$((n-1)); done; echo $n')" 0
check_eq sh.if_elif_else "$("$SH" -c 'for x in 1 2 3; do if [ $x = 1 ]; then echo one; elif [ $x -eq 2 ]; then echo two; else echo other; fi; done')" "one
two
other"
check_eq sh.if_no_branch_status "$("$SH" -c 'if false; then echo no; fi; echo $?')" 0
check_eq sh.if_status "$("$SH" -c 'if true; then false; fi; echo $?')" 1
check_eq sh.break_continue "$("$SH" -c 'for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done')" "1
3"
check_eq sh.break_2 "$("$SH" -c 'for a in 1 2; do for b in x y; do echo $a$b; break 2; done; done; echo out')" "1x
out"
check_eq sh.nested_loops "$("$SH" -c 'for a in 1 2; do for b in x y; do echo -n $a$b" "; done; done; echo')" "1x 1y 2x 2y "
check_eq sh.cmdsubst "$("$SH" -c 'v=$(echo hello   world); echo "[$v]" [$(echo a; echo b)]')" "[hello world] [a b]"
check_eq sh.cmdsubst_nested "$("$SH" -c 'echo $(echo $(echo deep) "(x)")')" "deep (x)"
check_eq sh.cmdsubst_status "$("$SH" -c 'x=$(false); echo $?; x=$(exit 3); echo $?')" "1
3"
check_eq sh.cmdsubst_in_quotes "$("$SH" -c 'echo "a$(echo "b  c")d"')" "ab  cd"
check_eq sh.arith "$("$SH" -c 'x=7; echo $((x * 2 + 1)) $(( (1+2) * 3 )) $((x / 2)) $((x % 3)) $((-x)) $((x > 5)) $((x == 6))')" "15 9 3 1 -7 1 0"
# Globbing, against the host's POSIX sh (dash) in the C locale on the same
# files: patterns typed unquoted become the sorted matches (hidden names
# only with a typed dot, across directories, [sets]); quoted or escaped
# ones, and patterns matching nothing, stay as written.
mkdir -p globs/sub && (cd globs && touch a.c b.c .hidden x.txt sub/y.c 'sp ace.c')
glob() {                                # glob NAME SCRIPT
    local want got
    want=$(cd globs && LC_ALL=C /bin/sh -c "$2" 2>&1)
    got=$(cd globs && "$SH" -c "$2" 2>&1)
    check_eq "sh.glob_$1" "$got" "$want"
}
glob star 'echo *.c'
glob quoted 'echo "*.c" \*.c '"'"'*'"'"'.c'
glob no_match 'echo *.none a.['
glob dirs 'echo sub/*.c s*/y.? */'
glob sets 'echo ?.c [ab].c [!a].c'
glob hidden 'echo *; echo .*'
glob for 'for f in *.c; do echo "<$f>"; done'
glob absolute "echo $T/globs/*.txt"
glob command 'wc -c *.txt'

# t SCRIPT: the shell's output with newlines as spaces
t() { "$SH" -c "$1" 2>/dev/null | tr '\n' ' '; }
check_eq sh.test_strings "$(t 'test a = a; echo $?; [ a != a ]; echo $?; [ -z "" ]; echo $?; [ -n "" ]; echo $?; [ ! -n "" ]; echo $?; [ x ]; echo $?; [ "" ]; echo $?; [ ]; echo $?')" "0 1 0 1 0 0 1 1 "
check_eq sh.test_numbers "$(t 'for op in -eq -ne -lt -le -gt -ge; do [ 2 $op 3 ]; echo -n $?; [ 3 $op 3 ]; echo -n $?; done; echo')" "100101001110 "
check_eq sh.test_files "$(t 'mkdir -p tdir; : > tempty; echo x > tfull; for p in tdir tempty tfull nonexistent; do [ -e $p ]; echo -n $?; [ -f $p ]; echo -n $?; [ -d $p ]; echo -n $?; [ -s $p ]; echo -n $?; echo -n " "; done')" "0100 0011 0010 1111 "
check_eq sh.test_errors "$(t '[ 1 -eq x ]; echo $?; [ a = b; echo $?; test a b c d e; echo $?')" "2 2 2 "
check_eq sh.variables_local "$("$SH" -c 'L=local; export E=exp; sh -c "echo \"[\$L][\$E]\""; export L; sh -c "echo \$L"')" "[][exp]
local"
check_eq sh.variables_unset "$(t 'A=1; unset A; echo "[$A]"; echo "${HOME_NOPE}x"')" "[] x "
"$SH" -c 'echo $$ > pid.out' & shpid=$!
wait $shpid
check_eq sh.pid_var "$(cat pid.out)" "$shpid"
check_eq sh.read_loop "$(printf 'a b c\nd e\n' | "$SH" -c 'while read x rest; do echo "$x|$rest"; done')" "a|b c
d|e"
check_eq sh.loop_redirect "$("$SH" -c 'for i in 1 2 3; do echo $i; done > loop.out; wc -l < loop.out')" 3
check_eq sh.loop_pipe "$("$SH" -c 'for i in 1 2 3; do echo $i; done | wc -l')" 3
check_eq sh.negate "$(t '! false; echo $?; ! true; echo $?')" "0 1 "
check_eq sh.multiline "$("$SH" -c 'for i in 1 2
do
  if [ $i = 2 ]
  then echo two
  fi
done
echo after')" "two
after"
check sh.syntax_error_fi /bin/sh -c "! '$SH' -c 'fi' 2>/dev/null"
check sh.syntax_error_open_if /bin/sh -c "'$SH' -c 'if true; then echo x' 2>&1 | grep -q 'unexpected end'"
check sh.syntax_error_for_name /bin/sh -c "! '$SH' -c 'for 1x in a; do :; done' 2>/dev/null"
cat > loops.sh <<'SCRIPT'
# a script with loops: count the lines of each file given, sum them
total=0
for f in "$@"; do
	n=0
	while read line; do
		n=$((n + 1))
	done < $f
	echo "$f $n"
	total=$((total + n))
done
if [ $total -gt 4 ]; then echo "total $total: more than 4"; else echo "total $total"; fi
SCRIPT
check_eq sh.script_loops "$("$SH" loops.sh words out1)" "words 4
out1 2
total 6: more than 4"

cat > script.sh <<'SCRIPT'
# a script file with arguments
echo "args: $# $1 $2"
cd /
pwd
ls /nonexistent 2>/dev/null
echo "status $?"   # our ls: 1
exit 3
SCRIPT
out=$("$SH" script.sh A B)
rc=$?
check_eq sh.script_output "$out" "args: 2 A B
/
status 1"
check_eq sh.script_exit_status $rc 3

# Background: $! is the job's pid; it runs in its own process group, and
# the shell reaps it (no zombie left once the next command line starts).
out=$("$SH" -c 'true & echo $!; sleep 0.3; echo next; cat /proc/$!/stat >/dev/null 2>&1; echo gone=$?')
bgpid=$(echo "$out" | head -1)
check sh.background_pid test "$bgpid" -gt 0
check_eq sh.background_reaped "$(echo "$out" | tail -1)" "gone=1"
check_eq sh.background_runs "$("$SH" -c 'echo bg > bgout & wait; cat bgout')" bg
check_eq sh.wait_status "$("$SH" -c 'sh -c "exit 5" & wait $!; echo $?')" 5
# the job ends and is reaped (before the pipeline `true`) before the wait
check_eq sh.wait_status_after_reap "$("$SH" -c 'sh -c "exit 6" & sleep 0.3; true; wait $!; echo $?')" 6
# the process group is field 5 of /proc/PID/stat ("PID (COMM) S PPID PGRP")
pgrp_of() { sed 's/.*) //' "$1" | cut -d' ' -f3; }
"$SH" -c 'sleep 2 & cat /proc/$!/stat > bgstat; cat /proc/$$/stat > shstat'
check sh.background_own_pgrp test -n "$(pgrp_of bgstat)" -a "$(pgrp_of bgstat)" != "$(pgrp_of shstat)"

# SIGINT: the shell ignores it; its foreground child dies of it (status 130).
# A SIGINT death also ends the rest of that command line (as Ctrl-C ends a
# loop), so the status is echoed by the script's next line.
printf 'sleep 3\necho child=$?\n' > sigint.sh
"$SH" sigint.sh > sigint.out 2>/dev/null &
shpid=$!
wait_exec $shpid sh                     # our sh, not the forked bash (see above)
child=""
for _ in $(seq 500); do                 # its foreground child runs sleep
	c=$(pgrep -P $shpid) && runs "$c" sleep && { child=$c; break; }
	sleep 0.01
done
kill -INT $shpid                        # at the shell: ignored
[ -n "$child" ] && kill -INT "$child"   # at the child: default action
wait $shpid
check_eq sh.sigint_shell_survives_child_dies "$(cat sigint.out)" "child=130"

# Interactive, on a real pseudo-terminal (needs python3's pty module):
# the prompt, a pipeline, Ctrl-C killing the foreground job (status 130)
# while the shell lives on, a background job reported when reaped, and
# the line editor's Up and Tab (tools/tests/shell_keys.sh has the rest).
if command -v python3 >/dev/null 2>&1; then
	out=$(timeout 30 python3 - "$SH" "$BIN" <<'PY' 2>&1
import os, pty, select, sys, time
sh, bindir = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ["PATH"] = bindir
    os.execv(sh, ["sh"])
def talk(data, wait=0.6):
    if data:
        os.write(fd, data)
    out, end = b"", time.time() + wait
    while time.time() < end:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out.decode(errors="replace")
print("prompt" if "$ " in talk(b"") else "no-prompt")
print("pipe" if "\n3\r" in talk(b"echo hi | wc -c\n") else "no-pipe")
talk(b"sleep 5\n", 0.5)
talk(b"\x03", 0.5)
print("ctrl-c" if "status 130" in talk(b"echo status $?\n") else "no-ctrl-c")
talk(b"sleep 0.2 &\n", 0.6)
print("reaped" if "done, status 0" in talk(b"true\n") else "not-reaped")
# the line editor (user/sh/lineedit.c) on Linux's tty: Up runs the last
# line again; Tab completes the builtin echo
talk(b"echo hist1\n")
print("history" if "\r\nhist1\r\n" in talk(b"\x1b[A\n") else "no-history")
print("tab" if "\r\ntabbed\r\n" in talk(b"ech\ttabbed\n") else "no-tab")
talk(b"exit 3\n", 0.3)
print("exit", os.waitpid(pid, 0)[1] >> 8)
PY
)
	for w in prompt pipe ctrl-c reaped history tab "exit 3"; do
		name="sh.tty_$(echo "$w" | tr ' -' '__')"
		if echo "$out" | grep -qx "$w"; then pass "$name"; else fail "$name" "$(echo $out)"; fi
	done
else
	echo "SKIP user.sh.tty_* (python3 not installed: no pseudo-terminal test)"
fi

# ---- 4. init, with its paths pointed at a test tree ---------------------------
mkdir -p etc
cat > etc/rc <<'RC'
echo rc-ran > rc.out
RC
out=$(echo 'echo from-shell; exit 4' | INIT_CONSOLE=/nonexistent INIT_RC=$T/etc/rc \
	INIT_SHELL=$SH INIT_ONCE=1 "$B/sbin/init" 2>&1)
rc=$?
check init.runs_rc grep -q rc-ran rc.out
case "$out" in *Welcome*) pass init.banner ;; *) fail init.banner "got '$out'" ;; esac
case "$out" in *from-shell*) pass init.starts_shell ;; *) fail init.starts_shell "got '$out'" ;; esac
check_eq init.shell_status $rc 4

# ---- 5. the staging root tree ---------------------------------------------------
R=$BDIR/rootfs
for f in bin/sh bin/ls sbin/init etc/rc README tests/t_printf; do
	check "rootfs.$(echo $f | tr / _)" test -e "$R/$f"
done
check rootfs.dirs test -d "$R/dev" -a -d "$R/tmp"
