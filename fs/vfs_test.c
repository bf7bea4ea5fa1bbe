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
    KASSERT_EQ(setup("/lk"), 0);
    KASSERT_EQ(mkfile("/lk/file", "x"), 0);
    KEXPECT_EQ(vfs_stat("/lk/missing", &st), -ENOENT);
    KEXPECT_EQ(vfs_stat("/lk/missing/x", &st), -ENOENT);
    KEXPECT_EQ(vfs_stat("", &st), -ENOENT);
    KEXPECT_EQ(vfs_stat("/lk/file/x", &st), -ENOTDIR);
    KEXPECT_EQ(vfs_stat("/lk/file/", &st), -ENOTDIR);
    static char longname[NAME_MAX + 8];
    memset(longname, 'n', NAME_MAX + 2);
    longname[0] = '/';
    longname[NAME_MAX + 2] = '\0';      /* a component of NAME_MAX + 1 bytes */
    KEXPECT_EQ(vfs_stat(longname, &st), -ENAMETOOLONG);
    KEXPECT_EQ(vfs_mkdir(longname, 0755), -ENAMETOOLONG);
    static char longpath[PATH_MAX + 8];
    for (int k = 0; k < PATH_MAX; k += 2) {
        longpath[k] = '/';
        longpath[k + 1] = '.';
    }
    longpath[PATH_MAX] = '\0';          /* PATH_MAX bytes: too long */
    KEXPECT_EQ(vfs_stat(longpath, &st), -ENAMETOOLONG);
    longpath[PATH_MAX - 2] = '\0';      /* shorter: fine ("/./././...") */
    KEXPECT_EQ(vfs_stat(longpath, &st), 0);
    KEXPECT_EQ(vfs_mkdir("/lk/file", 0755), -EEXIST);
    KEXPECT_EQ(vfs_mkdir("/lk", 0755), -EEXIST);
    KEXPECT_EQ(vfs_mkdir("/lk/d", 0755), 0);
    KASSERT_EQ(mkfile("/lk/d/inner", "y"), 0);
    KEXPECT_EQ(vfs_rmdir("/lk/d"), -ENOTEMPTY);
    KEXPECT_EQ(vfs_rmdir("/lk/file"), -ENOTDIR);
    KEXPECT_EQ(vfs_unlink("/lk/d"), -EISDIR);
    KEXPECT_EQ(open_err("/lk/d", O_WRONLY), -EISDIR);
    KEXPECT_EQ(open_err("/lk/file", O_RDONLY | O_DIRECTORY), -ENOTDIR);
    KEXPECT_EQ(vfs_rmdir("/lk/d/."), -EINVAL);
    KEXPECT_EQ(vfs_unlink("/lk/d/inner"), 0);
    KEXPECT_EQ(vfs_rmdir("/lk/d"), 0);
    KEXPECT_EQ(vfs_stat("/lk/d", &st), -ENOENT);
    KEXPECT_EQ(vfs_unlink("/lk/file"), 0);
    KEXPECT_EQ(vfs_rmdir("/lk"), 0);
}

KTEST(vfs, dot_dotdot_relative_and_cwd)
{
    struct kstat a, b;
    char cwd[64];
    KASSERT_EQ(setup("/rel"), 0);
    KASSERT_EQ(vfs_mkdir("/rel/sub", 0755), 0);
    KASSERT_EQ(mkfile("/rel/sub/f", "hello"), 0);
    KASSERT_EQ(vfs_chdir("/rel/sub"), 0);
    KEXPECT_EQ(slurp("f"), 5);
    KEXPECT_EQ(slurp("./f"), 5);
    KEXPECT_EQ(slurp("../sub/./f"), 5);
    KEXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), 9);
    KEXPECT(!strcmp(cwd, "/rel/sub"));
    KEXPECT_EQ(vfs_getcwd(cwd, 4), -ERANGE);
    KEXPECT_EQ(vfs_stat("/..", &a), 0);       /* ".." of the root is the root */
    KEXPECT_EQ(vfs_stat("/", &b), 0);
    KEXPECT_EQ(a.ino, b.ino);
    KEXPECT_EQ(vfs_stat("../../../..", &a), 0);
    KEXPECT_EQ(a.ino, b.ino);
    KEXPECT_EQ(vfs_chdir("f"), -ENOTDIR);
    KEXPECT_EQ(vfs_chdir("/"), 0);
    KEXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), 2);
    KEXPECT(!strcmp(cwd, "/"));
    vfs_unlink("/rel/sub/f");
    vfs_rmdir("/rel/sub");
    vfs_rmdir("/rel");
}

KTEST(vfs, symlinks_middle_end_and_loops)
{
    struct kstat st;
    char b[64];
    KASSERT_EQ(setup("/sl"), 0);
    KASSERT_EQ(vfs_mkdir("/sl/dir", 0755), 0);
    KASSERT_EQ(mkfile("/sl/dir/target", "T!"), 0);
    KEXPECT_EQ(vfs_symlink("dir", "/sl/ld"), 0);                 /* relative */
    KEXPECT_EQ(vfs_symlink("/sl/dir/target", "/sl/lt"), 0);      /* absolute */
    KEXPECT_EQ(vfs_symlink("ld/target", "/sl/chain"), 0);
    KEXPECT_EQ(vfs_symlink("/sl/dir/target", "/sl/ld"), -EEXIST);
    KEXPECT_EQ(slurp("/sl/ld/target"), 2);                       /* in the middle */
    KEXPECT_EQ(slurp("/sl/lt"), 2);                              /* at the end */
    KEXPECT_EQ(slurp("/sl/chain"), 2);
    KEXPECT(!strcmp(tbuf, "T!"));
    KEXPECT_EQ(vfs_lstat("/sl/lt", &st), 0);
    KEXPECT(S_ISLNK(st.mode));
    KEXPECT_EQ(st.size, 14);
    KEXPECT_EQ(vfs_stat("/sl/lt", &st), 0);
    KEXPECT(S_ISREG(st.mode));
    int n = vfs_readlink("/sl/ld", b, sizeof b);
    KEXPECT_EQ(n, 3);
    KEXPECT(!memcmp(b, "dir", 3));
    KEXPECT_EQ(vfs_readlink("/sl/dir", b, sizeof b), -EINVAL);
    /* loops */
    KEXPECT_EQ(vfs_symlink("b", "/sl/a"), 0);
    KEXPECT_EQ(vfs_symlink("a", "/sl/b"), 0);
    KEXPECT_EQ(vfs_symlink("self", "/sl/self"), 0);
    KEXPECT_EQ(vfs_stat("/sl/a", &st), -ELOOP);
    KEXPECT_EQ(vfs_stat("/sl/self/x", &st), -ELOOP);
    KEXPECT_EQ(open_err("/sl/a", O_RDONLY), -ELOOP);
    KEXPECT_EQ(vfs_lstat("/sl/a", &st), 0);        /* not followed: fine */
    KEXPECT_EQ(vfs_symlink("nowhere", "/sl/dangling"), 0);
    KEXPECT_EQ(vfs_stat("/sl/dangling", &st), -ENOENT);
    KEXPECT_EQ(open_err("/sl/lt", O_RDONLY | O_NOFOLLOW), -ELOOP);
    const char *names[] = { "/sl/a", "/sl/b", "/sl/self", "/sl/dangling", "/sl/chain",
                            "/sl/lt", "/sl/ld", "/sl/dir/target" };
    for (unsigned k = 0; k < ARRAY_SIZE(names); k++)
        KEXPECT_EQ(vfs_unlink(names[k]), 0);
    KEXPECT_EQ(vfs_rmdir("/sl/dir"), 0);
    KEXPECT_EQ(vfs_rmdir("/sl"), 0);
}

KTEST(vfs, file_read_write_offsets_append_trunc_excl)
{
    KASSERT_EQ(setup("/io"), 0);
    struct file *f = filp_open("/io/f", O_RDWR | O_CREAT | O_EXCL, 0644);
    KASSERT(!IS_ERR(f));
    KEXPECT_EQ(open_err("/io/f", O_RDWR | O_CREAT | O_EXCL), -EEXIST);
    KEXPECT_EQ(kernel_write(f, "0123456789", 10, &f->f_pos), 10);
    KEXPECT_EQ(f->f_pos, 10);
    KEXPECT_EQ(vfs_llseek(f, 2, SEEK_SET), 2);
    KEXPECT_EQ(kernel_write(f, "ab", 2, &f->f_pos), 2);
    KEXPECT_EQ(vfs_llseek(f, -3, SEEK_END), 7);
    KEXPECT_EQ(kernel_read(f, tbuf, 100, &f->f_pos), 3);
    KEXPECT(!memcmp(tbuf, "789", 3));
    KEXPECT_EQ(kernel_read(f, tbuf, 100, &f->f_pos), 0);      /* EOF */
    KEXPECT_EQ(vfs_llseek(f, -1, SEEK_SET), -EINVAL);
    KEXPECT_EQ(vfs_llseek(f, 0, 7), -EINVAL);
    /* a hole: write past EOF reads back zeros in between */
    KEXPECT_EQ(vfs_llseek(f, 6000, SEEK_SET), 6000);
    KEXPECT_EQ(kernel_write(f, "Z", 1, &f->f_pos), 1);
    loff_t p = 0;
    KEXPECT_EQ(kernel_read(f, tbuf, sizeof tbuf, &p), 6001);
    KEXPECT(!memcmp(tbuf, "01ab456789", 10));
    KEXPECT(tbuf[10] == 0 && tbuf[5999] == 0 && tbuf[6000] == 'Z');
    filp_close(f);
    /* read-only file: writes are EBADF */
    f = filp_open("/io/f", O_RDONLY, 0);
    KASSERT(!IS_ERR(f));
    KEXPECT_EQ(kernel_write(f, "x", 1, &f->f_pos), -EBADF);
    filp_close(f);
    /* O_APPEND: every write at EOF, whatever the offset */
    f = filp_open("/io/f", O_WRONLY | O_APPEND, 0);
    KASSERT(!IS_ERR(f));
    f->f_pos = 0;
    KEXPECT_EQ(kernel_write(f, "END", 3, &f->f_pos), 3);
    KEXPECT_EQ(f->f_pos, 6004);
    filp_close(f);
    KEXPECT_EQ(slurp("/io/f"), 6004);
    KEXPECT(!memcmp(tbuf + 6001, "END", 3));
    /* O_TRUNC */
    f = filp_open("/io/f", O_WRONLY | O_TRUNC, 0);
    KASSERT(!IS_ERR(f));
    KEXPECT_EQ(f->f_inode->i_size, 0);
    filp_close(f);
    KEXPECT_EQ(slurp("/io/f"), 0);
    KEXPECT_EQ(open_err("/io/nofile", O_RDONLY), -ENOENT);
    KEXPECT_EQ(vfs_unlink("/io/f"), 0);
    KEXPECT_EQ(vfs_rmdir("/io"), 0);
}

KTEST(vfs, truncate_path)
{
    KASSERT_EQ(setup("/tr"), 0);
    KASSERT_EQ(mkfile("/tr/f", "abcdefghij"), 0);
    KEXPECT_EQ(vfs_truncate("/tr/f", 4), 0);
    KEXPECT_EQ(slurp("/tr/f"), 4);
    KEXPECT(!strcmp(tbuf, "abcd"));
    KEXPECT_EQ(vfs_truncate("/tr/f", 8), 0);
    KEXPECT_EQ(slurp("/tr/f"), 8);
    KEXPECT(!memcmp(tbuf, "abcd\0\0\0\0", 8));
    KEXPECT_EQ(vfs_truncate("/tr/f", -1), -EINVAL);
    KEXPECT_EQ(vfs_truncate("/tr", 0), -EISDIR);
    vfs_unlink("/tr/f");
    vfs_rmdir("/tr");
}

KTEST(vfs, rename_link_unlink_open)
{
    struct kstat st;
    KASSERT_EQ(setup("/rn"), 0);
    KASSERT_EQ(vfs_mkdir("/rn/a", 0755), 0);
    KASSERT_EQ(vfs_mkdir("/rn/b", 0755), 0);
    KASSERT_EQ(mkfile("/rn/a/f", "data"), 0);
    KEXPECT_EQ(vfs_link("/rn/a/f", "/rn/b/hard"), 0);
    KEXPECT_EQ(vfs_stat("/rn/a/f", &st), 0);
    KEXPECT_EQ(st.nlink, 2);
    KEXPECT_EQ(vfs_link("/rn/a", "/rn/b/dirlink"), -EPERM);
    KEXPECT_EQ(vfs_link("/rn/a/f", "/rn/b/hard"), -EEXIST);
    KEXPECT_EQ(vfs_rename("/rn/a/f", "/rn/b/g"), 0);
    KEXPECT_EQ(vfs_stat("/rn/a/f", &st), -ENOENT);
    KEXPECT_EQ(slurp("/rn/b/g"), 4);
    KEXPECT_EQ(vfs_rename("/rn/b/g", "/rn/b/hard"), 0);       /* same inode: no-op */
    KEXPECT_EQ(vfs_stat("/rn/b/g", &st), 0);
    KEXPECT_EQ(vfs_rename("/rn/a", "/rn/a/sub"), -EINVAL);    /* into itself */
    KEXPECT_EQ(vfs_rename("/rn/a", "/rn/b/g"), -ENOTDIR);
    KEXPECT_EQ(vfs_rename("/rn/b/g", "/rn/a"), -EISDIR);
    KEXPECT_EQ(vfs_rename("/rn/a", "/rn/b"), -ENOTEMPTY);
    KEXPECT_EQ(vfs_rename("/rn/missing", "/rn/x"), -ENOENT);
    /* a directory moves, ".." follows */
    KEXPECT_EQ(vfs_rename("/rn/a", "/rn/b/a2"), 0);
    KEXPECT_EQ(vfs_stat("/rn/b/a2/../g", &st), 0);
    KEXPECT_EQ(vfs_stat("/rn", &st), 0);
    KEXPECT_EQ(st.nlink, 3);            /* ".", its entry, b's ".." */
    /* unlink while open: the data stays readable until the close */
    struct file *f = filp_open("/rn/b/g", O_RDONLY, 0);
    KASSERT(!IS_ERR(f));
    KEXPECT_EQ(vfs_unlink("/rn/b/g"), 0);
    KEXPECT_EQ(vfs_unlink("/rn/b/hard"), 0);
    KEXPECT_EQ(f->f_inode->i_nlink, 0);
    KEXPECT_EQ(kernel_read(f, tbuf, 10, &f->f_pos), 4);
    filp_close(f);
    KEXPECT_EQ(vfs_rmdir("/rn/b/a2"), 0);
    KEXPECT_EQ(vfs_rmdir("/rn/b"), 0);
    KEXPECT_EQ(vfs_rmdir("/rn"), 0);
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
    KASSERT_EQ(setup("/ls"), 0);
    KASSERT_EQ(mkfile("/ls/one", "1"), 0);
    KASSERT_EQ(vfs_mkdir("/ls/two", 0755), 0);
    struct file *d = filp_open("/ls", O_RDONLY | O_DIRECTORY, 0);
    KASSERT(!IS_ERR(d));
    struct lister l = { { list_actor, 0 }, "", 0 };
    KEXPECT_EQ(iterate_dir(d, &l.ctx), 0);
    if (strcmp(l.names, "./../one two/"))
        printk("listing: '%s'\n", l.names);
    KEXPECT(!strcmp(l.names, "./../one two/"));
    l.n = 0;
    l.names[0] = '\0';
    KEXPECT_EQ(iterate_dir(d, &l.ctx), 0);     /* at the end: nothing more */
    KEXPECT_EQ(l.n, 0);
    filp_close(d);
    vfs_unlink("/ls/one");
    vfs_rmdir("/ls/two");
    vfs_rmdir("/ls");
}

KTEST(vfs, mounts_dotdot_exdev_busy)
{
    struct kstat st, root;
    KASSERT_EQ(setup("/mnt"), 0);
    KASSERT_EQ(mkfile("/mnt/under", "hidden"), 0);
    KASSERT_EQ(do_mount("none", "/mnt", "ramfs", 0, NULL), 0);
    KEXPECT_EQ(do_mount("none", "/mnt", "ramfs", 0, NULL), -EBUSY);
    KEXPECT_EQ(do_mount("none", "/mnt", "nosuchfs", 0, NULL), -ENODEV);
    KEXPECT_EQ(vfs_stat("/mnt/under", &st), -ENOENT);     /* covered */
    KASSERT_EQ(mkfile("/mnt/over", "on top"), 0);
    KASSERT_EQ(vfs_mkdir("/mnt/d", 0755), 0);
    /* ".." from the mounted root climbs to the parent filesystem */
    KEXPECT_EQ(vfs_stat("/mnt/..", &st), 0);
    KEXPECT_EQ(vfs_stat("/", &root), 0);
    KEXPECT_EQ(st.ino, root.ino);
    KEXPECT_EQ(vfs_stat("/mnt/d/../../mnt/over", &st), 0);
    KEXPECT_EQ(vfs_chdir("/mnt/d"), 0);
    char cwd[32];
    KEXPECT_EQ(vfs_getcwd(cwd, sizeof cwd), 7);
    KEXPECT(!strcmp(cwd, "/mnt/d"));
    KEXPECT_EQ(slurp("../over"), 6);
    KEXPECT_EQ(do_umount("/mnt"), -EBUSY);                 /* our cwd is in it */
    KEXPECT_EQ(vfs_chdir("../.."), 0);
    /* across filesystems */
    KEXPECT_EQ(vfs_rename("/mnt/over", "/over"), -EXDEV);
    KEXPECT_EQ(vfs_link("/mnt/over", "/over"), -EXDEV);
    struct file *f = filp_open("/mnt/over", O_RDONLY, 0);
    KASSERT(!IS_ERR(f));
    KEXPECT_EQ(do_umount("/mnt"), -EBUSY);                 /* an open file */
    filp_close(f);
    KEXPECT_EQ(do_umount("/mnt/d"), -EINVAL);              /* not a mount */
    KEXPECT_EQ(vfs_rmdir("/mnt"), -EBUSY);                 /* a mount point */
    KEXPECT_EQ(do_umount("/mnt"), 0);
    KEXPECT_EQ(slurp("/mnt/under"), 6);                    /* uncovered */
    KEXPECT_EQ(do_umount("/"), -EBUSY);
    vfs_unlink("/mnt/under");
    KEXPECT_EQ(vfs_rmdir("/mnt"), 0);
}

/* ---- ramfs ---------------------------------------------------------------- */

KTEST(ramfs, files_live_in_the_page_cache)
{
    KASSERT_EQ(setup("/rf"), 0);
    KASSERT_EQ(do_mount("none", "/rf", "ramfs", 0, NULL), 0);
    struct file *f = filp_open("/rf/big", O_RDWR | O_CREAT, 0644);
    KASSERT(!IS_ERR(f));
    static char data[10000];
    for (unsigned k = 0; k < sizeof data; k++)
        data[k] = (char)(k * 13 + 1);
    KEXPECT_EQ(kernel_write(f, data, sizeof data, &f->f_pos), (ssize_t)sizeof data);
    KEXPECT_EQ(f->f_mapping->nrpages, 3);
    KEXPECT_EQ(vfs_fsync(f, 0), 0);     /* nothing to write back: still cached */
    KEXPECT_EQ(f->f_mapping->nrpages, 3);
    loff_t p = 0;
    KEXPECT_EQ(kernel_read(f, tbuf, sizeof tbuf, &p), 8192);
    KEXPECT(!memcmp(tbuf, data, 8192));
    filp_close(f);
    /* closed and reopened: the inode stayed in the cache with its pages */
    KEXPECT_EQ(slurp("/rf/big"), 8191);  /* tbuf holds at most 8191 */
    KEXPECT(!memcmp(tbuf, data, 8191));
    struct kstat st;
    KEXPECT_EQ(vfs_stat("/rf/big", &st), 0);
    KEXPECT_EQ(st.size, 10000);
    KEXPECT_EQ(do_umount("/rf"), 0);    /* frees every inode and page */
    KEXPECT_EQ(vfs_stat("/rf/big", &st), -ENOENT);
    KEXPECT_EQ(vfs_rmdir("/rf"), 0);
}

KTEST(ramfs, unmount_frees_memory)
{
    KASSERT_EQ(setup("/rm"), 0);
    unsigned long before = nr_free_pages();
    for (int round = 0; round < 3; round++) {
        KASSERT_EQ(do_mount("none", "/rm", "ramfs", 0, NULL), 0);
        KASSERT_EQ(vfs_mkdir("/rm/d", 0755), 0);
        static char page[PAGE_SIZE];
        memset(page, 'x', sizeof page);
        struct file *f = filp_open("/rm/d/f", O_WRONLY | O_CREAT, 0644);
        KASSERT(!IS_ERR(f));
        for (int k = 0; k < 16; k++)
            kernel_write(f, page, sizeof page, &f->f_pos);
        filp_close(f);
        KASSERT_EQ(vfs_symlink("d/f", "/rm/l"), 0);
        KASSERT_EQ(do_umount("/rm"), 0);
    }
    /* kmalloc may keep a few slab pages; the 16 data pages per round are back */
    KEXPECT(nr_free_pages() + 4 >= before);
    vfs_rmdir("/rm");
}
