/*
 * sys/wait.h - waiting for children, and decoding their status word.
 *
 * The status word: low 7 bits = terminating signal (0 if exited),
 * bits 8..15 = exit code (or the stop signal), 0x7f in the low byte =
 * stopped, 0xffff = continued.
 */
#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H

#include <sys/types.h>

#include <linux/wait.h>         /* WNOHANG, WUNTRACED, WCONTINUED */

#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WTERMSIG(s)    ((s) & 0x7f)
#define WIFEXITED(s)   (WTERMSIG(s) == 0)
#define WIFSIGNALED(s) (((s) & 0x7f) != 0 && ((s) & 0x7f) != 0x7f)
#define WIFSTOPPED(s)  (((s) & 0xff) == 0x7f)
#define WSTOPSIG(s)    WEXITSTATUS(s)
#define WIFCONTINUED(s) ((s) == 0xffff)

struct rusage;
pid_t wait(int *status);
pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru);

#endif
