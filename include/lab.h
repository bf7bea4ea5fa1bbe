/* include/lab.h: what a course lab's skeleton puts where code is to be written.
 *
 * tools/mklab cuts a student tree from this (the solution) tree: what a lab
 * cuts (tools/labs/NAME.cut) is replaced by its stubs (docs/labs/README.md),
 * and a stub says which function is missing and fails cleanly:
 *
 *     return lab_not_written("generic_perform_write");
 *
 * lab_not_written() prints "LAB: generic_perform_write() is not written
 * yet" on the console (once per function, so a loop does not flood it) and
 * returns -ENOSYS for the stub to return or to turn into its caller's
 * error (ERR_PTR, VM_FAULT_SIGBUS...).
 *
 * A stub that must not fail (its caller has no error to give, or the
 * skeleton has to boot through it) goes on without one and says what it
 * does instead:
 *
 *     lab_not_written_does("scan_pass", "returning 0: the log reads as empty");
 *
 * prints "LAB: scan_pass() is not written yet (returning 0: the log reads
 * as empty)", once.  The grader (tools/testlib.sh, kernel_reports) names
 * both kinds under a failed test.  The solution never calls either, so it
 * includes this header nowhere: mklab adds the #include to a student's
 * file whose stubs call one. */
#ifndef _LAB_H
#define _LAB_H

long lab_not_written(const char *fn);
void lab_not_written_does(const char *fn, const char *what);

#endif
