# tools/tests/oops.sh: deliberate faults (the oops= boot option of the test
# kernel, kernel/oops_test.c) must explain themselves, Linux style, and end
# the QEMU run with a failure status.
#   oops=null    a NULL dereference in oops_null_deref(): the report says
#                "BUG: unable to handle page fault for address: 0x00000000",
#                a "#PF error_code(...)" line decoding not-present, read/write
#                and kernel mode, "EIP: oops_null_deref+0xOFF/0xSIZE" and a
#                "Call Trace:"
#   oops=divide  a division by zero: the report names the divide error and
#                the faulting function
#   oops=bug     BUG_ON() in oops_bug(): "kernel BUG at kernel/oops_test.c:N!",
#                the condition, a Call Trace naming oops_bug, failure status
#   oops=spinlock  a spinlock taken twice in oops_spinlock(): "BUG: spinlock
#                recursion" naming the lock, then "kernel BUG at
#                kernel/spinlock.c:N!", a Call Trace naming oops_spinlock,
#                failure status
#   every report is printed once: one BUG line, one "Oops:" line (never
#                "Oops: Oops:"), one "Kernel panic" line
#   oops=stack   unbounded recursion in oops_stack_recurse() on the kthread
#                oops_stack, whose stack has an unmapped guard page: the #PF
#                cannot be delivered, so a double fault; the double-fault task
#                (its own TSS and stack) must report "double fault", "kernel
#                stack overflow", the task and the recursing function, and
#                exit with failure (a triple fault would exit 0)
source "$(dirname "$0")/../testlib.sh"
dir=${TMPDIR:-/tmp}

check() {                                  # check NAME WHY GREP-ARGS...
    local name=$1 why=$2; shift 2
    if tr -d '\r' < "$log" | grep -qE "$@"; then pass "$name"; else fail "$name ($why)"; bad=1; fi
}
# The words on the #PF line must say what the error code's bits say:
# bit 0 present (protection violation) or not, bit 1 write or read, bit 2 user
# or kernel mode.
check_error_code_decoding() {
    local name=$1 line ec want
    line=$(tr -d '\r' < "$log" | grep -m1 -E '#PF error_code\(0x[0-9a-fA-F]+\)')
    ec=$(sed -E 's/.*error_code\((0x[0-9a-fA-F]+)\).*/\1/' <<<"$line")
    if [ -z "$line" ]; then fail "$name (no #PF error_code line)"; bad=1; return; fi
    for want in "$( ((ec & 1)) && echo 'protection violation' || echo 'not-present')" \
                "$( ((ec & 2)) && echo write || echo read)" \
                "$( ((ec & 4)) && echo 'user mode' || echo 'kernel mode')"; do
        if ! grep -q "$want" <<<"$line"; then
            fail "$name (error_code($ec) but the line does not say '$want': $line)"; bad=1; return
        fi
    done
    pass "$name"
}
exit_status_is_failure() {                 # isa-debug-exit failure: odd, > 1
    local name=$1
    if [ $rc -gt 1 ] && [ $rc -lt 124 ] && [ $((rc % 2)) = 1 ]; then pass "$name"
    else fail "$name (QEMU $(qemu_status_text $rc); an oops must exit with failure)"; bad=1; fi
}

# Both boots at once: each is short, and a broken oops path costs a timeout.
vellum_qemu "$dir/oops-null.log" 15 -kernel "$TKERNEL" -append "oops=null" &
null_pid=$!
vellum_qemu "$dir/oops-divide.log" 15 -kernel "$TKERNEL" -append "oops=divide" &
divide_pid=$!
vellum_qemu "$dir/oops-stack.log" 15 -kernel "$TKERNEL" -append "oops=stack" &
stack_pid=$!
vellum_qemu "$dir/oops-bug.log" 15 -kernel "$TKERNEL" -append "oops=bug" &
bug_pid=$!
vellum_qemu "$dir/oops-spinlock.log" 15 -kernel "$TKERNEL" -append "oops=spinlock" &
spinlock_pid=$!

# printed_once NAME REGEX: exactly one line of the log matches.
printed_once() {
    local name=$1 n
    n=$(tr -d '\r' < "$log" | grep -cE "$2")
    if [ "$n" = 1 ]; then pass "$name"; else fail "$name ($n lines match '$2', want 1)"; bad=1; fi
}

# begin KIND PID: the checks of oops=KIND start (its QEMU, PID, has ended).
begin() {
    bad=0
    log=$dir/oops-$1.log
    wait "$2"; rc=$?
}
# call_trace_names NAME FUNCTION: FUNCTION's frame in the Call Trace.
call_trace_names() {
    if tr -d '\r' < "$log" | grep -A6 'Call Trace:' | grep -qE "\] $2\+0x"; then pass "$1"
    else fail "$1 (no $2 frame after 'Call Trace:')"; bad=1; fi
}

begin null $null_pid
check oops.null_reports_page_fault "no 'BUG: unable to handle page fault'" \
    'BUG: unable to handle page fault'
check oops.null_cr2 "CR2 0x00000000 not reported" \
    'unable to handle page fault for address: 0x0+\b'
check oops.null_error_code "no '#PF error_code(0x..)' line decoding not-present, read/write, kernel mode" \
    '#PF error_code\(0x[0-9a-fA-F]+\).*not-present.*(read|write).*kernel'
check_error_code_decoding oops.null_error_code_matches_bits
check oops.null_names_function "no 'EIP: oops_null_deref+0x../0x..'" \
    'EIP: *(0x[0-9a-f]+ *)?<?oops_null_deref\+0x[0-9a-f]+/0x[0-9a-f]+'
if tr -d '\r' < "$log" | grep -A1 'Call Trace:' | grep -qE '\[<c[0-9a-f]{7}>\] [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+'; then
    pass oops.null_call_trace
else fail "oops.null_call_trace (no 'Call Trace:' followed by a [<addr>] name+0xoff/0xsize frame)"; bad=1; fi
exit_status_is_failure oops.null_exit_status
printed_once oops.null_one_bug_line 'BUG:|kernel BUG at'
printed_once oops.null_one_oops_line 'Oops:'
if tr -d '\r' < "$log" | grep -q 'Oops: Oops'; then fail "oops.null_no_oops_oops ('Oops: Oops:')"; bad=1
else pass oops.null_no_oops_oops; fi
printed_once oops.null_one_panic_line 'Kernel panic'
[ $bad = 0 ] || show_tail "$log"

begin bug $bug_pid
check oops.bug_file_line "no 'kernel BUG at kernel/oops_test.c:N!'" \
    'kernel BUG at [a-z/_]*oops_test\.c:[0-9]+!'
check oops.bug_condition "no 'BUG_ON(broken)' in the panic line" \
    'Kernel panic - not syncing: BUG_ON\(broken\)'
call_trace_names oops.bug_call_trace oops_bug
printed_once oops.bug_one_bug_line 'BUG:|kernel BUG at'
exit_status_is_failure oops.bug_exit_status
[ $bad = 0 ] || show_tail "$log"

begin spinlock $spinlock_pid
check oops.spinlock_recursion_reported "no 'BUG: spinlock recursion on oops_lock'" \
    'BUG: spinlock recursion on oops_lock .*owner'
check oops.spinlock_file_line "no 'kernel BUG at kernel/spinlock.c:N!'" \
    'kernel BUG at [a-z/_]*spinlock\.c:[0-9]+!'
call_trace_names oops.spinlock_call_trace oops_spinlock
exit_status_is_failure oops.spinlock_exit_status
[ $bad = 0 ] || show_tail "$log"

begin divide $divide_pid
check oops.divide_names_fault "no 'divide error' in the report" -i 'divide error'
check oops.divide_names_function "no 'EIP: oops_...+0x../0x..'" \
    'EIP: *(0x[0-9a-f]+ *)?<?oops_[a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+'
exit_status_is_failure oops.divide_exit_status
[ $bad = 0 ] || show_tail "$log"

begin stack $stack_pid
check oops.stack_double_fault "no 'double fault' report (triple fault?)" \
    'PANIC: double fault'
check oops.stack_overflow_named "no 'BUG: kernel stack overflow in task ...'" \
    'BUG: kernel stack overflow in task [0-9]+ \(oops_stack\)'
check oops.stack_task_named "the report does not name the task oops_stack" \
    '^task: [0-9]+ \(oops_stack\) stack [0-9a-f]{8}-[0-9a-f]{8}'
check oops.stack_eip_function "no 'EIP: oops_stack_recurse+0x../0x..'" \
    '^EIP: oops_stack_recurse\+0x[0-9a-f]+/0x[0-9a-f]+'
call_trace_names oops.stack_call_trace oops_stack_recurse
# ESP (saved in the main TSS) must lie below the stack the report names,
# and CR2 (the push that faulted) in the guard page just under it.
line=$(tr -d '\r' < "$log" | grep -m1 -E '^ESI: .* ESP: [0-9a-f]{8}')
esp=$((16#$(sed -E 's/.*ESP: ([0-9a-f]{8}).*/\1/' <<<"${line:-ESP: 00000000}")))
line=$(tr -d '\r' < "$log" | grep -m1 -E '^task: [0-9]+ \(oops_stack\) stack')
lo=$((16#$(sed -E 's/.* stack ([0-9a-f]{8})-.*/\1/' <<<"${line:- stack 00000000-}")))
line=$(tr -d '\r' < "$log" | grep -m1 -E '^CR0: .* CR2: [0-9a-f]{8}')
cr2=$((16#$(sed -E 's/.*CR2: ([0-9a-f]{8}).*/\1/' <<<"${line:-CR2: 00000000}")))
if [ $lo -gt 0 ] && [ $esp -lt $lo ] && [ $cr2 -lt $lo ] && [ $cr2 -ge $((lo - 4096)) ]; then
    pass oops.stack_esp_cr2_below_stack
else
    fail "$(printf 'oops.stack_esp_cr2_below_stack (ESP %#x, CR2 %#x, stack bottom %#x)' $esp $cr2 $lo)"; bad=1
fi
check oops.stack_panics "no 'Kernel panic - not syncing: double fault'" \
    'Kernel panic - not syncing: double fault'
exit_status_is_failure oops.stack_exit_status
[ $bad = 0 ] || show_tail "$log"
exit 0
