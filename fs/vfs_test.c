/* fs/vfs_test.c: kernel tests of path lookup, the directory operations,
 * open/read/write semantics and mounts (suite vfs), and of ramfs itself
 * (suite ramfs).  They run on a ramfs root (mounted if nothing is), each
 * test in its own directory.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <mm.h>
#include <pagemap.h>
#include "internal.h"

static char tbuf[8192];

static int mkfile(const char *path, const char *data)
{
    struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (IS_ERR(f))
        return (int)PTR_ERR(f);
    ssize_t n = kernel_write(f, data, strlen(data), &f->f_pos);
    filp_close(f);
    return n < 0 ? (int)n : 0;
}

/* Read the whole file into tbuf (NUL-terminated); returns the length or errno. */
static int slurp(const char *path)
{
    struct file *f = filp_open(path, O_RDONLY, 0);
    if (IS_ERR(f))
        return (int)PTR_ERR(f);
    ssize_t n = kernel_read(f, tbuf, sizeof tbuf - 1, &f->f_pos);
    filp_close(f);
    if (n >= 0)
        tbuf[n] = '\0';
    return (int)n;
}

static int open_err(const char *path, int flags)
{
    struct file *f = filp_open(path, flags, 0644);
    if (IS_ERR(f))
        return (int)PTR_ERR(f);
    filp_close(f);
    return 0;
}

static int setup(const char *dir)
{
    if (vfs_ensure_root())
        return -1;
    vfs_chdir("/");
    int err = vfs_mkdir(dir, 0755);
    return err == -EEXIST ? 0 : err;
}

KTEST(vfs, lookup_errors)
{
    struct kstat st;
    KT_ASSERT_EQ(setup("/lk"), 0);
    KT_ASSERT_EQ(mkfile("/lk/file", "x"), 0);
    KT_EXPECT_EQ(vfs_stat("/lk/missing", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_stat("/lk/missing/x", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_stat("", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_stat("/lk/file/x", &st), -ENOTDIR);
    KT_EXPECT_EQ(vfs_stat("/lk/file/", &st), -ENOTDIR);
    static char longname[NAME_MAX + 8];
    memset(longname, 'n', NAME_MAX + 2);
    longname[0] = '/';
    longname[NAME_MAX + 2] = '\0';      /* a component of NAME_MAX + 1 bytes */
    KT_EXPECT_EQ(vfs_stat(longname, &st), -ENAMETOOLONG);
    KT_EXPECT_EQ(vfs_mkdir(longname, 0755), -ENAMETOOLONG);
    static char longpath[PATH_MAX + 8];
    for (int k = 0; k < PATH_MAX; k += 2) {
        longpath[k] = '/';
        longpath[k + 1] = '.';
    }
    longpath[PATH_MAX] = '\0';          /* PATH_MAX bytes: too long */
    KT_EXPECT_EQ(vfs_stat(longpath, &st), -ENAMETOOLONG);
    longpath[PATH_MAX - 2] = '\0';      /* shorter: fine ("/./././...") */
    KT_EXPECT_EQ(vfs_stat(longpath, &st), 0);
    KT_EXPECT_EQ(vfs_mkdir("/lk/file", 0755), -EEXIST);
    KT_EXPECT_EQ(vfs_mkdir("/lk", 0755), -EEXIST);
    KT_EXPECT_EQ(vfs_mkdir("/lk/d", 0755), 0);
    KT_ASSERT_EQ(mkfile("/lk/d/inner", "y"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/lk/d"), -ENOTEMPTY);
    KT_EXPECT_EQ(vfs_rmdir("/lk/file"), -ENOTDIR);
    KT_EXPECT_EQ(vfs_unlink("/lk/d"), -EISDIR);
    KT_EXPECT_EQ(open_err("/lk/d", O_WRONLY), -EISDIR);
    KT_EXPECT_EQ(open_err("/lk/file", O_RDONLY | O_DIRECTORY), -ENOTDIR);
    KT_EXPECT_EQ(vfs_rmdir("/lk/d/."), -EINVAL);
    KT_EXPECT_EQ(vfs_unlink("/lk/d/inner"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/lk/d"), 0);
    KT_EXPECT_EQ(vfs_stat("/lk/d", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_unlink("/lk/file"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/lk"), 0);
}

KTEST(vfs, dot_dotdot_relative_and_cwd)
{
    struct kstat a, b;
    char cwd[64];
    KT_ASSERT_EQ(setup("/rel"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/rel/sub", 0755), 0);
    KT_ASSERT_EQ(mkfile("/rel/sub/f", "hello"), 0);
    KT_ASSERT_EQ(vfs_chdir("/rel/sub"), 0);
    KT_EXPECT_EQ(slurp("f"), 5);
    KT_EXPECT_EQ(slurp("./f"), 5);
    KT_EXPECT_EQ(slurp("../sub/./f"), 5);
    KT_EXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), 9);
    KT_EXPECT(!strcmp(cwd, "/rel/sub"));
    KT_EXPECT_EQ(vfs_getcwd(cwd, 4), -ERANGE);
    KT_EXPECT_EQ(vfs_stat("/..", &a), 0);       /* ".." of the root is the root */
    KT_EXPECT_EQ(vfs_stat("/", &b), 0);
    KT_EXPECT_EQ(a.ino, b.ino);
    KT_EXPECT_EQ(vfs_stat("../../../..", &a), 0);
    KT_EXPECT_EQ(a.ino, b.ino);
    KT_EXPECT_EQ(vfs_chdir("f"), -ENOTDIR);
    KT_EXPECT_EQ(vfs_chdir("/"), 0);
    KT_EXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), 2);
    KT_EXPECT(!strcmp(cwd, "/"));
    vfs_unlink("/rel/sub/f");
    vfs_rmdir("/rel/sub");
    vfs_rmdir("/rel");
}

KTEST(vfs, symlinks_middle_end_and_loops)
{
    struct kstat st;
    char b[64];
    KT_ASSERT_EQ(setup("/sl"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/sl/dir", 0755), 0);
    KT_ASSERT_EQ(mkfile("/sl/dir/target", "T!"), 0);
    KT_EXPECT_EQ(vfs_symlink("dir", "/sl/ld"), 0);                 /* relative */
    KT_EXPECT_EQ(vfs_symlink("/sl/dir/target", "/sl/lt"), 0);      /* absolute */
    KT_EXPECT_EQ(vfs_symlink("ld/target", "/sl/chain"), 0);
    KT_EXPECT_EQ(vfs_symlink("/sl/dir/target", "/sl/ld"), -EEXIST);
    KT_EXPECT_EQ(slurp("/sl/ld/target"), 2);                       /* in the middle */
    KT_EXPECT_EQ(slurp("/sl/lt"), 2);                              /* at the end */
    KT_EXPECT_EQ(slurp("/sl/chain"), 2);
    KT_EXPECT(!strcmp(tbuf, "T!"));
    KT_EXPECT_EQ(vfs_lstat("/sl/lt", &st), 0);
    KT_EXPECT(S_ISLNK(st.mode));
    KT_EXPECT_EQ(st.size, 14);
    KT_EXPECT_EQ(vfs_stat("/sl/lt", &st), 0);
    KT_EXPECT(S_ISREG(st.mode));
    int n = vfs_readlink("/sl/ld", b, sizeof b);
    KT_EXPECT_EQ(n, 3);
    KT_EXPECT(!memcmp(b, "dir", 3));
    KT_EXPECT_EQ(vfs_readlink("/sl/dir", b, sizeof b), -EINVAL);
    /* loops */
    KT_EXPECT_EQ(vfs_symlink("b", "/sl/a"), 0);
    KT_EXPECT_EQ(vfs_symlink("a", "/sl/b"), 0);
    KT_EXPECT_EQ(vfs_symlink("self", "/sl/self"), 0);
    KT_EXPECT_EQ(vfs_stat("/sl/a", &st), -ELOOP);
    KT_EXPECT_EQ(vfs_stat("/sl/self/x", &st), -ELOOP);
    KT_EXPECT_EQ(open_err("/sl/a", O_RDONLY), -ELOOP);
    KT_EXPECT_EQ(vfs_lstat("/sl/a", &st), 0);        /* not followed: fine */
    KT_EXPECT_EQ(vfs_symlink("nowhere", "/sl/dangling"), 0);
    KT_EXPECT_EQ(vfs_stat("/sl/dangling", &st), -ENOENT);
    KT_EXPECT_EQ(open_err("/sl/lt", O_RDONLY | O_NOFOLLOW), -ELOOP);
    const char *names[] = { "/sl/a", "/sl/b", "/sl/self", "/sl/dangling", "/sl/chain",
                            "/sl/lt", "/sl/ld", "/sl/dir/target" };
    for (unsigned k = 0; k < ARRAY_SIZE(names); k++)
        KT_EXPECT_EQ(vfs_unlink(names[k]), 0);
    KT_EXPECT_EQ(vfs_rmdir("/sl/dir"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/sl"), 0);
}

KTEST(vfs, file_read_write_offsets_append_trunc_excl)
{
    KT_ASSERT_EQ(setup("/io"), 0);
    struct file *f = filp_open("/io/f", O_RDWR | O_CREAT | O_EXCL, 0644);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(open_err("/io/f", O_RDWR | O_CREAT | O_EXCL), -EEXIST);
    KT_EXPECT_EQ(kernel_write(f, "0123456789", 10, &f->f_pos), 10);
    KT_EXPECT_EQ(f->f_pos, 10);
    KT_EXPECT_EQ(vfs_llseek(f, 2, SEEK_SET), 2);
    KT_EXPECT_EQ(kernel_write(f, "ab", 2, &f->f_pos), 2);
    KT_EXPECT_EQ(vfs_llseek(f, -3, SEEK_END), 7);
    KT_EXPECT_EQ(kernel_read(f, tbuf, 100, &f->f_pos), 3);
    KT_EXPECT(!memcmp(tbuf, "789", 3));
    KT_EXPECT_EQ(kernel_read(f, tbuf, 100, &f->f_pos), 0);      /* EOF */
    KT_EXPECT_EQ(vfs_llseek(f, -1, SEEK_SET), -EINVAL);
    KT_EXPECT_EQ(vfs_llseek(f, 0, 7), -EINVAL);
    /* a hole: write past EOF reads back zeros in between */
    KT_EXPECT_EQ(vfs_llseek(f, 6000, SEEK_SET), 6000);
    KT_EXPECT_EQ(kernel_write(f, "Z", 1, &f->f_pos), 1);
    loff_t p = 0;
    KT_EXPECT_EQ(kernel_read(f, tbuf, sizeof tbuf, &p), 6001);
    KT_EXPECT(!memcmp(tbuf, "01ab456789", 10));
    KT_EXPECT(tbuf[10] == 0 && tbuf[5999] == 0 && tbuf[6000] == 'Z');
    filp_close(f);
    /* read-only file: writes are EBADF */
    f = filp_open("/io/f", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(kernel_write(f, "x", 1, &f->f_pos), -EBADF);
    filp_close(f);
    /* O_APPEND: every write at EOF, whatever the offset */
    f = filp_open("/io/f", O_WRONLY | O_APPEND, 0);
    KT_ASSERT(!IS_ERR(f));
    f->f_pos = 0;
    KT_EXPECT_EQ(kernel_write(f, "END", 3, &f->f_pos), 3);
    KT_EXPECT_EQ(f->f_pos, 6004);
    filp_close(f);
    KT_EXPECT_EQ(slurp("/io/f"), 6004);
    KT_EXPECT(!memcmp(tbuf + 6001, "END", 3));
    /* O_TRUNC */
    f = filp_open("/io/f", O_WRONLY | O_TRUNC, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(f->f_inode->i_size, 0);
    filp_close(f);
    KT_EXPECT_EQ(slurp("/io/f"), 0);
    KT_EXPECT_EQ(open_err("/io/nofile", O_RDONLY), -ENOENT);
    KT_EXPECT_EQ(vfs_unlink("/io/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/io"), 0);
}

/* The file keeps the flags that describe it and forgets those that only
 * steered the open (Linux's do_dentry_open); access mode 3 opens a file
 * that can be neither read nor written. */
KTEST(vfs, open_keeps_status_flags_only)
{
    KT_ASSERT_EQ(setup("/flags"), 0);
    struct file *f = filp_open("/flags/f", O_RDWR | O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY |
                               O_APPEND | O_LARGEFILE, 0644);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(f->f_flags, O_RDWR | O_APPEND | O_LARGEFILE);
    filp_close(f);
    f = filp_open("/flags/f", O_ACCMODE, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(f->f_mode & (FMODE_READ | FMODE_WRITE), 0);
    KT_EXPECT_EQ(f->f_flags, O_ACCMODE);
    KT_EXPECT_EQ(kernel_read(f, tbuf, 1, &f->f_pos), -EBADF);
    KT_EXPECT_EQ(kernel_write(f, "x", 1, &f->f_pos), -EBADF);
    filp_close(f);
    KT_EXPECT_EQ(open_err("/flags", O_ACCMODE), -EISDIR);
    KT_EXPECT_EQ(vfs_unlink("/flags/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/flags"), 0);
}

KTEST(vfs, truncate_path)
{
    KT_ASSERT_EQ(setup("/tr"), 0);
    KT_ASSERT_EQ(mkfile("/tr/f", "abcdefghij"), 0);
    KT_EXPECT_EQ(vfs_truncate("/tr/f", 4), 0);
    KT_EXPECT_EQ(slurp("/tr/f"), 4);
    KT_EXPECT(!strcmp(tbuf, "abcd"));
    KT_EXPECT_EQ(vfs_truncate("/tr/f", 8), 0);
    KT_EXPECT_EQ(slurp("/tr/f"), 8);
    KT_EXPECT(!memcmp(tbuf, "abcd\0\0\0\0", 8));
    KT_EXPECT_EQ(vfs_truncate("/tr/f", -1), -EINVAL);
    KT_EXPECT_EQ(vfs_truncate("/tr", 0), -EISDIR);
    vfs_unlink("/tr/f");
    vfs_rmdir("/tr");
}

KTEST(vfs, rename_link_unlink_open)
{
    struct kstat st;
    KT_ASSERT_EQ(setup("/rn"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/rn/a", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/rn/b", 0755), 0);
    KT_ASSERT_EQ(mkfile("/rn/a/f", "data"), 0);
    KT_EXPECT_EQ(vfs_link("/rn/a/f", "/rn/b/hard"), 0);
    KT_EXPECT_EQ(vfs_stat("/rn/a/f", &st), 0);
    KT_EXPECT_EQ(st.nlink, 2);
    KT_EXPECT_EQ(vfs_link("/rn/a", "/rn/b/dirlink"), -EPERM);
    KT_EXPECT_EQ(vfs_link("/rn/a/f", "/rn/b/hard"), -EEXIST);
    KT_EXPECT_EQ(vfs_rename("/rn/a/f", "/rn/b/g"), 0);
    KT_EXPECT_EQ(vfs_stat("/rn/a/f", &st), -ENOENT);
    KT_EXPECT_EQ(slurp("/rn/b/g"), 4);
    KT_EXPECT_EQ(vfs_rename("/rn/b/g", "/rn/b/hard"), 0);       /* same inode: no-op */
    KT_EXPECT_EQ(vfs_stat("/rn/b/g", &st), 0);
    KT_EXPECT_EQ(vfs_rename("/rn/a", "/rn/a/sub"), -EINVAL);    /* into itself */
    KT_EXPECT_EQ(vfs_rename("/rn/a", "/rn/b/g"), -ENOTDIR);
    KT_EXPECT_EQ(vfs_rename("/rn/b/g", "/rn/a"), -EISDIR);
    KT_EXPECT_EQ(vfs_rename("/rn/a", "/rn/b"), -ENOTEMPTY);
    KT_EXPECT_EQ(vfs_rename("/rn/missing", "/rn/x"), -ENOENT);
    /* a directory moves, ".." follows */
    KT_EXPECT_EQ(vfs_rename("/rn/a", "/rn/b/a2"), 0);
    KT_EXPECT_EQ(vfs_stat("/rn/b/a2/../g", &st), 0);
    KT_EXPECT_EQ(vfs_stat("/rn", &st), 0);
    KT_EXPECT_EQ(st.nlink, 3);            /* ".", its entry, b's ".." */
    /* unlink while open: the data stays readable until the close */
    struct file *f = filp_open("/rn/b/g", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(vfs_unlink("/rn/b/g"), 0);
    KT_EXPECT_EQ(vfs_unlink("/rn/b/hard"), 0);
    KT_EXPECT_EQ(f->f_inode->i_nlink, 0);
    KT_EXPECT_EQ(kernel_read(f, tbuf, 10, &f->f_pos), 4);
    filp_close(f);
    KT_EXPECT_EQ(vfs_rmdir("/rn/b/a2"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rn/b"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rn"), 0);
}

struct lister {
    struct dir_context ctx;
    char names[256];
    int n;
};

static int list_actor(struct dir_context *ctx, const char *name, int len, loff_t pos,
                      unsigned long ino, unsigned int d_type)
{
    struct lister *l = container_of(ctx, struct lister, ctx);
    if ((size_t)l->n + len + 2 > sizeof l->names)
        return 1;
    memcpy(l->names + l->n, name, len);
    l->n += len;
    l->names[l->n++] = d_type == DT_DIR ? '/' : ' ';
    l->names[l->n] = '\0';
    return 0;
}

KTEST(vfs, iterate_dir_lists_entries)
{
    KT_ASSERT_EQ(setup("/ls"), 0);
    KT_ASSERT_EQ(mkfile("/ls/one", "1"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/ls/two", 0755), 0);
    struct file *d = filp_open("/ls", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(d));
    struct lister l = { { list_actor, 0 }, "", 0 };
    KT_EXPECT_EQ(iterate_dir(d, &l.ctx), 0);
    if (strcmp(l.names, "./../one two/"))
        printk("listing: '%s'\n", l.names);
    KT_EXPECT(!strcmp(l.names, "./../one two/"));
    l.n = 0;
    l.names[0] = '\0';
    KT_EXPECT_EQ(iterate_dir(d, &l.ctx), 0);     /* at the end: nothing more */
    KT_EXPECT_EQ(l.n, 0);
    filp_close(d);
    vfs_unlink("/ls/one");
    vfs_rmdir("/ls/two");
    vfs_rmdir("/ls");
}

KTEST(vfs, mounts_dotdot_exdev_busy)
{
    struct kstat st, root;
    KT_ASSERT_EQ(setup("/mnt"), 0);
    KT_ASSERT_EQ(mkfile("/mnt/under", "hidden"), 0);
    KT_ASSERT_EQ(do_mount("none", "/mnt", "ramfs", 0, NULL), 0);
    KT_EXPECT_EQ(do_mount("none", "/mnt", "ramfs", 0, NULL), -EBUSY);
    KT_EXPECT_EQ(do_mount("none", "/mnt", "nosuchfs", 0, NULL), -ENODEV);
    KT_EXPECT_EQ(vfs_stat("/mnt/under", &st), -ENOENT);     /* covered */
    KT_ASSERT_EQ(mkfile("/mnt/over", "on top"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/mnt/d", 0755), 0);
    /* ".." from the mounted root climbs to the parent filesystem */
    KT_EXPECT_EQ(vfs_stat("/mnt/..", &st), 0);
    KT_EXPECT_EQ(vfs_stat("/", &root), 0);
    KT_EXPECT_EQ(st.ino, root.ino);
    KT_EXPECT_EQ(vfs_stat("/mnt/d/../../mnt/over", &st), 0);
    KT_EXPECT_EQ(vfs_chdir("/mnt/d"), 0);
    char cwd[32];
    KT_EXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), 7);
    KT_EXPECT(!strcmp(cwd, "/mnt/d"));
    KT_EXPECT_EQ(slurp("../over"), 6);
    KT_EXPECT_EQ(do_umount("/mnt"), -EBUSY);                 /* our cwd is in it */
    KT_EXPECT_EQ(vfs_chdir("../.."), 0);
    /* across filesystems */
    KT_EXPECT_EQ(vfs_rename("/mnt/over", "/over"), -EXDEV);
    KT_EXPECT_EQ(vfs_link("/mnt/over", "/over"), -EXDEV);
    struct file *f = filp_open("/mnt/over", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(do_umount("/mnt"), -EBUSY);                 /* an open file */
    filp_close(f);
    KT_EXPECT_EQ(do_umount("/mnt/d"), -EINVAL);              /* not a mount */
    KT_EXPECT_EQ(vfs_rmdir("/mnt"), -EBUSY);                 /* a mount point */
    KT_EXPECT_EQ(do_umount("/mnt"), 0);
    KT_EXPECT_EQ(slurp("/mnt/under"), 6);                    /* uncovered */
    KT_EXPECT_EQ(do_umount("/"), -EBUSY);
    vfs_unlink("/mnt/under");
    KT_EXPECT_EQ(vfs_rmdir("/mnt"), 0);
}

/* ---- ramfs ---------------------------------------------------------------- */

KTEST(ramfs, files_live_in_the_page_cache)
{
    KT_ASSERT_EQ(setup("/rf"), 0);
    KT_ASSERT_EQ(do_mount("none", "/rf", "ramfs", 0, NULL), 0);
    struct file *f = filp_open("/rf/big", O_RDWR | O_CREAT, 0644);
    KT_ASSERT(!IS_ERR(f));
    static char data[10000];
    for (unsigned k = 0; k < sizeof data; k++)
        data[k] = (char)(k * 13 + 1);
    KT_EXPECT_EQ(kernel_write(f, data, sizeof data, &f->f_pos), (ssize_t)sizeof data);
    KT_EXPECT_EQ(f->f_mapping->nrpages, 3);
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);     /* nothing to write back: still cached */
    KT_EXPECT_EQ(f->f_mapping->nrpages, 3);
    loff_t p = 0;
    KT_EXPECT_EQ(kernel_read(f, tbuf, sizeof tbuf, &p), 8192);
    KT_EXPECT(!memcmp(tbuf, data, 8192));
    filp_close(f);
    /* closed and reopened: the inode stayed in the cache with its pages */
    KT_EXPECT_EQ(slurp("/rf/big"), 8191);  /* tbuf holds at most 8191 */
    KT_EXPECT(!memcmp(tbuf, data, 8191));
    struct kstat st;
    KT_EXPECT_EQ(vfs_stat("/rf/big", &st), 0);
    KT_EXPECT_EQ(st.size, 10000);
    KT_EXPECT_EQ(do_umount("/rf"), 0);    /* frees every inode and page */
    KT_EXPECT_EQ(vfs_stat("/rf/big", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_rmdir("/rf"), 0);
}

/* A ramfs page that is not uptodate holds whatever its frame held before
 * (Linux allocates page-cache pages without zeroing them); a fresh frame
 * after boot is zero, which would hide a simple_write_begin that forgets to
 * zero outside the write.  So page 0 of a new file is planted first, full
 * of 0xa5, not uptodate: a dirty frame reused.  100 bytes at 10, then 10
 * at 3000: every other byte of [0, 3010) must read zero. */
KTEST(ramfs, new_page_zeroed_outside_the_write)
{
    KT_ASSERT_EQ(setup("/rz"), 0);
    KT_ASSERT_EQ(do_mount("none", "/rz", "ramfs", 0, NULL), 0);
    struct file *f = filp_open("/rz/z", O_RDWR | O_CREAT, 0644);
    KT_ASSERT(!IS_ERR(f));
    struct page *page = find_or_create_page(f->f_mapping, 0, GFP_HIGHUSER);
    KT_ASSERT(page != NULL);
    KT_EXPECT(!PageUptodate(page));
    memset(page_address(page), 0xa5, PAGE_SIZE);
    unlock_page(page);
    put_page(page);
    static char data[100], want[3010];
    for (unsigned k = 0; k < sizeof data; k++)
        data[k] = (char)(k * 7 + 3);
    loff_t pos = 10;
    KT_EXPECT_EQ(kernel_write(f, data, 100, &pos), 100);
    pos = 3000;
    KT_EXPECT_EQ(kernel_write(f, data, 10, &pos), 10);
    memset(want, 0, sizeof want);
    memcpy(want + 10, data, 100);
    memcpy(want + 3000, data, 10);
    pos = 0;
    memset(tbuf, 0x5a, sizeof want);
    KT_EXPECT_EQ(kernel_read(f, tbuf, sizeof want, &pos), (ssize_t)sizeof want);
    unsigned bad = 0;
    while (bad < sizeof want && tbuf[bad] == want[bad])
        bad++;
    KT_EXPECT_EQ(bad, sizeof want);                /* the first wrong byte's offset */
    if (bad < sizeof want)
        ktest_fail(__FILE__, __LINE__, "byte %u is %#x, wanted %#x", bad,
                   (uint8_t)tbuf[bad], (uint8_t)want[bad]);
    filp_close(f);
    KT_EXPECT_EQ(do_umount("/rz"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rz"), 0);
}

KTEST(ramfs, unmount_frees_memory)
{
    KT_ASSERT_EQ(setup("/rm"), 0);
    unsigned long before = nr_free_pages();
    for (int round = 0; round < 3; round++) {
        KT_ASSERT_EQ(do_mount("none", "/rm", "ramfs", 0, NULL), 0);
        KT_ASSERT_EQ(vfs_mkdir("/rm/d", 0755), 0);
        static char page[PAGE_SIZE];
        memset(page, 'x', sizeof page);
        struct file *f = filp_open("/rm/d/f", O_WRONLY | O_CREAT, 0644);
        KT_ASSERT(!IS_ERR(f));
        for (int k = 0; k < 16; k++)
            kernel_write(f, page, sizeof page, &f->f_pos);
        filp_close(f);
        KT_ASSERT_EQ(vfs_symlink("d/f", "/rm/l"), 0);
        KT_ASSERT_EQ(do_umount("/rm"), 0);
    }
    /* kmalloc may keep a few slab pages; the 16 data pages per round are back */
    KT_EXPECT(nr_free_pages() + 4 >= before);
    vfs_rmdir("/rm");
}

KTEST(vfs, llseek_stops_at_s_maxbytes_seek_data_hole)
{
    /* generic_file_llseek: [0, s_maxbytes], else -EINVAL and f_pos stays
     * (issue 22: lseek far past it used to succeed); SEEK_DATA/SEEK_HOLE
     * see one extent of data */
    KT_ASSERT_EQ(setup("/ls"), 0);
    struct file *f = filp_open("/ls/f", O_RDWR | O_CREAT | O_EXCL, 0644);
    KT_ASSERT(!IS_ERR(f));
    loff_t max = f->f_inode->i_sb->s_maxbytes;
    KT_EXPECT_EQ(vfs_llseek(f, 100, SEEK_SET), 100);
    KT_EXPECT_EQ(vfs_llseek(f, max + 1, SEEK_SET), -EINVAL);
    KT_EXPECT_EQ(vfs_llseek(f, 1LL << 62, SEEK_SET), -EINVAL);
    KT_EXPECT_EQ(f->f_pos, 100);
    KT_EXPECT_EQ(vfs_llseek(f, max, SEEK_SET), max);
    KT_EXPECT_EQ(vfs_llseek(f, 1, SEEK_CUR), -EINVAL);
    KT_EXPECT_EQ(vfs_llseek(f, 0x7fffffffffffffffLL, SEEK_CUR), -EINVAL);   /* overflows */
    KT_EXPECT_EQ(f->f_pos, max);
    KT_EXPECT_EQ(vfs_llseek(f, 0, SEEK_DATA), -ENXIO);     /* empty: no data */
    KT_EXPECT_EQ(vfs_llseek(f, 0, SEEK_HOLE), -ENXIO);
    KT_EXPECT_EQ(kernel_write(f, "x", 1, &(loff_t){ 999 }), 1);
    KT_EXPECT_EQ(vfs_llseek(f, 10, SEEK_DATA), 10);
    KT_EXPECT_EQ(vfs_llseek(f, 10, SEEK_HOLE), 1000);
    KT_EXPECT_EQ(vfs_llseek(f, 1000, SEEK_DATA), -ENXIO);
    KT_EXPECT_EQ(vfs_llseek(f, -1, SEEK_DATA), -ENXIO);
    filp_close(f);
    KT_EXPECT_EQ(vfs_unlink("/ls/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/ls"), 0);
}

KTEST(vfs, truncate_past_rlimit_fsize_is_efbig)
{
    /* inode_newsize_ok: growing past RLIMIT_FSIZE is -EFBIG (a process
     * also gets SIGXFSZ: user/conform/write_path); to the limit, or
     * shrinking, is allowed */
    KT_ASSERT_EQ(setup("/rl"), 0);
    KT_ASSERT_EQ(mkfile("/rl/f", "0123456789"), 0);
    unsigned long long saved = current->rlim_fsize[0];
    current->rlim_fsize[0] = 1024;
    KT_EXPECT_EQ(vfs_truncate("/rl/f", 1025), -EFBIG);
    KT_EXPECT_EQ(slurp("/rl/f"), 10);
    KT_EXPECT_EQ(vfs_truncate("/rl/f", 1024), 0);
    KT_EXPECT_EQ(vfs_truncate("/rl/f", 5), 0);
    current->rlim_fsize[0] = 0;
    KT_EXPECT_EQ(vfs_truncate("/rl/f", 2), 0);
    KT_EXPECT_EQ(vfs_truncate("/rl/f", 3), -EFBIG);
    current->rlim_fsize[0] = saved;
    KT_EXPECT_EQ(vfs_truncate("/rl/f", 1LL << 62), -EFBIG);   /* s_maxbytes */
    KT_EXPECT_EQ(slurp("/rl/f"), 2);
    KT_EXPECT_EQ(vfs_unlink("/rl/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rl"), 0);
}

/* ---- names and times (issue 22: user/conform/names, user/conform/times) -- */

#define OLD_TIME 1000000000             /* 2001: older than a day */

/* atime, mtime and ctime of inode set to a, m, c, as utimensat would
 * (ctime, which it cannot set, too, so a change of it shows) */
static void set_times(struct inode *inode, time_t a, time_t m, time_t c)
{
    struct iattr at = { .ia_valid = ATTR_ATIME | ATTR_MTIME | ATTR_CTIME,
                        .ia_atime = a, .ia_mtime = m, .ia_ctime = c };
    mutex_lock(&inode->i_mutex);
    notify_change(inode, &at);
    mutex_unlock(&inode->i_mutex);
}

static struct inode *inode_of(const char *path, unsigned flags)
{
    struct path p;
    if (kern_path(path, flags, &p))
        return NULL;
    struct inode *inode = igrab(p.inode);
    path_put(&p);
    return inode;
}

KTEST(vfs, link_and_symlink_name_with_slash_enoent)
{
    /* filename_create: "x/" names a directory; link and symlink make none */
    KT_ASSERT_EQ(setup("/ts"), 0);
    KT_ASSERT_EQ(mkfile("/ts/f", "x"), 0);
    KT_EXPECT_EQ(vfs_link("/ts/f", "/ts/x/"), -ENOENT);
    KT_EXPECT_EQ(vfs_symlink("f", "/ts/y/"), -ENOENT);
    KT_EXPECT_EQ(vfs_link("/ts/f", "/ts/f/"), -EEXIST);      /* exists: EEXIST first */
    struct kstat st;
    KT_EXPECT_EQ(vfs_lstat("/ts/x", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_lstat("/ts/y", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_mkdir("/ts/z/", 0755), 0);              /* mkdir does */
    KT_EXPECT_EQ(vfs_rmdir("/ts/z"), 0);
    KT_EXPECT_EQ(vfs_unlink("/ts/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/ts"), 0);
}

KTEST(vfs, notdir_and_enoent_before_nametoolong)
{
    /* Linux's order: each component must be a directory before the next
     * one's length is looked at; the last one's only once its parent is
     * found */
    static char p[NAME_MAX + 40];
    struct kstat st;
    KT_ASSERT_EQ(setup("/nl"), 0);
    KT_ASSERT_EQ(mkfile("/nl/f", "x"), 0);
    char *c = p + snprintf(p, sizeof p, "/nl/f/");
    memset(c, 'n', NAME_MAX + 1);
    c[NAME_MAX + 1] = '\0';
    KT_EXPECT_EQ(vfs_stat(p, &st), -ENOTDIR);
    KT_EXPECT_EQ(vfs_mkdir(p, 0755), -ENOTDIR);
    memcpy(p, "/nl/m/", 6);                                   /* missing */
    KT_EXPECT_EQ(vfs_stat(p, &st), -ENOENT);
    KT_EXPECT_EQ(vfs_mkdir(p, 0755), -ENOENT);
    KT_EXPECT_EQ(open_err(p, O_RDWR | O_CREAT), -ENOENT);
    memmove(p + 4, p + 6, NAME_MAX + 2);                      /* "/nl/nnn...": too long */
    KT_EXPECT_EQ(vfs_mkdir(p, 0755), -ENAMETOOLONG);
    KT_EXPECT_EQ(open_err(p, O_RDWR | O_CREAT), -ENAMETOOLONG);
    KT_EXPECT_EQ(vfs_unlink("/nl/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/nl"), 0);
}

KTEST(vfs, rename_of_dots_ebusy_exdev_first)
{
    KT_ASSERT_EQ(setup("/rd"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/rd/d", 0755), 0);
    KT_ASSERT_EQ(mkfile("/rd/f", "x"), 0);
    KT_EXPECT_EQ(vfs_rename("/rd/d/.", "/rd/x"), -EBUSY);
    KT_EXPECT_EQ(vfs_rename("/rd/d/..", "/rd/x"), -EBUSY);
    KT_EXPECT_EQ(vfs_rename("/rd/f", "/rd/d/."), -EBUSY);
    KT_EXPECT_EQ(vfs_rename("/rd/f", "/rd/d/.."), -EBUSY);
    KT_ASSERT_EQ(do_mount("none", "/rd/d", "ramfs", 0, NULL), 0);
    KT_EXPECT_EQ(vfs_rename("/rd/f", "/rd/d/."), -EXDEV);     /* before the dots */
    KT_EXPECT_EQ(do_umount("/rd/d"), 0);
    KT_EXPECT_EQ(vfs_unlink("/rd/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rd/d"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rd"), 0);
}

KTEST(vfs, creat_through_dangling_symlink_makes_target)
{
    /* open(O_CREAT) of a symlink to nothing creates what it names, read
     * from the link's directory; O_EXCL: EEXIST; a loop: ELOOP */
    struct kstat st;
    KT_ASSERT_EQ(setup("/dg"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/dg/sub", 0755), 0);
    KT_ASSERT_EQ(vfs_symlink("t", "/dg/sub/l"), 0);
    KT_ASSERT_EQ(vfs_symlink("sub/l", "/dg/l2"), 0);          /* a link to the link */
    KT_EXPECT_EQ(open_err("/dg/l2", O_WRONLY | O_CREAT | O_EXCL), -EEXIST);
    KT_EXPECT_EQ(open_err("/dg/l2", O_WRONLY | O_CREAT | O_NOFOLLOW), -ELOOP);
    KT_EXPECT_EQ(vfs_stat("/dg/sub/t", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_chdir("/"), 0);
    KT_EXPECT_EQ(open_err("/dg/l2", O_WRONLY | O_CREAT), 0);
    KT_EXPECT_EQ(vfs_stat("/dg/sub/t", &st), 0);             /* in the link's directory */
    KT_EXPECT(S_ISREG(st.mode));
    KT_EXPECT_EQ(vfs_stat("/t", &st), -ENOENT);
    KT_EXPECT_EQ(open_err("/dg/sub/l", O_WRONLY | O_CREAT), 0);   /* exists now: opened */
    KT_ASSERT_EQ(vfs_symlink("self", "/dg/self"), 0);
    KT_EXPECT_EQ(open_err("/dg/self", O_WRONLY | O_CREAT), -ELOOP);
    const char *names[] = { "/dg/self", "/dg/l2", "/dg/sub/l", "/dg/sub/t" };
    for (unsigned k = 0; k < ARRAY_SIZE(names); k++)
        KT_EXPECT_EQ(vfs_unlink(names[k]), 0);
    KT_EXPECT_EQ(vfs_rmdir("/dg/sub"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/dg"), 0);
}

KTEST(vfs, symlink_chain_follows_40_not_41)
{
    /* c0 -> c1 -> ... -> c40 -> f: 40 links from c1 resolve, 41 from c0 do
     * not (MAXSYMLINKS); links at the end of a target do not nest */
    char a[16], b[16];
    struct kstat st;
    KT_ASSERT_EQ(setup("/ch"), 0);
    KT_ASSERT_EQ(mkfile("/ch/f", "x"), 0);
    for (int i = 0; i <= 40; i++) {
        snprintf(a, sizeof a, "/ch/c%d", i);
        snprintf(b, sizeof b, "c%d", i + 1);
        KT_ASSERT_EQ(vfs_symlink(i == 40 ? "f" : b, a), 0);
    }
    KT_EXPECT_EQ(vfs_stat("/ch/c1", &st), 0);
    KT_EXPECT(S_ISREG(st.mode));
    KT_EXPECT_EQ(vfs_stat("/ch/c0", &st), -ELOOP);
    KT_EXPECT_EQ(open_err("/ch/c1", O_RDONLY), 0);
    KT_EXPECT_EQ(open_err("/ch/c0", O_RDONLY), -ELOOP);
    for (int i = 0; i <= 40; i++) {
        snprintf(a, sizeof a, "/ch/c%d", i);
        KT_EXPECT_EQ(vfs_unlink(a), 0);
    }
    KT_EXPECT_EQ(vfs_unlink("/ch/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/ch"), 0);
}

KTEST(vfs, open_dir_with_creat_or_trunc_eisdir)
{
    KT_ASSERT_EQ(setup("/od"), 0);
    KT_EXPECT_EQ(open_err("/od", O_RDONLY | O_CREAT), -EISDIR);
    KT_EXPECT_EQ(open_err("/od", O_RDONLY | O_TRUNC), -EISDIR);
    KT_EXPECT_EQ(open_err("/od", O_RDWR | O_CREAT), -EISDIR);
    KT_EXPECT_EQ(open_err("/od", O_RDONLY), 0);
    KT_EXPECT_EQ(vfs_rmdir("/od"), 0);
}

KTEST(vfs, mkdir_keeps_sticky_drops_set_id)
{
    struct kstat st;
    KT_ASSERT_EQ(setup("/mk"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/mk/d", 07777), 0);
    KT_ASSERT_EQ(vfs_stat("/mk/d", &st), 0);
    KT_EXPECT_EQ(st.mode & 07777, 01777);
    KT_EXPECT_EQ(vfs_rmdir("/mk/d"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/mk"), 0);
}

KTEST(vfs, removed_directory_is_dead)
{
    /* a removed cwd: nothing can be found, made or listed in it; "." and
     * ".." still resolve, and getcwd fails (Linux: ENOENT throughout) */
    struct kstat st, parent;
    char cwd[64];
    KT_ASSERT_EQ(setup("/dd"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/dd/d", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/dd/e", 0755), 0);
    KT_ASSERT_EQ(mkfile("/dd/f", "x"), 0);
    KT_ASSERT_EQ(vfs_stat("/dd", &parent), 0);
    KT_ASSERT_EQ(vfs_chdir("/dd/d"), 0);
    struct file *d = filp_open(".", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(d));
    KT_EXPECT_EQ(vfs_rmdir("/dd/d"), 0);
    KT_EXPECT_EQ(open_err("x", O_RDWR | O_CREAT), -ENOENT);
    KT_EXPECT_EQ(vfs_mkdir("x", 0755), -ENOENT);
    KT_EXPECT_EQ(vfs_symlink("f", "x"), -ENOENT);
    KT_EXPECT_EQ(vfs_link("/dd/f", "x"), -ENOENT);
    KT_EXPECT_EQ(vfs_rename("/dd/f", "x"), -ENOENT);
    KT_EXPECT_EQ(vfs_rename("/dd/e", "e"), -ENOENT);
    KT_EXPECT_EQ(vfs_stat("x", &st), -ENOENT);
    struct lister l = { { list_actor, 0 }, "", 0 };
    KT_EXPECT_EQ(iterate_dir(d, &l.ctx), -ENOENT);
    KT_EXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), -ENOENT);
    KT_EXPECT_EQ(vfs_stat(".", &st), 0);
    KT_EXPECT_EQ(st.nlink, 0);
    KT_EXPECT_EQ(vfs_stat("..", &st), 0);
    KT_EXPECT_EQ(st.ino, parent.ino);
    KT_EXPECT_EQ(vfs_chdir(".."), 0);
    KT_EXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), 4);
    filp_close(d);
    KT_EXPECT_EQ(vfs_chdir("/"), 0);
    KT_EXPECT_EQ(vfs_unlink("/dd/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/dd/e"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/dd"), 0);
}

KTEST(vfs, atime_relatime_read_readdir_readlink_follow)
{
    /* touch_atime: a read (not of 0 bytes) sets atime when it is not after
     * mtime/ctime or is a day old; not when it is newer (the future here);
     * O_NOATIME never; readdir, readlink and following a link too */
    KT_ASSERT_EQ(setup("/at"), 0);
    KT_ASSERT_EQ(mkfile("/at/f", "hello"), 0);
    KT_ASSERT_EQ(vfs_symlink("f", "/at/l"), 0);
    time_t now = current_time();
    struct file *f = filp_open("/at/f", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    struct inode *inode = f->f_inode;
    set_times(inode, OLD_TIME, OLD_TIME, OLD_TIME);
    KT_EXPECT_EQ(kernel_read(f, tbuf, 0, &(loff_t){ 0 }), 0);
    KT_EXPECT_EQ(inode->i_atime, OLD_TIME);                  /* nothing read */
    KT_EXPECT_EQ(kernel_read(f, tbuf, 2, &(loff_t){ 0 }), 2);
    KT_EXPECT(inode->i_atime >= now);
    set_times(inode, now + 10000, OLD_TIME, OLD_TIME);
    KT_EXPECT_EQ(kernel_read(f, tbuf, 2, &(loff_t){ 0 }), 2);
    KT_EXPECT_EQ(inode->i_atime, now + 10000);               /* newer than both */
    set_times(inode, now + 10000, now + 20000, OLD_TIME);
    KT_EXPECT_EQ(kernel_read(f, tbuf, 2, &(loff_t){ 10 }), 0);   /* at EOF: counts */
    KT_EXPECT(inode->i_atime >= now && inode->i_atime < now + 10000);
    set_times(inode, OLD_TIME, OLD_TIME, OLD_TIME);
    struct vm_area_struct vma;
    memset(&vma, 0, sizeof vma);
    KT_EXPECT_EQ(f->f_op->mmap(f, &vma), 0);
    KT_EXPECT(inode->i_atime >= now);
    filp_close(f);
    f = filp_open("/at/f", O_RDONLY | O_NOATIME, 0);
    KT_ASSERT(!IS_ERR(f));
    set_times(inode, OLD_TIME, OLD_TIME, OLD_TIME);
    KT_EXPECT_EQ(kernel_read(f, tbuf, 2, &(loff_t){ 0 }), 2);
    KT_EXPECT_EQ(inode->i_atime, OLD_TIME);
    filp_close(f);

    struct file *d = filp_open("/at", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(d));
    set_times(d->f_inode, OLD_TIME, OLD_TIME, OLD_TIME);
    struct lister l = { { list_actor, 0 }, "", 0 };
    KT_EXPECT_EQ(iterate_dir(d, &l.ctx), 0);
    KT_EXPECT(d->f_inode->i_atime >= now);
    filp_close(d);

    struct inode *link = inode_of("/at/l", 0);
    KT_ASSERT(link != NULL);
    set_times(link, OLD_TIME, OLD_TIME, OLD_TIME);
    KT_EXPECT_EQ(vfs_readlink("/at/l", tbuf, sizeof tbuf), 1);
    KT_EXPECT(link->i_atime >= now);
    set_times(link, OLD_TIME, OLD_TIME, OLD_TIME);
    struct kstat st;
    KT_EXPECT_EQ(vfs_lstat("/at/l", &st), 0);
    KT_EXPECT_EQ(link->i_atime, OLD_TIME);                   /* not followed */
    KT_EXPECT_EQ(vfs_stat("/at/l", &st), 0);
    KT_EXPECT(link->i_atime >= now);
    iput(link);
    KT_EXPECT_EQ(vfs_unlink("/at/l"), 0);
    KT_EXPECT_EQ(vfs_unlink("/at/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/at"), 0);
}

KTEST(vfs, truncate_path_leaves_times_to_the_filesystem)
{
    /* truncate(2) asks for no times (ramfs, whose simple_setattr sets none,
     * keeps them, as Linux's); ftruncate and O_TRUNC ask for mtime and
     * ctime, even to the same size */
    KT_ASSERT_EQ(setup("/tt"), 0);
    KT_ASSERT_EQ(mkfile("/tt/f", "0123456789"), 0);
    struct inode *inode = inode_of("/tt/f", 0);
    KT_ASSERT(inode != NULL);
    set_times(inode, OLD_TIME, OLD_TIME, OLD_TIME);
    KT_EXPECT_EQ(vfs_truncate("/tt/f", 5), 0);
    KT_EXPECT_EQ(inode->i_size, 5);
    KT_EXPECT_EQ(inode->i_mtime, OLD_TIME);
    KT_EXPECT_EQ(inode->i_ctime, OLD_TIME);
    KT_EXPECT_EQ(do_truncate(inode, 5, ATTR_MTIME | ATTR_CTIME), 0);   /* ftruncate */
    KT_EXPECT(inode->i_mtime != OLD_TIME && inode->i_ctime != OLD_TIME);
    set_times(inode, OLD_TIME, OLD_TIME, OLD_TIME);
    KT_EXPECT_EQ(open_err("/tt/f", O_WRONLY | O_TRUNC), 0);
    KT_EXPECT(inode->i_mtime != OLD_TIME && inode->i_ctime != OLD_TIME);
    iput(inode);
    KT_EXPECT_EQ(vfs_unlink("/tt/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/tt"), 0);
}

KTEST(ramfs, directory_size_0_and_only_files_have_blocks)
{
    /* as Linux's ramfs: directories are of size 0, and simple_getattr's
     * block count (the cached pages) is for regular files */
    struct kstat st;
    KT_ASSERT_EQ(setup("/rs"), 0);
    KT_ASSERT_EQ(do_mount("none", "/rs", "ramfs", 0, NULL), 0);
    KT_ASSERT_EQ(mkfile("/rs/f", "data"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/rs/d", 0755), 0);
    KT_ASSERT_EQ(vfs_symlink("f", "/rs/l"), 0);
    KT_EXPECT_EQ(vfs_stat("/rs", &st), 0);
    KT_EXPECT_EQ(st.size, 0);
    KT_EXPECT_EQ(vfs_lstat("/rs/l", &st), 0);
    KT_EXPECT_EQ(st.size, 1);
    KT_EXPECT_EQ(st.blocks, 0);
    KT_EXPECT_EQ(vfs_stat("/rs/f", &st), 0);
    KT_EXPECT_EQ(st.blocks, PAGE_SIZE / 512);
    KT_EXPECT_EQ(vfs_unlink("/rs/f"), 0);
    KT_EXPECT_EQ(vfs_stat("/rs", &st), 0);
    KT_EXPECT_EQ(st.size, 0);
    KT_EXPECT_EQ(do_umount("/rs"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rs"), 0);
}

KTEST(ramfs, rename_over_sets_the_replaced_ctime)
{
    KT_ASSERT_EQ(setup("/rc"), 0);
    KT_ASSERT_EQ(mkfile("/rc/a", "a"), 0);
    KT_ASSERT_EQ(mkfile("/rc/b", "b"), 0);
    struct inode *b = inode_of("/rc/b", 0);
    KT_ASSERT(b != NULL);
    set_times(b, OLD_TIME, OLD_TIME, OLD_TIME);
    KT_EXPECT_EQ(vfs_rename("/rc/a", "/rc/b"), 0);
    KT_EXPECT_EQ(b->i_nlink, 0);
    KT_EXPECT(b->i_ctime != OLD_TIME);
    KT_EXPECT_EQ(b->i_mtime, OLD_TIME);
    iput(b);
    KT_EXPECT_EQ(vfs_unlink("/rc/b"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/rc"), 0);
}

KTEST(ramfs, removed_directory_keeps_its_parent)
{
    /* a removed directory still open pins its parent, so its ".." stays
     * valid when the parent is removed too (and the parent goes with it) */
    KT_ASSERT_EQ(setup("/rp"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/rp/a", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/rp/a/b", 0755), 0);
    struct inode *a = inode_of("/rp/a", 0);
    KT_ASSERT(a != NULL);
    unsigned long a_ino = a->i_ino;
    int count = a->i_count;
    struct file *b = filp_open("/rp/a/b", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(b));
    KT_EXPECT_EQ(vfs_rmdir("/rp/a/b"), 0);
    KT_EXPECT_EQ(a->i_count, count + 1);                     /* b's hold */
    iput(a);
    KT_EXPECT_EQ(vfs_rmdir("/rp/a"), 0);
    struct inode *up;
    KT_ASSERT_EQ(vfs_lookup_one(b->f_inode, "..", 2, &up), 0);
    KT_EXPECT_EQ(up->i_ino, a_ino);
    KT_EXPECT_EQ(up->i_nlink, 0);
    iput(up);
    filp_close(b);                                           /* frees b, then a */
    KT_EXPECT_EQ(vfs_rmdir("/rp"), 0);
}

/* A truncate of a large cached file drops every page, and in time: the
 * lookup is a batch per walk of the mapping's list (mm/truncate.c).  It
 * was a walk per page: 8192 pages took 33 million list steps with
 * interrupts off, and the soft-lockup watchdog (watchdog_thresh=1 in the
 * test boots) reported the test's CPU stuck. */
KTEST(vfs, truncate_of_a_large_file_drops_every_page)
{
    enum { NPAGES = 8192 };
    KT_ASSERT_EQ(setup("/tl"), 0);
    struct file *f = filp_open("/tl/large", O_RDWR | O_CREAT | O_TRUNC, 0644);
    KT_ASSERT(!IS_ERR(f));
    static char page[PAGE_SIZE];
    loff_t pos = 0;
    for (int i = 0; i < NPAGES; i++) {
        page[0] = (char)i;
        if (kernel_write(f, page, PAGE_SIZE, &pos) != PAGE_SIZE)
            break;
    }
    KT_EXPECT_EQ(pos, (loff_t)NPAGES * PAGE_SIZE);
    KT_EXPECT_EQ(f->f_mapping->nrpages, NPAGES);
    unsigned long before = nr_free_pages();
    KT_EXPECT_EQ(do_truncate(f->f_inode, 0, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(f->f_mapping->nrpages, 0);
    KT_EXPECT(nr_free_pages() >= before + NPAGES);          /* every page freed */
    filp_close(f);
    KT_EXPECT_EQ(vfs_unlink("/tl/large"), 0);
}

/* renameat2's RENAME_EXCHANGE of a directory and a file in two
 * directories (fs/namei.c, rename_exchange: three renames through a
 * temporary name): the names swapped, the link counts of both parents
 * moved with the directory, its ".." the new parent, no temporary name
 * left; RENAME_NOREPLACE refuses an existing name and changes nothing. */
KTEST(vfs, rename_exchange_dir_and_file)
{
    KT_ASSERT_EQ(setup("/vx"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/vx/a", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/vx/b", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/vx/a/d", 0755), 0);
    KT_ASSERT_EQ(open_err("/vx/b/z", O_WRONLY | O_CREAT | O_EXCL), 0);
    struct path a, b, d0;
    KT_ASSERT_EQ(kern_path("/vx/a", 0, &a), 0);
    KT_ASSERT_EQ(kern_path("/vx/b", 0, &b), 0);
    KT_ASSERT_EQ(kern_path("/vx/a/d", 0, &d0), 0);
    KT_EXPECT_EQ(a.inode->i_nlink, 3);
    KT_EXPECT_EQ(b.inode->i_nlink, 2);
    KT_EXPECT_EQ(vfs_rename2("/vx/a/d", "/vx/b/z", RENAME_NOREPLACE), -EEXIST);
    KT_EXPECT_EQ(vfs_rename2("/vx/a/d", "/vx/b/nope", RENAME_EXCHANGE), -ENOENT);
    KT_EXPECT_EQ(vfs_rename2("/vx/a/d", "/vx/b/z", RENAME_EXCHANGE), 0);
    struct path d1, up;
    KT_ASSERT_EQ(kern_path("/vx/b/z", 0, &d1), 0);
    KT_EXPECT(d1.inode == d0.inode);                 /* the directory, now b/z */
    KT_EXPECT_EQ(kern_path("/vx/b/z/..", 0, &up), 0);
    KT_EXPECT(up.inode == b.inode);
    path_put(&up);
    struct path f;
    KT_ASSERT_EQ(kern_path("/vx/a/d", 0, &f), 0);
    KT_EXPECT(S_ISREG(f.inode->i_mode));             /* the file, now a/d */
    KT_EXPECT_EQ(a.inode->i_nlink, 2);
    KT_EXPECT_EQ(b.inode->i_nlink, 3);
    path_put(&f);
    path_put(&d1);
    path_put(&d0);
    path_put(&a);
    path_put(&b);
    KT_EXPECT_EQ(vfs_rmdir("/vx/b/z"), 0);
    KT_EXPECT_EQ(vfs_unlink("/vx/a/d"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/vx/a"), 0);                /* empty: no temporary name */
    KT_EXPECT_EQ(vfs_rmdir("/vx/b"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/vx"), 0);
}
