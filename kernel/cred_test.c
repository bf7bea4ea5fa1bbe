/* kernel/cred_test.c: the ktests of cred.c (test=cred); built into the test
 * kernel only.  Each test changes the test kthread's own credentials
 * through the system-call functions and puts root's back at the end; the
 * rules are Linux's (kernel/cred.c's header), the same that
 * user/conform/creds.c compares with Linux from user space. */
#include "cred.c"
#include <ktest.h>

#define KADDR ((void *)0xC0000000)     /* a kernel address: access_ok says no */

static void set_all(uid_t r, uid_t e, uid_t s, uid_t fs)
{
    struct cred *c = &current->cred;
    c->uid = r, c->euid = e, c->suid = s, c->fsuid = fs;
}

static void back_to_root(void)
{
    memset(&current->cred, 0, sizeof current->cred);
}

/* setuid: root sets all four; an ordinary user only to its real or saved
 * uid, and then only the effective and fs uid change. */
KTEST(cred, setuid_root_and_user)
{
    KT_EXPECT_EQ(sys_setuid((uid_t)-1), -EINVAL);
    KT_EXPECT_EQ(sys_setuid(1000), 0);
    const struct cred *c = current_cred();
    KT_EXPECT(c->uid == 1000 && c->euid == 1000 && c->suid == 1000 && c->fsuid == 1000);
    KT_EXPECT_EQ(sys_setuid(0), -EPERM);
    set_all(1000, 2000, 0, 2000);
    KT_EXPECT_EQ(sys_setuid(0), 0);                  /* the saved uid */
    KT_EXPECT(c->uid == 1000 && c->euid == 0 && c->suid == 0 && c->fsuid == 0);
    KT_EXPECT_EQ(sys_setuid(5), 0);                  /* euid 0 again: all four */
    KT_EXPECT(c->uid == 5 && c->euid == 5 && c->suid == 5 && c->fsuid == 5);
    back_to_root();
}

/* setreuid: the saved uid follows the new euid when the real uid is given
 * or the euid differs from the old real uid. */
KTEST(cred, setreuid_saved_rule)
{
    const struct cred *c = current_cred();
    KT_EXPECT_EQ(sys_setreuid((uid_t)-1, 1000), 0);
    KT_EXPECT(c->uid == 0 && c->euid == 1000 && c->suid == 1000 && c->fsuid == 1000);
    KT_EXPECT_EQ(sys_setreuid((uid_t)-1, 0), 0);     /* 0 is the real uid */
    KT_EXPECT(c->uid == 0 && c->euid == 0 && c->suid == 1000);
    set_all(1000, 1000, 1000, 1000);
    KT_EXPECT_EQ(sys_setreuid(2000, (uid_t)-1), -EPERM);
    KT_EXPECT_EQ(sys_setreuid((uid_t)-1, 0), -EPERM);
    back_to_root();
}

/* setresuid: each id one of the three old ones; setfsuid returns the old
 * fsuid and changes it only when allowed. */
KTEST(cred, setresuid_and_setfsuid)
{
    const struct cred *c = current_cred();
    set_all(1000, 2000, 3000, 2000);
    KT_EXPECT_EQ(sys_setresuid(3000, 1000, 2000), 0);
    KT_EXPECT(c->uid == 3000 && c->euid == 1000 && c->suid == 2000 && c->fsuid == 1000);
    KT_EXPECT_EQ(sys_setresuid(4000, (uid_t)-1, (uid_t)-1), -EPERM);
    KT_EXPECT_EQ(sys_setfsuid(0), 1000);             /* refused: not one of ours */
    KT_EXPECT_EQ(c->fsuid, 1000);
    KT_EXPECT_EQ(sys_setfsuid(3000), 1000);          /* the real uid: allowed */
    KT_EXPECT_EQ(sys_setfsuid((uid_t)-1), 3000);     /* a query */
    back_to_root();
}

/* Groups: sorted, only root sets them, -1 and too many are -EINVAL;
 * getgroups' size rules; in_group_p sees fsgid and the list. */
KTEST(cred, groups)
{
    gid_t g[3] = { 30, 10, 20 };
    gid_t out[4];
    KT_EXPECT_EQ(set_groups(g, 3), 0);               /* sys_setgroups' copied array */
    const struct cred *c = current_cred();
    KT_EXPECT(c->ngroups == 3 && c->groups[0] == 10 && c->groups[1] == 20 && c->groups[2] == 30);
    KT_EXPECT(in_group_p(20) && in_group_p(0) && !in_group_p(40));
    KT_EXPECT_EQ(sys_getgroups(0, NULL), 3);
    KT_EXPECT_EQ(sys_getgroups(2, out), -EINVAL);
    KT_EXPECT_EQ(sys_getgroups(-1, out), -EINVAL);
    KT_EXPECT_EQ(sys_getgroups(4, KADDR), -EFAULT);
    g[1] = (gid_t)-1;
    KT_EXPECT_EQ(set_groups(g, 2), -EINVAL);
    KT_EXPECT_EQ(sys_setgroups(NGROUPS_SMALL + 1, KADDR), -EINVAL);   /* before any copy */
    KT_EXPECT_EQ(sys_setgroups(2, KADDR), -EFAULT);
    KT_EXPECT_EQ(c->ngroups, 3);                     /* unchanged by the failures */
    set_all(1000, 1000, 1000, 1000);
    KT_EXPECT_EQ(sys_setgroups(0, NULL), -EPERM);
    back_to_root();
}

/* The 16-bit mapping: 0xffff in is -1, above 65535 out is 65534. */
KTEST(cred, uid16_mapping)
{
    KT_EXPECT_EQ(sys_setuid16(0xffff), -EINVAL);
    KT_EXPECT_EQ(sys_setresuid16(0xffff, 0xffff, 0xffff), 0);
    KT_EXPECT_EQ(sys_setresgid(70000, 70000, 70000), 0);
    KT_EXPECT_EQ(sys_getgid16(), 65534);
    KT_EXPECT_EQ(sys_getgid(), 70000);
    back_to_root();
}

/* exec: set-user-ID gives the owner's uid, set-group-ID only with g+x;
 * the saved and fs ids always become the effective ones. */
KTEST(cred, exec_applies_setid_bits)
{
    struct inode ino = { .i_uid = 2000, .i_gid = 3000 };
    const struct cred *c = current_cred();
    set_all(1000, 1000, 1001, 1000);
    ino.i_mode = S_IFREG | 04755;
    exec_creds(&current->cred, &ino);
    KT_EXPECT(c->uid == 1000 && c->euid == 2000 && c->suid == 2000 && c->fsuid == 2000);
    set_all(1000, 1000, 1001, 1000);
    ino.i_mode = S_IFREG | 02745;                    /* no group-execute: no change */
    exec_creds(&current->cred, &ino);
    KT_EXPECT(c->egid == 0 && c->euid == 1000 && c->suid == 1000);
    ino.i_mode = S_IFREG | 02755;
    exec_creds(&current->cred, &ino);
    KT_EXPECT(c->gid == 0 && c->egid == 3000 && c->sgid == 3000 && c->fsgid == 3000);
    back_to_root();
}

/* capable(): the file-system capabilities follow fsuid, the others euid. */
KTEST(cred, capable_follows_fsuid_and_euid)
{
    set_all(0, 0, 0, 1000);
    KT_EXPECT(capable(CAP_SETUID) && !capable(CAP_DAC_OVERRIDE) && !capable(CAP_CHOWN));
    set_all(1000, 1000, 0, 0);
    KT_EXPECT(!capable(CAP_SETGID) && capable(CAP_FOWNER));
    back_to_root();
}

/* The capability sets capget reports follow the ids (root's euid: all of
 * them; fs ones with the fsuid; a user: none), less what capset dropped;
 * a dropped effective capability makes capable() say no until it is
 * raised again, which needs it permitted; execve's creds clear the drops. */
KTEST(cred, capset_drops_and_capable_follows)
{
    struct cred *c = &current->cred;
    uint64_t e, p, i;
    cap_sets(c, &e, &p, &i);
    KT_EXPECT(e == CAP_FULL_SET && p == CAP_FULL_SET && i == 0);
    KT_EXPECT(capable(CAP_SYS_RESOURCE));
    c->cap_dropped_eff = 1ULL << CAP_SYS_RESOURCE;
    KT_EXPECT(!capable(CAP_SYS_RESOURCE));
    KT_EXPECT(capable(CAP_SYS_ADMIN));
    cap_sets(c, &e, &p, &i);
    KT_EXPECT(e == (CAP_FULL_SET & ~(1ULL << CAP_SYS_RESOURCE)) && p == CAP_FULL_SET);
    struct cred n = *c;
    exec_creds(&n, NULL);
    KT_EXPECT(n.cap_dropped_eff == 0 && n.cap_dropped_perm == 0);
    set_all(0, 0, 0, 1000);                          /* fsuid not root: no fs capabilities */
    c->cap_dropped_eff = 0;
    cap_sets(c, &e, &p, &i);
    KT_EXPECT(e == (CAP_FULL_SET & ~CAP_FS_MASK) && p == CAP_FULL_SET);
    set_all(1000, 1000, 1000, 1000);
    cap_sets(c, &e, &p, &i);
    KT_EXPECT(e == 0 && p == 0);
    back_to_root();
    /* euid back to 0: the effective set is the permitted one again */
    c->cap_dropped_eff = 1ULL << CAP_SYS_RESOURCE;
    KT_EXPECT_EQ(sys_setresuid(-1, 1000, -1), 0);
    KT_EXPECT_EQ(sys_setresuid(-1, 0, -1), 0);
    KT_EXPECT(capable(CAP_SYS_RESOURCE));
    back_to_root();
    KT_EXPECT_EQ(sys_capget(KADDR, NULL), -EFAULT);
    KT_EXPECT_EQ(sys_capset(KADDR, NULL), -EFAULT);
}
