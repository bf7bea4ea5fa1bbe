/* kernel/cred.c: credentials, the ids of a task (include/cred.h), and the
 * system calls that read and change them (Linux's kernel/sys.c,
 * kernel/groups.c and kernel/uid16.c): getuid and getgid and their
 * effective, saved and file-system variants, setuid, setgid, setreuid,
 * setregid, setresuid, setresgid, setfsuid, setfsgid, getgroups and
 * setgroups, each in its 32-bit form (what glibc calls on i386) and its old
 * 16-bit one; capget and capset (Linux's kernel/capability.c), over the
 * root rule of include/cred.h.  Process layer; fs/ reads the ids through current_cred(),
 * capable() and in_group_p().
 *
 * Who may change what is Linux's rule, with "privileged" meaning
 * capable(CAP_SETUID) (or CAP_SETGID for groups), that is euid 0 here
 * (include/cred.h: no capability sets):
 *
 *   setuid(u)         privileged: real, effective, saved and fs uid all u;
 *                     else u must be the real or saved uid: effective and
 *                     fs uid u.  -EPERM otherwise, -EINVAL for u == -1.
 *   setreuid(r, e)    -1 leaves one alone; r must be the real or effective
 *                     uid, e the real, effective or saved one, unless
 *                     privileged; the saved uid becomes the new effective
 *                     uid when r is given or e differs from the old real
 *                     uid; the fs uid follows the effective uid.
 *   setresuid(r,e,s)  each one given must be one of the three old ids,
 *                     unless privileged; the fs uid follows the effective.
 *   setfsuid(u)       always returns the old fs uid; changes it to u when u
 *                     is one of real, effective, saved or fs uid, or when
 *                     privileged.
 *   setgroups(n, l)   privileged only (-EPERM); n > NGROUPS_SMALL or a -1 in
 *                     the list: -EINVAL.
 *   getgroups(n, l)   n == 0: the count only; n smaller than the count:
 *                     -EINVAL; n < 0: -EINVAL.
 *
 * and the same for the group ids.  The 16-bit calls map -1 (0xffff) in and
 * ids above 65535 out to 65534 (<cred.h>, Linux's <linux/highuid.h>).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <sched.h>
#include <proc.h>                /* find_task_by_pid */
#include <fs.h>
#include <syscalls.h>
#include <asm/uaccess.h>

const struct cred *current_cred(void) { return &current->cred; }
uid_t current_fsuid(void) { return current->cred.fsuid; }
gid_t current_fsgid(void) { return current->cred.fsgid; }

static bool cap_by_ids(const struct cred *c, int cap)
{
    switch (cap) {
    case CAP_KILL:
    case CAP_SETUID:
    case CAP_SETGID:
    case CAP_MKNOD:
    case CAP_SYS_ADMIN:
    case CAP_SYS_RESOURCE:
    case CAP_IPC_LOCK:
    case CAP_SYS_NICE:
    case CAP_LEASE:
        return c->euid == 0;
    case CAP_CHOWN:
    case CAP_DAC_OVERRIDE:
    case CAP_DAC_READ_SEARCH:
    case CAP_FOWNER:
    case CAP_FSETID:
        return c->fsuid == 0;
    }
    BUG_ON(1);                         /* a capability nobody defined */
    return false;
}

bool capable(int cap)
{
    const struct cred *c = current_cred();
    return cap_by_ids(c, cap) && !(c->cap_dropped_eff & (1ULL << cap));
}

bool in_group_p(gid_t gid)
{
    const struct cred *c = current_cred();
    if (gid == c->fsgid)
        return true;
    for (int i = 0; i < c->ngroups; i++)
        if (c->groups[i] == gid)
            return true;
    return false;
}

void exec_creds(struct cred *c, const struct inode *inode)
{
    if (inode && (inode->i_mode & S_ISUID))
        c->euid = inode->i_uid;
    if (inode && (inode->i_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
        c->egid = inode->i_gid;
    c->suid = c->fsuid = c->euid;
    c->sgid = c->fsgid = c->egid;
    c->cap_dropped_eff = c->cap_dropped_perm = 0;
}

/* ---- capget, capset ----------------------------------------------------- */

/* The sets as Linux would hold them for these ids (a process that never
 * called capset): root's euid has every capability in its effective set,
 * the file-system ones following the fsuid (capable()); any root id
 * keeps them all permitted (Linux drops the permitted set only when real,
 * effective and saved uid all leave 0).  Minus what capset dropped. */
#define CAP_FULL_SET ((1ULL << (CAP_LAST_CAP + 1)) - 1)
#define CAP_FS_MASK  ((1ULL << CAP_CHOWN) | (1ULL << CAP_DAC_OVERRIDE) | \
                      (1ULL << CAP_DAC_READ_SEARCH) | (1ULL << CAP_FOWNER) | \
                      (1ULL << CAP_FSETID))

static void cap_sets(const struct cred *c, uint64_t *eff, uint64_t *perm, uint64_t *inh)
{
    uint64_t p = (c->uid == 0 || c->euid == 0 || c->suid == 0) ? CAP_FULL_SET : 0;
    uint64_t e = c->euid == 0 ? CAP_FULL_SET & ~CAP_FS_MASK : 0;
    if (c->fsuid == 0)
        e |= CAP_FS_MASK;
    *perm = p & ~c->cap_dropped_perm;
    *eff = e & *perm & ~c->cap_dropped_eff;
    *inh = c->cap_inheritable;
}

struct cap_user_header { uint32_t version; int pid; };
struct cap_user_data { uint32_t effective, permitted, inheritable; };

#define LINUX_CAPABILITY_VERSION_1 0x19980330   /* one 32-bit word per set */
#define LINUX_CAPABILITY_VERSION_2 0x20071026   /* two (deprecated) */
#define LINUX_CAPABILITY_VERSION_3 0x20080522   /* two */

/* The version handshake (Linux's cap_validate_magic): a version the kernel
 * does not know gets the one it prefers written back, and -EINVAL. */
static long cap_validate_magic(struct cap_user_header *uh, int *words)
{
    uint32_t version;
    if (get_user(version, &uh->version))
        return -EFAULT;
    switch (version) {
    case LINUX_CAPABILITY_VERSION_1:
        *words = 1;
        return 0;
    case LINUX_CAPABILITY_VERSION_2:
    case LINUX_CAPABILITY_VERSION_3:
        *words = 2;
        return 0;
    }
    if (put_user((uint32_t)LINUX_CAPABILITY_VERSION_3, &uh->version))
        return -EFAULT;
    return -EINVAL;
}

/* capget(hdr, data): a NULL data only probes the version (0, even for a
 * bad one, which is written back); pid 0 is the caller, another pid any
 * thread (-ESRCH if none, -EINVAL if negative). */
long sys_capget(void *header, void *dataptr)
{
    struct cap_user_header *uh = header;
    int words, pid;
    long ret = cap_validate_magic(uh, &words);
    if (!dataptr || ret)
        return !dataptr && ret == -EINVAL ? 0 : ret;
    if (get_user(pid, &uh->pid))
        return -EFAULT;
    if (pid < 0)
        return -EINVAL;
    struct task_struct *t = pid ? find_task_by_pid(pid) : current;
    if (!t || !t->is_process)
        return -ESRCH;
    uint64_t e, p, i;
    cap_sets(&t->cred, &e, &p, &i);
    struct cap_user_data d[2] = {
        { (uint32_t)e, (uint32_t)p, (uint32_t)i },
        { (uint32_t)(e >> 32), (uint32_t)(p >> 32), (uint32_t)(i >> 32) },
    };
    return copy_to_user(dataptr, d, words * sizeof d[0]) ? -EFAULT : 0;
}

/* capset(hdr, data): the caller's own sets only (-EPERM for another pid),
 * and only inside Linux's bounds (cap_capset): the new permitted set
 * within the old one, the effective within the new permitted, the
 * inheritable within the old inheritable and permitted unless CAP_SETPCAP
 * is effective (the bounding set, the other limit, is full here); -EPERM
 * otherwise. */
long sys_capset(void *header, const void *data)
{
    struct cap_user_header *uh = header;
    int words, pid;
    long ret = cap_validate_magic(uh, &words);
    if (ret)
        return ret;
    if (get_user(pid, &uh->pid))
        return -EFAULT;
    if (pid != 0 && pid != current->pid)
        return -EPERM;
    struct cap_user_data d[2];
    memset(d, 0, sizeof d);
    if (copy_from_user(d, data, words * sizeof d[0]))
        return -EFAULT;
    uint64_t ne = (d[0].effective | (uint64_t)d[1].effective << 32) & CAP_FULL_SET;
    uint64_t np = (d[0].permitted | (uint64_t)d[1].permitted << 32) & CAP_FULL_SET;
    uint64_t ni = (d[0].inheritable | (uint64_t)d[1].inheritable << 32) & CAP_FULL_SET;
    struct cred *c = &current->cred;
    uint64_t e, p, i;
    cap_sets(c, &e, &p, &i);
    bool setpcap = e & (1ULL << CAP_SETPCAP);
    if ((!setpcap && (ni & ~(i | p))) || (np & ~p) || (ne & ~np))
        return -EPERM;
    c->cap_dropped_perm |= p & ~np;
    c->cap_dropped_eff = CAP_FULL_SET & ~ne;
    c->cap_inheritable = ni;
    return 0;
}

/* ---- reading ----------------------------------------------------------- */

long sys_getuid(void) { return current_cred()->uid; }
long sys_geteuid(void) { return current_cred()->euid; }
long sys_getgid(void) { return current_cred()->gid; }
long sys_getegid(void) { return current_cred()->egid; }
long sys_getuid16(void) { return high2lowuid(current_cred()->uid); }
long sys_geteuid16(void) { return high2lowuid(current_cred()->euid); }
long sys_getgid16(void) { return high2lowgid(current_cred()->gid); }
long sys_getegid16(void) { return high2lowgid(current_cred()->egid); }

/* Three ids out to user memory, each put_user in turn (Linux stops at the
 * first fault, having stored the ones before it). */
static long put3(uid_t a, uid_t b, uid_t c, uid_t *ua, uid_t *ub, uid_t *uc)
{
    if (put_user(a, ua) || put_user(b, ub) || put_user(c, uc))
        return -EFAULT;
    return 0;
}

static long put3_16(uid_t a, uid_t b, uid_t c, uint16_t *ua, uint16_t *ub, uint16_t *uc)
{
    if (put_user(high2lowuid(a), ua) || put_user(high2lowuid(b), ub) ||
        put_user(high2lowuid(c), uc))
        return -EFAULT;
    return 0;
}

long sys_getresuid(uid_t *r, uid_t *e, uid_t *s)
{
    const struct cred *c = current_cred();
    return put3(c->uid, c->euid, c->suid, r, e, s);
}

long sys_getresgid(gid_t *r, gid_t *e, gid_t *s)
{
    const struct cred *c = current_cred();
    return put3(c->gid, c->egid, c->sgid, r, e, s);
}

long sys_getresuid16(uint16_t *r, uint16_t *e, uint16_t *s)
{
    const struct cred *c = current_cred();
    return put3_16(c->uid, c->euid, c->suid, r, e, s);
}

/* high2lowgid and high2lowuid are the same mapping (65534 both). */
long sys_getresgid16(uint16_t *r, uint16_t *e, uint16_t *s)
{
    const struct cred *c = current_cred();
    return put3_16(c->gid, c->egid, c->sgid, r, e, s);
}

/* ---- changing: one implementation for users and groups --------------------
 * struct ids views the four uids or the four gids of a cred, so each rule
 * above is written once. */
struct ids { uint32_t *r, *e, *s, *fs; int cap; };

static struct ids uids(struct cred *c)
{
    return (struct ids){ &c->uid, &c->euid, &c->suid, &c->fsuid, CAP_SETUID };
}

static struct ids gids(struct cred *c)
{
    return (struct ids){ &c->gid, &c->egid, &c->sgid, &c->fsgid, CAP_SETGID };
}

#define NONE ((uint32_t)-1)

/* Linux's __sys_setuid / __sys_setgid. */
static long set_id(struct ids o, uint32_t id)
{
    if (id == NONE)
        return -EINVAL;
    if (capable(o.cap)) {
        *o.r = *o.s = id;
    } else if (id != *o.r && id != *o.s) {
        return -EPERM;
    }
    *o.e = *o.fs = id;
    return 0;
}

/* Linux's __sys_setreuid / __sys_setregid. */
static long set_re_id(struct ids o, uint32_t r, uint32_t e)
{
    bool cap = capable(o.cap);
    uint32_t old_r = *o.r;
    if (r != NONE && r != *o.r && r != *o.e && !cap)
        return -EPERM;
    if (e != NONE && e != *o.r && e != *o.e && e != *o.s && !cap)
        return -EPERM;
    if (r != NONE)
        *o.r = r;
    if (e != NONE)
        *o.e = e;
    if (r != NONE || (e != NONE && e != old_r))
        *o.s = *o.e;
    *o.fs = *o.e;
    return 0;
}

/* Linux's __sys_setresuid / __sys_setresgid. */
static long set_res_id(struct ids o, uint32_t r, uint32_t e, uint32_t s)
{
    if (!capable(o.cap)) {
        uint32_t v[3] = { r, e, s };
        for (int i = 0; i < 3; i++)
            if (v[i] != NONE && v[i] != *o.r && v[i] != *o.e && v[i] != *o.s)
                return -EPERM;
    }
    if (r != NONE)
        *o.r = r;
    if (e != NONE)
        *o.e = e;
    if (s != NONE)
        *o.s = s;
    *o.fs = *o.e;
    return 0;
}

/* Linux's __sys_setfsuid / __sys_setfsgid: the old value, always. */
static long set_fs_id(struct ids o, uint32_t id)
{
    uint32_t old = *o.fs;
    if (id != NONE && (id == *o.r || id == *o.e || id == *o.s || id == *o.fs ||
                       capable(o.cap)))
        *o.fs = id;
    return old;
}

/* What a change of ids does besides (Linux's commit_creds and
 * cap_task_fix_setuid), given the ids from before and the call's result:
 *  - an effective uid that becomes 0 again gets the permitted set as its
 *    effective set: what capset dropped from the effective set alone
 *    comes back (the other transitions need nothing: the sets follow the
 *    ids, cap_sets);
 *  - a changed effective or file-system uid or gid makes the process not
 *    dumpable (Linux's suid_dumpable, 0 by default): prctl(PR_GET_DUMPABLE)
 *    says 0 and its /proc/PID/pagemap is root's (fs/proc_base.c). */
static long after_set_ids(uid_t euid, uid_t fsuid, gid_t egid, gid_t fsgid, long ret)
{
    struct cred *c = &current->cred;
    if (ret < 0)
        return ret;
    if (euid != 0 && c->euid == 0)
        c->cap_dropped_eff = c->cap_dropped_perm;
    if ((euid != c->euid || fsuid != c->fsuid || egid != c->egid || fsgid != c->fsgid) &&
        current->mm)
        current->mm->not_dumpable = 1;
    return ret;
}

#define SET_IDS(call) ({ const struct cred *o_ = current_cred();                \
        uid_t eu_ = o_->euid, fu_ = o_->fsuid; gid_t eg_ = o_->egid, fg_ = o_->fsgid; \
        after_set_ids(eu_, fu_, eg_, fg_, (call)); })

long sys_setuid(uid_t uid) { return SET_IDS(set_id(uids(&current->cred), uid)); }
long sys_setgid(gid_t gid) { return SET_IDS(set_id(gids(&current->cred), gid)); }
long sys_setreuid(uid_t r, uid_t e) { return SET_IDS(set_re_id(uids(&current->cred), r, e)); }
long sys_setregid(gid_t r, gid_t e) { return SET_IDS(set_re_id(gids(&current->cred), r, e)); }
long sys_setresuid(uid_t r, uid_t e, uid_t s)
{ return SET_IDS(set_res_id(uids(&current->cred), r, e, s)); }
long sys_setresgid(gid_t r, gid_t e, gid_t s)
{ return SET_IDS(set_res_id(gids(&current->cred), r, e, s)); }
long sys_setfsuid(uid_t uid) { return SET_IDS(set_fs_id(uids(&current->cred), uid)); }
long sys_setfsgid(gid_t gid) { return SET_IDS(set_fs_id(gids(&current->cred), gid)); }

/* The 16-bit entries: old_uid_t arguments arrive as 32-bit registers, of
 * which Linux reads the low 16 bits. */
long sys_setuid16(unsigned long uid) { return sys_setuid(low2highuid(uid)); }
long sys_setgid16(unsigned long gid) { return sys_setgid(low2highgid(gid)); }
long sys_setreuid16(unsigned long r, unsigned long e)
{
    return sys_setreuid(low2highuid(r), low2highuid(e));
}
long sys_setregid16(unsigned long r, unsigned long e)
{
    return sys_setregid(low2highgid(r), low2highgid(e));
}
long sys_setresuid16(unsigned long r, unsigned long e, unsigned long s)
{
    return sys_setresuid(low2highuid(r), low2highuid(e), low2highuid(s));
}
long sys_setresgid16(unsigned long r, unsigned long e, unsigned long s)
{
    return sys_setresgid(low2highgid(r), low2highgid(e), low2highgid(s));
}
long sys_setfsuid16(unsigned long uid) { return sys_setfsuid(low2highuid(uid)); }
long sys_setfsgid16(unsigned long gid) { return sys_setfsgid(low2highgid(gid)); }

/* ---- supplementary groups (Linux's kernel/groups.c) -------------------- */

long sys_getgroups(int size, gid_t *list)
{
    const struct cred *c = current_cred();
    if (size < 0)
        return -EINVAL;
    if (size == 0)
        return c->ngroups;
    if (size < c->ngroups)
        return -EINVAL;
    if (copy_to_user(list, c->groups, c->ngroups * sizeof(gid_t)))
        return -EFAULT;
    return c->ngroups;
}

/* Check, sort and store n groups (Linux's groups_from_user, groups_sort,
 * set_current_groups): -1 is no group, -EINVAL. */
static long set_groups(gid_t *g, int n)
{
    for (int i = 0; i < n; i++)
        if (g[i] == NONE)
            return -EINVAL;
    for (int i = 1; i < n; i++)                /* insertion sort: n <= 32 */
        for (int j = i; j > 0 && g[j - 1] > g[j]; j--) {
            gid_t t = g[j];
            g[j] = g[j - 1];
            g[j - 1] = t;
        }
    struct cred *c = &current->cred;
    memcpy(c->groups, g, n * sizeof *g);
    c->ngroups = n;
    return 0;
}

long sys_setgroups(int size, const gid_t *list)
{
    gid_t g[NGROUPS_SMALL];
    if (!capable(CAP_SETGID))
        return -EPERM;
    if ((unsigned int)size > NGROUPS_SMALL)
        return -EINVAL;                /* Linux: above NGROUPS_MAX (65536) */
    if (copy_from_user(g, list, size * sizeof(gid_t)))
        return -EFAULT;
    return set_groups(g, size);
}

long sys_getgroups16(int size, uint16_t *list)
{
    const struct cred *c = current_cred();
    if (size < 0)
        return -EINVAL;
    if (size == 0)
        return c->ngroups;
    if (size < c->ngroups)
        return -EINVAL;
    for (int i = 0; i < c->ngroups; i++)
        if (put_user(high2lowgid(c->groups[i]), list + i))
            return -EFAULT;
    return c->ngroups;
}

long sys_setgroups16(int size, const uint16_t *list)
{
    gid_t g[NGROUPS_SMALL];
    if (!capable(CAP_SETGID))
        return -EPERM;
    if ((unsigned int)size > NGROUPS_SMALL)
        return -EINVAL;
    for (int i = 0; i < size; i++) {
        uint16_t v;
        if (get_user(v, list + i))
            return -EFAULT;
        g[i] = low2highgid(v);
    }
    return set_groups(g, size);
}
