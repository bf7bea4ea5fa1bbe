/* fs/locks.c: advisory file locks and leases (the VFS layer), after
 * Linux's fs/locks.c (6.1's rules).  Three kinds of lock, which do not see
 * each other (as on Linux), and leases:
 *
 *   POSIX record locks   fcntl(F_GETLK, F_SETLK, F_SETLKW) and the 64-bit
 *                        F_*LK64 of fcntl64: a byte range [start, end],
 *                        owned by a process (its files_struct: threads
 *                        share them, fork's child does not inherit them),
 *                        released when the process closes ANY descriptor of
 *                        the file (POSIX's rule, locks_remove_posix).
 *   OFD locks            fcntl64(F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW):
 *                        the same byte ranges, but owned by the open file
 *                        description (FL_POSIX | FL_OFDLCK, fl_owner the
 *                        file: dup and fork share them), released at its
 *                        last close; they conflict with POSIX locks of any
 *                        other owner (two descriptions of one process
 *                        too).  l_pid must be 0 (-EINVAL); F_OFD_GETLK
 *                        shows an OFD holder's l_pid as -1.  No deadlock
 *                        detection for them (Linux has none either).  The
 *                        plain fcntl call refuses them (-EINVAL), as
 *                        Linux's compat fcntl on x86-64 does.
 *   BSD locks            flock(2): the whole file, owned by the open file
 *                        description (dup and fork share it), released at
 *                        its last close (locks_remove_flock).
 *   leases               fcntl(F_SETLEASE, F_GETLEASE): a read lease
 *                        (nobody else has the file open for writing) or a
 *                        write lease (nobody else has it open at all), on
 *                        an open file of a regular file its caller owns
 *                        (or CAP_LEASE).  An open that conflicts with
 *                        another file's lease (any open: a write lease; an
 *                        open for writing or a truncate: a read lease)
 *                        breaks it (break_lease): the holder gets SIGIO
 *                        (or its F_SETSIG signal, send_sigio), its
 *                        F_GETLEASE shows what the lease must become
 *                        (F_RDLCK for a reader's open, else F_UNLCK), and
 *                        the opener sleeps until the holder downgrades or
 *                        removes it, or lease_break_time seconds pass
 *                        (/proc/sys/fs/lease-break-time) and the kernel
 *                        does it; with O_NONBLOCK the open fails
 *                        -EWOULDBLOCK at once, the break still started.
 *                        Counted opens: i_writecount and i_readcount
 *                        (fs/open.c).  Simplified on purpose: no
 *                        delegations, layouts or lease-break notification
 *                        through fasync lists (the file's owner is
 *                        signalled directly), and F_SETLEASE makes the
 *                        caller the file's owner if it had none, as Linux.
 *
 * Each is shared (F_RDLCK, LOCK_SH) or exclusive (F_WRLCK, LOCK_EX); two
 * locks of different owners conflict when they overlap and one of them is
 * exclusive.  A request that conflicts fails (-EAGAIN) or, with F_SETLKW or
 * flock without LOCK_NB, sleeps until the conflicting lock goes, unless
 * that would close a cycle of processes waiting for each other (-EDEADLK,
 * POSIX locks only: posix_locks_deadlock).
 *
 *   inode->i_flock ---> [posix A 0..99 W] -> [posix A 200..EOF R] -> [flock f1 R] -> NULL
 *   blocked_list   ---> request of B (0..9 W), waiting for owner A
 *
 * An owner's POSIX locks on an inode never overlap: a new one is merged
 * with its neighbours of the same type and cuts those of the other type
 * (posix_lock_inode), so F_UNLCK in the middle of a lock splits it in two.
 *
 * Locking: one spinlock, file_lock_lock, guards every inode's i_flock and
 * the blocked list (Linux 2.6.24 used the big kernel lock; later kernels a
 * per-inode flc_lock).  Simplified on purpose: every blocked request sleeps
 * on one wait queue, and any change to an inode's locks takes that
 * inode's requests off the blocked list and wakes them all; each looks
 * again (Linux wakes only the requests blocked on the lock that changed).
 * Not modelled: mandatory locking.
 */
#include <kernel.h>
#include <errno.h>
#include <string.h>
#include <slab.h>
#include <fs.h>
#include <fdtable.h>
#include <sched.h>
#include <signal.h>
#include <wait.h>
#include <cred.h>
#include <timer.h>
#include <asm/uaccess.h>
#include <uapi/linux/fcntl.h>
#include "internal.h"
#include <uapi/linux/fs.h>

#define OFFSET_MAX ((loff_t)0x7fffffffffffffffLL)
#define OFFT_OFFSET_MAX ((loff_t)0x7fffffff)   /* the 32-bit struct flock's off_t */
#define MAX_DEADLK_ITERATIONS 10                /* Linux's bound on the owner chain */

static DEFINE_SPINLOCK(file_lock_lock);
static LIST_HEAD(blocked_list);
static DECLARE_WAIT_QUEUE_HEAD(file_lock_wait);

static struct file_lock *locks_alloc_lock(void)
{
    return kzalloc(sizeof(struct file_lock), GFP_KERNEL);
}

/* Do a and b overlap, and is one of them exclusive? */
static bool locks_conflict(const struct file_lock *a, const struct file_lock *b)
{
    return a->fl_start <= b->fl_end && b->fl_start <= a->fl_end &&
           (a->fl_type == F_WRLCK || b->fl_type == F_WRLCK);
}

#define FL_KIND (FL_POSIX | FL_FLOCK | FL_LEASE)   /* OFD locks are of the POSIX kind */

/* The first lock of another owner, of req's kind, that req conflicts with.
 * Under file_lock_lock. */
static struct file_lock *find_conflict(struct inode *inode, const struct file_lock *req)
{
    for (struct file_lock *fl = inode->i_flock; fl; fl = fl->fl_next)
        if ((fl->fl_flags & FL_KIND) == (req->fl_flags & FL_KIND) && fl->fl_owner != req->fl_owner &&
            locks_conflict(fl, req))
            return fl;
    return NULL;
}

/* Something changed on inode: its blocked requests leave the blocked list
 * (so that the deadlock check never follows a wait that is over) and
 * every sleeper looks again.  Under file_lock_lock. */
static void locks_wake_up(struct inode *inode)
{
    struct file_lock *req, *tmp;
    list_for_each_entry_safe(req, tmp, &blocked_list, fl_link)
        if (req->fl_inode == inode)
            list_del_init(&req->fl_link);
    wake_up_all(&file_lock_wait);
}

/* Would owner waiting for blocker close a cycle?  Follow "blocker's owner
 * waits for ..." along the blocked list (Linux's posix_locks_deadlock,
 * with its bound).  Under file_lock_lock. */
static bool posix_locks_deadlock(void *owner, void *blocker)
{
    for (int i = 0; i < MAX_DEADLK_ITERATIONS; i++) {
        struct file_lock *req, *next = NULL;
        list_for_each_entry(req, &blocked_list, fl_link)
            if (req->fl_flags == FL_POSIX && req->fl_owner == blocker) {
                next = req;
                break;
            }
        if (!next)
            return false;
        if (next->fl_waits_for == owner)
            return true;
        blocker = next->fl_waits_for;
    }
    return false;
}

/* Sleep until something changes on req's inode; req waits for owner.
 * Called and returns with file_lock_lock held.  -ERESTARTSYS on a signal. */
static int locks_block(struct file_lock *req, struct inode *inode, void *owner)
{
    DEFINE_WAIT(w);
    req->fl_inode = inode;
    req->fl_waits_for = owner;
    list_add_tail(&req->fl_link, &blocked_list);
    prepare_to_wait(&file_lock_wait, &w, TASK_INTERRUPTIBLE);
    spin_unlock(&file_lock_lock);
    if (!signal_pending(current))
        schedule();
    finish_wait(&file_lock_wait, &w);
    spin_lock(&file_lock_lock);
    list_del_init(&req->fl_link);
    return signal_pending(current) ? -ERESTARTSYS : 0;
}

/* ---- POSIX record locks ---------------------------------------------------- */

/* Unlink *pp from its list and free it. */
static void locks_delete(struct file_lock **pp)
{
    struct file_lock *fl = *pp;
    *pp = fl->fl_next;
    kfree(fl);
}

/* Where a new lock of req's owner starting at start goes: after the
 * owner's last lock that starts before it, else before the owner's first,
 * else at the end, so each owner's locks stay together and in order.
 * Under file_lock_lock. */
static struct file_lock **posix_insert_point(struct inode *inode, const struct file_lock *req,
                                             loff_t start)
{
    struct file_lock **pp, **first = NULL, **after = NULL;
    for (pp = &inode->i_flock; *pp; pp = &(*pp)->fl_next) {
        if (!((*pp)->fl_flags & FL_POSIX) || (*pp)->fl_owner != req->fl_owner)
            continue;
        if (!first)
            first = pp;
        if ((*pp)->fl_start < start)
            after = &(*pp)->fl_next;
    }
    return after ? after : first ? first : pp;
}

/* Apply req (F_RDLCK, F_WRLCK or F_UNLCK over [fl_start, fl_end]) to its
 * owner's locks on inode, given no other owner's lock conflicts (Linux's
 * posix_lock_inode): the owner's locks of the same type that overlap or
 * touch it are merged into it, those of another type are cut back, or
 * split in two when req falls inside one.  An owner's locks never overlap,
 * so a merge only grows the range over the merged lock's own bytes.
 * spare[0..1]: two allocated locks (the new one, a split's right half);
 * what this takes it sets to NULL, the caller frees the rest.  Under
 * file_lock_lock; cannot fail. */
static void posix_lock_inode(struct inode *inode, const struct file_lock *req,
                             struct file_lock **spare)
{
    loff_t start = req->fl_start, end = req->fl_end;
    bool changed = false;
    struct file_lock **pp = &inode->i_flock;
    while (*pp) {
        struct file_lock *fl = *pp;
        if (!(fl->fl_flags & FL_POSIX) || fl->fl_owner != req->fl_owner) {
            pp = &fl->fl_next;
            continue;
        }
        if (fl->fl_type == req->fl_type) {
            /* touching (one's end + 1 is the other's start) merges too */
            if ((fl->fl_end != OFFSET_MAX && fl->fl_end + 1 < start) ||
                (end != OFFSET_MAX && fl->fl_start > end + 1)) {
                pp = &fl->fl_next;
                continue;
            }
            start = min(start, fl->fl_start);
            end = max(end, fl->fl_end);
            locks_delete(pp);
            changed = true;
            continue;
        }
        if (fl->fl_end < start || fl->fl_start > end) {  /* another type, apart */
            pp = &fl->fl_next;
            continue;
        }
        changed = true;
        if (fl->fl_start < start && fl->fl_end > end) {  /* req inside it: split */
            struct file_lock *right = spare[1];
            spare[1] = NULL;
            *right = *fl;
            right->fl_start = end + 1;
            fl->fl_end = start - 1;
            fl->fl_next = right;
            pp = &right->fl_next;
        } else if (fl->fl_start < start) {               /* keep its left part */
            fl->fl_end = start - 1;
            pp = &fl->fl_next;
        } else if (fl->fl_end > end) {                   /* keep its right part */
            fl->fl_start = end + 1;
            pp = &fl->fl_next;
        } else {                                         /* covered: gone */
            locks_delete(pp);
        }
    }
    if (req->fl_type != F_UNLCK) {
        struct file_lock *fl = spare[0], **at = posix_insert_point(inode, req, start);
        spare[0] = NULL;
        *fl = *req;
        INIT_LIST_HEAD(&fl->fl_link);
        fl->fl_start = start;
        fl->fl_end = end;
        fl->fl_next = *at;
        *at = fl;
        changed = true;
    }
    if (changed)
        locks_wake_up(inode);
}

/* Set, change or remove req's lock on file's inode; with wait, sleep
 * while another owner's lock conflicts.  0, -EAGAIN, -EDEADLK,
 * -ERESTARTSYS, -ENOLCK. */
static int posix_lock_file(struct file *file, struct file_lock *req, bool wait)
{
    struct inode *inode = file->f_inode;
    struct file_lock *spare[2] = { locks_alloc_lock(), locks_alloc_lock() };
    int err = 0;
    if (!spare[0] || !spare[1]) {
        err = -ENOLCK;
        goto out;
    }
    spin_lock(&file_lock_lock);
    for (;;) {
        struct file_lock *conflict = req->fl_type == F_UNLCK ? NULL : find_conflict(inode, req);
        if (!conflict) {
            posix_lock_inode(inode, req, spare);
            break;
        }
        if (!wait) {
            err = -EAGAIN;
            break;
        }
        if (!(req->fl_flags & FL_OFDLCK) &&
            posix_locks_deadlock(req->fl_owner, conflict->fl_owner)) {
            err = -EDEADLK;
            break;
        }
        err = locks_block(req, inode, conflict->fl_owner);
        if (err)
            break;
    }
    spin_unlock(&file_lock_lock);
out:
    kfree(spare[0]);
    kfree(spare[1]);
    return err;
}

/* l_whence, l_start and l_len to a byte range, as Linux's
 * flock64_to_posix_lock: relative to 0, the file position or the size; a
 * negative length reaches back before start; 0 is "to the end". */
static int flock_to_posix_lock(struct file *file, int whence, loff_t off, loff_t len,
                               struct file_lock *fl)
{
    loff_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = file->f_pos; break;
    case SEEK_END: base = file->f_inode->i_size; break;
    default: return -EINVAL;
    }
    if (off > OFFSET_MAX - base)
        return -EOVERFLOW;
    loff_t start = base + off;
    if (start < 0)
        return -EINVAL;
    if (len > 0) {
        if (len - 1 > OFFSET_MAX - start)
            return -EOVERFLOW;
        fl->fl_start = start;
        fl->fl_end = start + len - 1;
    } else if (len < 0) {
        if (start + len < 0)
            return -EINVAL;
        fl->fl_start = start + len;
        fl->fl_end = start - 1;
    } else {
        fl->fl_start = start;
        fl->fl_end = OFFSET_MAX;
    }
    return 0;
}

/* A request from a user's struct flock: the range, the type checked
 * against how the file was opened (-EBADF: a read lock needs it open for
 * reading, a write lock for writing).  ofd: an F_OFD_* request, owned by
 * the file. */
static int posix_request(struct file *file, int type, int whence, loff_t off, loff_t len,
                         bool ofd, struct file_lock *req)
{
    memset(req, 0, sizeof *req);
    INIT_LIST_HEAD(&req->fl_link);
    req->fl_flags = ofd ? FL_POSIX | FL_OFDLCK : FL_POSIX;
    req->fl_owner = ofd ? (void *)file : (void *)current->files;
    req->fl_pid = ofd ? -1 : current->tgid;
    req->fl_file = file;
    switch (type) {
    case F_RDLCK:
        if (!(file->f_mode & FMODE_READ))
            return -EBADF;
        break;
    case F_WRLCK:
        if (!(file->f_mode & FMODE_WRITE))
            return -EBADF;
        break;
    case F_UNLCK:
        break;
    default:
        return -EINVAL;
    }
    req->fl_type = type;
    return flock_to_posix_lock(file, whence, off, len, req);
}

/* F_GETLK: the first lock that would stop req, copied into *found, or
 * found->fl_type F_UNLCK. */
static void posix_test_lock(struct file *file, const struct file_lock *req,
                            struct file_lock *found)
{
    spin_lock(&file_lock_lock);
    struct file_lock *fl = find_conflict(file->f_inode, req);
    if (fl)
        *found = *fl;
    else
        found->fl_type = F_UNLCK;
    spin_unlock(&file_lock_lock);
}

#define IS_OFD(cmd) ((cmd) == F_OFD_GETLK || (cmd) == F_OFD_SETLK || (cmd) == F_OFD_SETLKW)

/* The user's struct flock, or flock64 for fcntl64's F_*LK64 and F_OFD_*
 * (lk64), as a flock64. */
static int get_flock(bool lk64, const void *arg, struct flock64 *fl)
{
    if (lk64)
        return copy_from_user(fl, arg, sizeof *fl) ? -EFAULT : 0;
    struct flock f;
    if (copy_from_user(&f, arg, sizeof f))
        return -EFAULT;
    *fl = (struct flock64){ .l_type = f.l_type, .l_whence = f.l_whence, .l_start = f.l_start,
                            .l_len = f.l_len, .l_pid = f.l_pid };
    return 0;
}

/* ... and back: a lock the 32-bit struct cannot show (past 2 GiB) is
 * -EOVERFLOW (Linux's posix_lock_to_flock). */
static int put_flock(bool lk64, void *arg, const struct flock64 *fl)
{
    if (lk64)
        return copy_to_user(arg, fl, sizeof *fl) ? -EFAULT : 0;
    if (fl->l_start > OFFT_OFFSET_MAX || fl->l_start + fl->l_len - 1 > OFFT_OFFSET_MAX)
        return -EOVERFLOW;
    struct flock f = { .l_type = fl->l_type, .l_whence = fl->l_whence, .l_start = fl->l_start,
                       .l_len = fl->l_len, .l_pid = fl->l_pid };
    return copy_to_user(arg, &f, sizeof f) ? -EFAULT : 0;
}

int fcntl_getlk(struct file *file, unsigned int cmd, void *arg, bool lk64)
{
    struct flock64 fl;
    struct file_lock req, found;
    int err = get_flock(lk64, arg, &fl);
    if (err)
        return err;
    if (fl.l_type != F_RDLCK && fl.l_type != F_WRLCK)
        return -EINVAL;
    if (IS_OFD(cmd) && fl.l_pid != 0)
        return -EINVAL;
    err = posix_request(file, F_UNLCK, fl.l_whence, fl.l_start, fl.l_len, IS_OFD(cmd), &req);
    if (err)
        return err;
    req.fl_type = fl.l_type;           /* a test needs no access mode */
    posix_test_lock(file, &req, &found);
    fl.l_type = found.fl_type;         /* F_UNLCK: the rest as it was */
    if (found.fl_type != F_UNLCK) {
        fl.l_whence = SEEK_SET;
        fl.l_start = found.fl_start;
        fl.l_len = found.fl_end == OFFSET_MAX ? 0 : found.fl_end - found.fl_start + 1;
        fl.l_pid = found.fl_pid;
    }
    return put_flock(lk64, arg, &fl);
}

int fcntl_setlk(struct file *file, unsigned int cmd, void *arg, bool lk64)
{
    struct flock64 fl;
    struct file_lock req;
    int err = get_flock(lk64, arg, &fl);
    if (!err && IS_OFD(cmd) && fl.l_pid != 0)
        err = -EINVAL;
    if (!err)
        err = posix_request(file, fl.l_type, fl.l_whence, fl.l_start, fl.l_len, IS_OFD(cmd), &req);
    return err ? err : posix_lock_file(file, &req, cmd == F_SETLKW || cmd == F_SETLKW64 ||
                                                   cmd == F_OFD_SETLKW);
}

/* Remove the locks on file's inode that match(lock, key) picks, and wake
 * the requests waiting on the inode if any went. */
static void locks_remove_if(struct file *file, bool (*match)(const struct file_lock *, const void *),
                            const void *key)
{
    struct inode *inode = file->f_inode;
    if (!inode || !inode->i_flock)     /* the common case: no locks at all */
        return;
    bool changed = false;
    spin_lock(&file_lock_lock);
    struct file_lock **pp = &inode->i_flock;
    while (*pp) {
        if (match(*pp, key)) {
            locks_delete(pp);
            changed = true;
        } else {
            pp = &(*pp)->fl_next;
        }
    }
    if (changed)
        locks_wake_up(inode);
    spin_unlock(&file_lock_lock);
}

static bool posix_owned_by(const struct file_lock *fl, const void *owner)
{
    return fl->fl_flags == FL_POSIX && fl->fl_owner == owner;   /* not OFD locks */
}

void locks_remove_posix(struct file *file, struct files_struct *owner)
{
    locks_remove_if(file, posix_owned_by, owner);
}

/* ---- BSD flock ------------------------------------------------------------- */

/* Linux's flock_lock_inode: a change of type is not atomic (the old lock
 * goes first, and a waiter may get in between), as on Linux. */
static int flock_lock_file(struct file *file, int type, bool wait)
{
    struct inode *inode = file->f_inode;
    struct file_lock *new = type == F_UNLCK ? NULL : locks_alloc_lock();
    int err = 0;
    if (type != F_UNLCK && !new)
        return -ENOLCK;
    spin_lock(&file_lock_lock);
    for (struct file_lock **pp = &inode->i_flock; *pp; pp = &(*pp)->fl_next) {
        struct file_lock *fl = *pp;
        if (fl->fl_flags != FL_FLOCK || fl->fl_owner != file)
            continue;
        if (fl->fl_type == type)
            goto out;                  /* already so: nothing to do */
        locks_delete(pp);
        locks_wake_up(inode);
        break;
    }
    if (type == F_UNLCK)
        goto out;
    struct file_lock req = { .fl_flags = FL_FLOCK, .fl_owner = file, .fl_file = file,
                             .fl_pid = current->tgid, .fl_type = type,
                             .fl_start = 0, .fl_end = OFFSET_MAX };
    INIT_LIST_HEAD(&req.fl_link);
    for (;;) {
        struct file_lock *conflict = find_conflict(inode, &req);
        if (!conflict) {
            *new = req;
            INIT_LIST_HEAD(&new->fl_link);
            struct file_lock **pp = &inode->i_flock;
            while (*pp)
                pp = &(*pp)->fl_next;
            *pp = new;
            new = NULL;
            break;
        }
        if (!wait) {
            err = -EAGAIN;             /* EWOULDBLOCK */
            break;
        }
        err = locks_block(&req, inode, conflict->fl_owner);
        if (err)
            break;
    }
out:
    spin_unlock(&file_lock_lock);
    kfree(new);
    return err;
}

long sys_flock(unsigned int fd, unsigned int cmd)
{
    struct file *file = fget(fd);
    if (!file)
        return -EBADF;
    bool wait = !(cmd & LOCK_NB);
    int type, err;
    switch (cmd & ~LOCK_NB) {
    case LOCK_SH: type = F_RDLCK; break;
    case LOCK_EX: type = F_WRLCK; break;
    case LOCK_UN: type = F_UNLCK; break;
    default: type = -1; break;
    }
    if (type < 0)
        err = -EINVAL;
    else if (type != F_UNLCK && !(file->f_mode & (FMODE_READ | FMODE_WRITE)))
        err = -EBADF;
    else
        err = flock_lock_file(file, type, wait);
    fput(file);
    return err;
}

/* Taken through file: its flock lock, its OFD locks, its lease.  A POSIX
 * lock taken through it went when its owner closed the descriptor
 * (locks_remove_posix). */
static bool taken_through(const struct file_lock *fl, const void *file)
{
    if (fl->fl_file != file)
        return false;
    WARN_ON(fl->fl_flags == FL_POSIX);
    return true;
}

void locks_remove_flock(struct file *file)
{
    locks_remove_if(file, taken_through, file);
}

/* ---- leases ---------------------------------------------------------------- */

/* /proc/sys/fs/lease-break-time: how long (s) a holder has (Linux's 45). */
int lease_break_time = 45;

/* file's lease on inode, or NULL.  Under file_lock_lock. */
static struct file_lock **find_lease(struct inode *inode, struct file *file)
{
    for (struct file_lock **pp = &inode->i_flock; *pp; pp = &(*pp)->fl_next)
        if ((*pp)->fl_flags == FL_LEASE && (*pp)->fl_file == file)
            return pp;
    return NULL;
}

/* Leases whose break time has passed become what they were asked to
 * (Linux's time_out_leases).  Under file_lock_lock. */
static void time_out_leases(struct inode *inode)
{
    bool changed = false;
    struct file_lock **pp = &inode->i_flock;
    while (*pp) {
        struct file_lock *fl = *pp;
        if (fl->fl_flags == FL_LEASE && fl->fl_target != fl->fl_type &&
            !time_before(jiffies, fl->fl_break_time)) {
            changed = true;
            if (fl->fl_target == F_UNLCK) {
                locks_delete(pp);
                continue;
            }
            fl->fl_type = fl->fl_target;
        }
        pp = &fl->fl_next;
    }
    if (changed)
        locks_wake_up(inode);
}

/* May file take a lease of type on its inode, given the other opens
 * (Linux's check_conflicting_open)?  A read lease: nobody has it open for
 * writing (nor is it executing: then i_writecount < 0 is fine); a write
 * lease: the only open is file itself.  Under file_lock_lock. */
static int check_conflicting_open(struct file *file, long type)
{
    struct inode *inode = file->f_inode;
    if (type == F_RDLCK)
        return inode->i_writecount > 0 ? -EAGAIN : 0;
    int self_w = (file->f_mode & FMODE_WRITER) ? 1 : 0;
    int self_r = (file->f_mode & FMODE_READER) ? 1 : 0;
    return inode->i_writecount != self_w || inode->i_readcount != self_r ? -EAGAIN : 0;
}

int fcntl_setlease(struct file *file, long type)
{
    struct inode *inode = file->f_inode;
    if (!S_ISREG(inode->i_mode))
        return -EINVAL;
    if (current_fsuid() != inode->i_uid && !capable(CAP_LEASE))
        return -EACCES;
    if (type != F_RDLCK && type != F_WRLCK && type != F_UNLCK)
        return -EINVAL;
    struct file_lock *new = type == F_UNLCK ? NULL : locks_alloc_lock();
    if (type != F_UNLCK && !new)
        return -ENOMEM;
    int err = 0;
    spin_lock(&file_lock_lock);
    time_out_leases(inode);
    struct file_lock **mine = find_lease(inode, file);
    if (type == F_UNLCK) {
        if (!mine)
            err = -EAGAIN;             /* no lease to remove (Linux's generic_delete_lease) */
        else {
            locks_delete(mine);
            locks_wake_up(inode);
        }
        goto out;
    }
    err = check_conflicting_open(file, type);
    if (err)
        goto out;
    /* another file's lease: any, for a write lease; a write lease, or one
     * being broken to nothing, for a read lease (Linux's generic_add_lease) */
    for (struct file_lock *fl = inode->i_flock; fl; fl = fl->fl_next) {
        if (fl->fl_flags != FL_LEASE || fl->fl_file == file)
            continue;
        if (type == F_WRLCK || fl->fl_type == F_WRLCK || fl->fl_target == F_UNLCK) {
            err = -EAGAIN;
            goto out;
        }
    }
    if (mine) {
        /* a change of type; during a break it ends the break only when it
         * is what the break asks (Linux's lease_clear_pending): a lease
         * downgraded while it must go still must go */
        struct file_lock *fl = *mine;
        bool breaking = fl->fl_target != fl->fl_type;
        fl->fl_type = type;
        if (!breaking || (type == F_RDLCK && fl->fl_target == F_RDLCK))
            fl->fl_target = type;
    } else {
        *new = (struct file_lock){ .fl_flags = FL_LEASE, .fl_owner = file, .fl_file = file,
                                   .fl_pid = current->tgid, .fl_type = type, .fl_target = type,
                                   .fl_start = 0, .fl_end = OFFSET_MAX };
        INIT_LIST_HEAD(&new->fl_link);
        new->fl_next = inode->i_flock;
        inode->i_flock = new;
        new = NULL;
    }
    locks_wake_up(inode);
    if (!file->f_owner.pid) {          /* the break's SIGIO comes to us (Linux's lease_setup) */
        file->f_owner.pid = current->tgid;
        file->f_owner.pid_type = PIDTYPE_TGID;
    }
out:
    spin_unlock(&file_lock_lock);
    kfree(new);
    return err;
}

int fcntl_getlease(struct file *file)
{
    int type = F_UNLCK;
    spin_lock(&file_lock_lock);
    time_out_leases(file->f_inode);
    struct file_lock **pp = find_lease(file->f_inode, file);
    if (pp)
        type = (*pp)->fl_target;       /* what it must become while being broken */
    spin_unlock(&file_lock_lock);
    return type;
}

/* Is there a lease an open for writing (want_write) or reading would
 * break?  Under file_lock_lock. */
static bool lease_conflicts(const struct file_lock *fl, bool want_write)
{
    return fl->fl_flags == FL_LEASE && (want_write || fl->fl_type == F_WRLCK);
}

int break_lease(struct inode *inode, bool want_write, bool nonblock)
{
    if (!inode->i_flock)               /* the common case: no locks, no leases */
        return 0;
    int err = 0;
    spin_lock(&file_lock_lock);
    for (;;) {
        time_out_leases(inode);
        unsigned long soonest = 0;
        bool any = false;
        for (struct file_lock *fl = inode->i_flock; fl; fl = fl->fl_next) {
            if (!lease_conflicts(fl, want_write))
                continue;
            unsigned char target = want_write ? F_UNLCK : F_RDLCK;
            if (fl->fl_target == fl->fl_type || (target == F_UNLCK && fl->fl_target != F_UNLCK)) {
                /* a new break, or a reader's break that a writer deepens */
                long t = lease_break_time > 0 ? (long)lease_break_time * HZ : 1;
                if (fl->fl_target == fl->fl_type)
                    fl->fl_break_time = jiffies + t;
                fl->fl_target = target;
                send_sigio(&fl->fl_file->f_owner, POLL_MSG);
            }
            if (!any || time_before(fl->fl_break_time, soonest))
                soonest = fl->fl_break_time;
            any = true;
        }
        if (!any)
            break;
        if (nonblock) {
            err = -EAGAIN;              /* EWOULDBLOCK */
            break;
        }
        DEFINE_WAIT(w);
        prepare_to_wait(&file_lock_wait, &w, TASK_INTERRUPTIBLE);
        spin_unlock(&file_lock_lock);
        if (!signal_pending(current)) {
            long left = (long)(soonest - jiffies);
            schedule_timeout(left > 0 ? left : 1);
        }
        finish_wait(&file_lock_wait, &w);
        spin_lock(&file_lock_lock);
        if (signal_pending(current)) {
            err = -ERESTARTSYS;
            break;
        }
    }
    spin_unlock(&file_lock_lock);
    return err;
}
