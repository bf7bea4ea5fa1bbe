/* fs/stat.c: stat, lstat, fstat: an inode's attributes as a struct kstat. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include "internal.h"

void generic_fillattr(struct inode *inode, struct kstat *st)
{
    memset(st, 0, sizeof *st);
    /* simplification: every disk is 0x300 (hda's 3:0); a filesystem without
     * a disk gets its superblock's anonymous number (0:n), so two ramfs
     * mounts differ, as st_dev must for a mount point to be seen. */
    st->dev = inode->i_sb->s_bdev ? 0x300 : inode->i_sb->s_anon_dev;
    st->ino = inode->i_ino;
    st->mode = inode->i_mode;
    st->nlink = inode->i_nlink;
    st->uid = inode->i_uid;
    st->gid = inode->i_gid;
    st->rdev = inode->i_rdev;
    st->size = inode->i_size;
    st->blksize = inode->i_sb->s_blocksize;
    st->blocks = inode->i_blocks;
    /* A filesystem without a disk (ramfs) keeps no i_blocks: a file's blocks
     * are its cached pages, as Linux's simple_getattr reports them (ramfs
     * files only: its directories and symlinks show 0, as on Linux). */
    if (!inode->i_sb->s_bdev && inode->i_mapping && S_ISREG(inode->i_mode))
        st->blocks = inode->i_mapping->nrpages << (PAGE_SHIFT - 9);
    st->atime = inode->i_atime;
    st->mtime = inode->i_mtime;
    st->ctime = inode->i_ctime;
}

static int stat_path(const char *path, unsigned flags, struct kstat *st)
{
    struct path p;
    int err = kern_path(path, flags, &p);
    if (err)
        return err;
    generic_fillattr(p.inode, st);
    path_put(&p);
    return 0;
}

int vfs_stat(const char *path, struct kstat *st) { return stat_path(path, LOOKUP_FOLLOW, st); }
int vfs_lstat(const char *path, struct kstat *st) { return stat_path(path, 0, st); }

int vfs_fstat(struct file *file, struct kstat *st)
{
    if (!file)
        return -EBADF;
    generic_fillattr(file->f_inode, st);
    return 0;
}
