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
exit_status_is_failure() {                 # isa-debug-exit failure: odd, > 1
    local name=$1
    if [ $rc -gt 1 ] && [ $rc -lt 124 ] && [ $((rc % 2)) = 1 ]; then pass "$name"
    else fail "$name (QEMU $(qemu_status_text $rc); an oops must exit with failure)"; bad=1; fi
}

bad=0
log=$dir/oops-null.log
vellum_qemu "$log" 20 -kernel "$KERNEL" -append "oops=null"
rc=$?
check oops.null_reports_page_fault "no 'BUG: unable to handle page fault'" \
    'BUG: unable to handle page fault'
check oops.null_cr2 "CR2 0x00000000 not reported" \
    'unable to handle page fault for address: 0x0+\b'
check oops.null_error_code "no '#PF error_code(0x..)' line decoding not-present, read/write, kernel" \
    '#PF.*error_code\(0x[0-9a-fA-F]+\).*not-present.*(read|write).*(kernel|supervisor)|#PF.*error_code\(0x[0-9a-fA-F]+\).*(kernel|supervisor).*(read|write).*not-present'
check oops.null_names_function "no 'EIP: oops_null_deref+0x../0x..'" \
    'EIP: *(0x[0-9a-f]+ *)?<?oops_null_deref\+0x[0-9a-f]+/0x[0-9a-f]+'
check oops.null_call_trace "no 'Call Trace:'" 'Call Trace:'
exit_status_is_failure oops.null_exit_status
[ $bad = 0 ] || show_tail "$log"

bad=0
log=$dir/oops-divide.log
vellum_qemu "$log" 20 -kernel "$KERNEL" -append "oops=divide"
rc=$?
check oops.divide_names_fault "no 'divide error' in the report" -i 'divide error'
check oops.divide_names_function "no 'EIP: oops_...+0x../0x..'" \
    'EIP: *(0x[0-9a-f]+ *)?<?oops_[a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+'
exit_status_is_failure oops.divide_exit_status
[ $bad = 0 ] || show_tail "$log"
exit 0
