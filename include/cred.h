/* include/cred.h: a task's credentials, the ids every permission check
 * reads (the process layer; kernel/cred.c owns the system calls that
 * change them, fs/attr.c and fs/namei.c read them).  Linux's struct cred
 * and its names (include/linux/cred.h), simplified on purpose:
 *
 *   - the credentials are a plain struct inside the task (task->cred),
 *     copied by fork and changed in place; Linux keeps a reference-counted,
 *     copy-on-write `const struct cred *` (real_cred and cred) and swaps it
 *     with commit_creds().  Only the task itself changes its ids, on one
 *     CPU, so nobody sees a half-changed set; each task (each thread, as in
 *     Linux) has its own copy.
 *   - no capability sets and no user namespaces.  "root" is the whole
 *     privilege model: capable() below answers from the ids, as Linux's
 *     capabilities do for a process that never calls capset(2) (see
 *     capable()); capset(2) may only take capabilities away from that
 *     (cap_dropped_eff, cap_dropped_perm), as Linux's permits.
 *   - the supplementary groups are a small fixed array of NGROUPS_SMALL,
 *     kept sorted as Linux's groups_sort() keeps them; setgroups(2) of more
 *     is -EINVAL (Linux's NGROUPS_MAX is 65536).
 *
 * All zero is root with no supplementary groups: init_task, every kernel
 * thread and init start so.
 */
#ifndef _CRED_H
#define _CRED_H
#include <types.h>

#define NGROUPS_SMALL 32               /* setgroups(2) beyond this: -EINVAL */

struct cred {
    uid_t uid, euid, suid, fsuid;      /* real, effective, saved, file-system */
    gid_t gid, egid, sgid, fsgid;
    int ngroups;                       /* supplementary groups, ascending */
    gid_t groups[NGROUPS_SMALL];
    /* What capset(2) took away from root's rule (kernel/cred.c): the
     * capabilities dropped from the effective and the permitted set, and
     * the inheritable set as given.  Zero but for a process that called
     * capset; execve clears the two dropped sets (root's program starts
     * with every capability again, as Linux). */
    uint64_t cap_dropped_eff, cap_dropped_perm, cap_inheritable;
};

/* The capabilities Vellum checks (Linux's numbers, <uapi/linux/capability.h>);
 * capget(2) reports all of Linux 6.1's, 0 to CAP_LAST_CAP. */
#define CAP_LAST_CAP         40
#define CAP_CHOWN            0
#define CAP_DAC_OVERRIDE     1
#define CAP_DAC_READ_SEARCH  2
#define CAP_FOWNER           3
#define CAP_FSETID           4
#define CAP_KILL             5
#define CAP_SETGID           6
#define CAP_SETUID           7
#define CAP_SETPCAP          8
#define CAP_IPC_LOCK         14
#define CAP_SYS_ADMIN        21
#define CAP_SYS_NICE         23
#define CAP_SYS_RESOURCE     24
#define CAP_MKNOD            27
#define CAP_LEASE            28

/* The calling task's credentials (Linux's current_cred()). */
const struct cred *current_cred(void);
uid_t current_fsuid(void);
gid_t current_fsgid(void);

/* Does the calling task have capability cap?  Root's rule, as Linux's
 * capabilities behave for a task that never called capset(2): the
 * file-system capabilities (CHOWN, DAC_OVERRIDE, DAC_READ_SEARCH, FOWNER,
 * FSETID) follow the fsuid being 0 (Linux's cap_task_fix_setuid drops and
 * raises exactly these when the fsuid leaves or returns to 0), the others
 * (KILL, SETUID, SETGID, IPC_LOCK, SYS_ADMIN, SYS_RESOURCE, MKNOD) the
 * euid being 0. */
bool capable(int cap);

/* Is gid the caller's fsgid or one of its supplementary groups (Linux's
 * in_group_p)? */
bool in_group_p(gid_t gid);

/* execve(2)'s change of ids, made to c, a copy of the caller's that exec
 * installs at its point of no return (Linux's bprm_fill_uid, then
 * cap_bprm_creds_from_file): a set-user-ID file makes its owner the
 * effective uid; a set-group-ID file with the group-execute bit makes its
 * group the effective gid; then the saved and file-system ids become the
 * effective ones, whatever the file's bits.  inode NULL: a built-in image,
 * no bits. */
struct inode;
void exec_creds(struct cred *c, const struct inode *inode);

/* The 16-bit ids of the old calls (Linux's <linux/highuid.h>): -1 of 16
 * bits is -1 of 32 going in; an id above 65535 is the overflow id 65534
 * coming out. */
#define OVERFLOWUID 65534
#define OVERFLOWGID 65534
static inline uid_t low2highuid(uint16_t uid) { return uid == 0xffff ? (uid_t)-1 : uid; }
static inline gid_t low2highgid(uint16_t gid) { return gid == 0xffff ? (gid_t)-1 : gid; }
static inline uint16_t high2lowuid(uid_t uid) { return uid & ~0xffffu ? OVERFLOWUID : uid; }
static inline uint16_t high2lowgid(gid_t gid) { return gid & ~0xffffu ? OVERFLOWGID : gid; }

#endif
