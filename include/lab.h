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
 * error (ERR_PTR, VM_FAULT_SIGBUS, 0...).  The solution never calls it, so
 * it includes this header nowhere: mklab adds the #include to a student's
 * file whose stubs call it. */
#ifndef _LAB_H
#define _LAB_H

long lab_not_written(const char *fn);

#endif
