# tools/tests/oops.sh: deliberate faults (the oops= boot option) must explain
# themselves, Linux style, and end the QEMU run with a failure status.
#   oops=null    a NULL dereference in oops_null_deref(): the report says
#                "BUG: unable to handle page fault for address: 0x00000000",
#                a "#PF error_code(...)" line decoding not-present, read/write
#                and kernel mode, "EIP: oops_null_deref+0xOFF/0xSIZE" and a
#                "Call Trace:"
#   oops=divide  a division by zero: the report names the divide error and
#                the faulting function
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
vellum_qemu "$dir/oops-null.log" 15 -kernel "$KERNEL" -append "oops=null" &
null_pid=$!
vellum_qemu "$dir/oops-divide.log" 15 -kernel "$KERNEL" -append "oops=divide" &
divide_pid=$!

bad=0
log=$dir/oops-null.log
wait $null_pid; rc=$?
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
[ $bad = 0 ] || show_tail "$log"

bad=0
log=$dir/oops-divide.log
wait $divide_pid; rc=$?
check oops.divide_names_fault "no 'divide error' in the report" -i 'divide error'
check oops.divide_names_function "no 'EIP: oops_...+0x../0x..'" \
    'EIP: *(0x[0-9a-f]+ *)?<?oops_[a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+'
exit_status_is_failure oops.divide_exit_status
[ $bad = 0 ] || show_tail "$log"
exit 0
