/* include/ksyms.h: the kernel's own symbol table and stack walking
 * (kernel/ksyms.c).
 *
 * The build links the kernel twice; tools/mkksyms.sh turns the first link's
 * text symbols into the .ksyms section (ksyms_count, ksyms_addrs ascending,
 * ksyms_names NUL-separated in the same order), which the second link
 * includes.  Backtraces follow the frame-pointer chain (-fno-omit-frame-pointer):
 *
 *      [ebp + 4] = return address into the caller
 *      [ebp + 0] = the caller's saved ebp  -> next frame
 *
 * which ends where entry code zeroed ebp (boot, trap entry; a trap from
 * kernel code is crossed, see walk_stack_bounded).
 */
#ifndef _KSYMS_H
#define _KSYMS_H
#include <types.h>

/* Name of the function containing addr, or NULL if addr is not in kernel
 * text.  *offset = addr - start of the function, *size = its length (to the
 * next symbol).  Either pointer may be NULL. */
const char *ksym_lookup(unsigned long addr, unsigned long *offset, unsigned long *size);
/* Address of the function called name, 0 if none. */
unsigned long ksym_address(const char *name);
/* "name+0xoff/0xsize" (or "0x%08lx" if unknown) into buf. */
int ksym_snprint(char *buf, size_t size, unsigned long addr);

/* Walk the frame chain starting at frame pointer bp, storing return
 * addresses in out[] (at most max).  Each frame must lie inside [lo, hi),
 * be 4-aligned, strictly above the previous one, and return into kernel
 * text; the walk stops at the first frame that is not.  A frame returning
 * into the trap entry (kernel/x86/entry.S, trap_return_address) is a trap
 * frame: if the trap came from kernel code, the walk goes on with the
 * interrupted instruction's address (exact, not a return address) and the
 * interrupted code's frames, so a report made in a page fault or the timer
 * interrupt names the code that faulted or was interrupted.  Returns the
 * count. */
int walk_stack_bounded(unsigned long bp, unsigned long lo, unsigned long hi,
                       unsigned long *out, int max);
/* The same, with [lo, hi) = the kernel stack holding bp (the boot stack, or
 * a THREAD_SIZE-aligned task stack). */
int walk_stack(unsigned long bp, unsigned long *out, int max);
/* Return addresses of the caller's callers: out[0] is in the function that
 * called save_stack_trace. */
int save_stack_trace(unsigned long *out, int max);
/* Print "Call Trace:" and one "  [<addr>] name+0xoff/0xsize" line per frame. */
void show_trace(unsigned long bp);
void dump_stack(void);                 /* show_trace from the caller */
struct pt_regs;
/* Where a trap frame found the CPU (the tick of a watchdog): one line
 * "EIP: name+0xoff/0xsize", then the Call Trace of the interrupted code
 * from its frame pointer (a trap from kernel mode stays on the stack it
 * interrupted, the one the caller runs on); from user mode, no kernel
 * frames. */
void show_regs_trace(struct pt_regs *regs);
void show_regs_call_trace(struct pt_regs *regs);   /* the Call Trace part alone (die) */

#define STACK_TRACE_DEPTH 24

/* For functions whose names must show up in traces exactly (tests, oops=):
 * gcc's noipa stops clones like "f.constprop.0" and inlining; clang has no
 * noipa and does not rename, noinline is enough there. */
#ifdef __clang__
#define __noipa __attribute__((noinline))
#else
#define __noipa __attribute__((noipa))
#endif
#endif
