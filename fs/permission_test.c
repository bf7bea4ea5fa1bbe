/* fs/permission_test.c: the ktests of permission.c (test=perm); built into
 * the test kernel only.  The checks run on in-memory inodes (no
 * filesystem: generic_permission reads only the mode and the owner) with
 * the test kthread's own credentials changed and put back; the same rules
 * are compared with Linux from user space by user/conform/perms.c. */
#include "permission.c"
#include <string.h>
#include <ktest.h>

static void as_user(uid_t uid, gid_t gid)
{
    struct cred *c = &current->cred;
    memset(c, 0, sizeof *c);
    c->uid = c->euid = c->suid = c->fsuid = uid;
    c->gid = c->egid = c->sgid = c->fsgid = gid;
}

/* The owner's bits for the owner (even when the group's say more), the
 * group's for a member, the others' for the rest. */
KTEST(perm, owner_group_other_classes)
{
    struct inode i = { .i_mode = S_IFREG | 0070, .i_uid = 1000, .i_gid = 1000 };
    as_user(1000, 1000);
    KT_EXPECT_EQ(inode_permission(&i, MAY_READ), -EACCES);   /* owner: no bits */
    as_user(1001, 1000);
    KT_EXPECT_EQ(inode_permission(&i, MAY_READ | MAY_WRITE | MAY_EXEC), 0);
    as_user(1001, 1001);
    KT_EXPECT_EQ(inode_permission(&i, MAY_READ), -EACCES);
    current->cred.groups[0] = 1000;                          /* a supplementary group */
    current->cred.ngroups = 1;
    KT_EXPECT_EQ(inode_permission(&i, MAY_WRITE), 0);
    i.i_mode = S_IFREG | 0604;
    as_user(2000, 2000);
    KT_EXPECT_EQ(inode_permission(&i, MAY_READ), 0);
    KT_EXPECT_EQ(inode_permission(&i, MAY_WRITE), -EACCES);
    as_user(0, 0);
}

/* Root reads and writes anything, searches any directory, executes only
 * what has an x bit somewhere. */
KTEST(perm, root_overrides_but_exec_needs_an_x_bit)
{
    struct inode f = { .i_mode = S_IFREG | 0000, .i_uid = 1000 };
    struct inode d = { .i_mode = S_IFDIR | 0000, .i_uid = 1000 };
    as_user(0, 0);
    KT_EXPECT_EQ(inode_permission(&f, MAY_READ | MAY_WRITE), 0);
    KT_EXPECT_EQ(inode_permission(&f, MAY_EXEC), -EACCES);
    f.i_mode = S_IFREG | 0001;
    KT_EXPECT_EQ(inode_permission(&f, MAY_EXEC), 0);
    KT_EXPECT_EQ(inode_permission(&d, MAY_EXEC | MAY_WRITE | MAY_READ), 0);
    current->cred.fsuid = 1000 + 1;      /* root's euid, another fsuid: no override */
    KT_EXPECT_EQ(inode_permission(&d, MAY_EXEC), -EACCES);
    as_user(0, 0);
}

/* may_delete: write and search on the directory, then the sticky bit,
 * then the kinds; may_create: write and search, a removed directory. */
KTEST(perm, may_delete_sticky_and_kinds)
{
    struct inode dir = { .i_mode = S_IFDIR | 01777, .i_uid = 0 };
    struct inode roots = { .i_mode = S_IFREG | 0666, .i_uid = 0 };
    struct inode mine = { .i_mode = S_IFREG | 0600, .i_uid = 1000 };
    struct inode sub = { .i_mode = S_IFDIR | 0777, .i_uid = 1000 };
    as_user(1000, 1000);
    KT_EXPECT_EQ(may_delete(&dir, &roots, 0), -EPERM);
    KT_EXPECT_EQ(may_delete(&dir, &mine, 0), 0);
    KT_EXPECT_EQ(may_delete(&dir, &mine, 1), -ENOTDIR);
    KT_EXPECT_EQ(may_delete(&dir, &sub, 0), -EISDIR);
    dir.i_uid = 1000;                    /* the directory's owner may */
    KT_EXPECT_EQ(may_delete(&dir, &roots, 0), 0);
    dir.i_mode = S_IFDIR | 0555;
    KT_EXPECT_EQ(may_delete(&dir, &mine, 0), -EACCES);
    KT_EXPECT_EQ(may_create(&dir), -EACCES);
    dir.i_mode = S_IFDIR | 0777;
    dir.i_flags = S_DEAD;
    KT_EXPECT_EQ(may_create(&dir), -ENOENT);
    as_user(0, 0);
}

/* should_remove_suid: S_ISUID always, S_ISGID only with g+x, never for
 * root (CAP_FSETID) or a non-regular file. */
KTEST(perm, should_remove_suid_rules)
{
    struct inode i = { .i_mode = S_IFREG | 06755, .i_uid = 1000 };
    as_user(1000, 1000);
    KT_EXPECT_EQ(should_remove_suid(&i), ATTR_KILL_SUID | ATTR_KILL_SGID);
    i.i_mode = S_IFREG | 02745;
    KT_EXPECT_EQ(should_remove_suid(&i), 0);
    i.i_mode = S_IFDIR | 06755;
    KT_EXPECT_EQ(should_remove_suid(&i), 0);
    i.i_mode = S_IFREG | 04700;
    as_user(0, 0);
    KT_EXPECT_EQ(should_remove_suid(&i), 0);
}
