/* fs/permission.c: may the caller read, write or execute (search) an
 * inode?  Linux's generic_permission and inode_permission (fs/namei.c
 * there), checked against the caller's file-system ids (include/cred.h).
 * VFS layer; called by the path walk, open, exec, the directory operations,
 * access(2) and notify_change.  Also here: may_create and may_delete (the
 * directory operations' checks, with the sticky bit) and file_remove_privs
 * (a write clears the set-ID bits).
 *
 * The bits that apply are the owner's when fsuid is the inode's uid, else
 * the group's when the inode's gid is one of the caller's groups, else the
 * others'; every bit asked must be there, else -EACCES.  Then root's
 * override (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): a directory may always
 * be read and searched, and written; a non-directory may always be read and
 * written, and executed only when it has at least one x bit.
 *
 * Simplified on purpose: no ACLs, no immutable files, no security modules;
 * a read-only mount is checked by the callers (-EROFS), where Linux's
 * inode_permission checks it first for MAY_WRITE.
 */
#include <kernel.h>
#include <smp_lock.h>
#include <errno.h>
#include <fs.h>
#include <cred.h>
#include <sched.h>

/* The owner / group / other check alone (Linux's acl_permission_check). */
static int acl_permission_check(const struct inode *inode, int mask)
{
    unsigned int mode = inode->i_mode;
    if (current_fsuid() == inode->i_uid)
        mode >>= 6;
    else if (in_group_p(inode->i_gid))
        mode >>= 3;
    return (mask & ~mode & 7) ? -EACCES : 0;
}

int generic_permission(struct inode *inode, int mask)
{
    int ret = acl_permission_check(inode, mask);
    if (ret != -EACCES)
        return ret;
    if (S_ISDIR(inode->i_mode)) {
        if (!(mask & MAY_WRITE) && capable(CAP_DAC_READ_SEARCH))
            return 0;
        return capable(CAP_DAC_OVERRIDE) ? 0 : -EACCES;
    }
    mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
    if (mask == MAY_READ && capable(CAP_DAC_READ_SEARCH))
        return 0;
    if (!(mask & MAY_EXEC) || (inode->i_mode & 0111))
        if (capable(CAP_DAC_OVERRIDE))
            return 0;
    return -EACCES;
}

int inode_permission(struct inode *inode, int mask)
{
    return generic_permission(inode, mask);
}

int may_create(struct inode *dir)
{
    if (IS_DEADDIR(dir))
        return -ENOENT;
    return inode_permission(dir, MAY_WRITE | MAY_EXEC);
}

/* The sticky bit (Linux's check_sticky): in a sticky directory only the
 * file's owner, the directory's owner or CAP_FOWNER may remove an entry. */
static int check_sticky(const struct inode *dir, const struct inode *inode)
{
    if (!(dir->i_mode & S_ISVTX))
        return 0;
    uid_t fsuid = current_fsuid();
    return inode->i_uid != fsuid && dir->i_uid != fsuid && !capable(CAP_FOWNER);
}

int may_delete(struct inode *dir, struct inode *victim, int isdir)
{
    int err = inode_permission(dir, MAY_WRITE | MAY_EXEC);
    if (err)
        return err;
    if (check_sticky(dir, victim))
        return -EPERM;
    if (isdir && !S_ISDIR(victim->i_mode))
        return -ENOTDIR;
    if (!isdir && S_ISDIR(victim->i_mode))
        return -EISDIR;
    if (IS_DEADDIR(dir))
        return -ENOENT;
    return 0;
}

int should_remove_suid(const struct inode *inode)
{
    unsigned int kill = 0;
    if (inode->i_mode & S_ISUID)
        kill = ATTR_KILL_SUID;
    if ((inode->i_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
        kill |= ATTR_KILL_SGID;     /* S_ISGID without g+x marks mandatory locking: kept */
    if (!kill || !S_ISREG(inode->i_mode) || capable(CAP_FSETID))
        return 0;
    return kill;
}

int file_remove_privs(struct file *file)
{
    int kill = should_remove_suid(file->f_inode);
    if (!kill)
        return 0;
    struct iattr attr = { .ia_valid = ATTR_FORCE | kill };
    lock_kernel();                     /* setattr: under the big lock (SMP step 5) */
    int err = notify_change(file->f_inode, &attr);
    unlock_kernel();
    return err;
}
