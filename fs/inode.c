/* fs/inode.c: the inode cache.  Owns the (sb, ino) hash, inode allocation
 * and the reference count: iget_locked / unlock_new_inode / iget_failed for
 * filesystems reading inodes from disk, new_inode + insert_inode_hash for new
 * ones, igrab / iput for references, eviction (page cache emptied, then the
 * filesystem's evict_inode) at the last iput of an unlinked or unhashed inode.
 * Sits on kmalloc and the page cache; the VFS above, filesystems below.
 *
 * Also the inode's times: current_time, file_update_time (writes) and
 * touch_atime / file_accessed (reads, relatime).
 *
 * Lifetime, as Linux: an inode with links (i_nlink > 0) that is hashed stays
 * cached when its count drops to 0 (so its pages stay cached too), until
 * unmount evicts it.  Simplification: there is no LRU and no shrinker: we
 * never evict cached inodes under memory pressure.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <timer.h>
#include <sched.h>
#include <signal.h>
#include "internal.h"

#define INODE_HASH_SIZE 256
static struct list_head inode_hashtable[INODE_HASH_SIZE];
static DEFINE_SPINLOCK(inode_hash_lock);      /* the hash, i_count, i_state I_NEW/I_FREEING */
static DECLARE_WAIT_QUEUE_HEAD(inode_wait);   /* waiters for I_NEW to clear */

static const struct address_space_operations empty_aops;
static const struct inode_operations empty_iops;
static const struct file_operations empty_fops;

static unsigned inode_hashfn(struct super_block *sb, unsigned long ino)
{
    unsigned long h = ((unsigned long)sb >> 4) ^ (ino * 0x9E3779B1u);
    return (h ^ (h >> 16)) % INODE_HASH_SIZE;
}

static void inode_cache_init(void)
{
    for (int k = 0; k < INODE_HASH_SIZE; k++)
        INIT_LIST_HEAD(&inode_hashtable[k]);
}
subsys_initcall(inode_cache_init);

void inode_init_once(struct inode *inode)
{
    memset(inode, 0, sizeof *inode);
    INIT_LIST_HEAD(&inode->i_sb_list);
    INIT_LIST_HEAD(&inode->i_hash);
    INIT_LIST_HEAD(&inode->i_dirty);
    mutex_init(&inode->i_mutex);
    struct address_space *m = &inode->i_data;
    m->host = inode;
    m->a_ops = &empty_aops;
    INIT_LIST_HEAD(&m->pages);
    INIT_LIST_HEAD(&m->i_mmap);
    spin_lock_init(&m->tree_lock);
    spin_lock_init(&m->i_mmap_lock);
    inode->i_mapping = m;
}

static struct inode *alloc_inode(struct super_block *sb)
{
    struct inode *inode;
    if (sb->s_op && sb->s_op->alloc_inode) {
        inode = sb->s_op->alloc_inode(sb);
    } else {
        inode = kmalloc(sizeof *inode, GFP_KERNEL);
        if (inode)
            inode_init_once(inode);
    }
    if (!inode)
        return NULL;
    inode->i_sb = sb;
    inode->i_count = 1;
    inode->i_nlink = 1;
    inode->i_blkbits = sb->s_blocksize_bits;
    if (!inode->i_op)
        inode->i_op = &empty_iops;
    if (!inode->i_fop)
        inode->i_fop = &empty_fops;
    unsigned long flags;
    spin_lock_irqsave(&inode_hash_lock, flags);
    list_add_tail(&inode->i_sb_list, &sb->s_inodes);
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    return inode;
}

static void destroy_inode(struct inode *inode)
{
    struct super_block *sb = inode->i_sb;
    if (sb->s_op && sb->s_op->destroy_inode)
        sb->s_op->destroy_inode(inode);
    else
        kfree(inode);
}

static struct inode *find_inode(struct super_block *sb, unsigned long ino)
{
    struct inode *inode;
    list_for_each_entry(inode, &inode_hashtable[inode_hashfn(sb, ino)], i_hash)
        if (inode->i_sb == sb && inode->i_ino == ino)
            return inode;
    return NULL;
}

struct inode *iget_locked(struct super_block *sb, unsigned long ino)
{
    unsigned long flags;
    struct inode *inode, *fresh = NULL;
again:
    spin_lock_irqsave(&inode_hash_lock, flags);
    inode = find_inode(sb, ino);
    if (inode) {
        if (inode->i_state & I_FREEING) {
            /* being evicted: wait until it has left the hash */
            spin_unlock_irqrestore(&inode_hash_lock, flags);
            yield();
            goto again;
        }
        inode->i_count++;
        spin_unlock_irqrestore(&inode_hash_lock, flags);
        if (fresh) {
            spin_lock_irqsave(&inode_hash_lock, flags);
            list_del(&fresh->i_sb_list);
            spin_unlock_irqrestore(&inode_hash_lock, flags);
            destroy_inode(fresh);
        }
        wait_event(inode_wait, !(inode->i_state & I_NEW));
        if (inode->i_state & I_FAILED) {          /* its reader gave up */
            iput(inode);
            fresh = NULL;
            goto again;
        }
        return inode;
    }
    if (!fresh) {
        spin_unlock_irqrestore(&inode_hash_lock, flags);
        fresh = alloc_inode(sb);
        if (!fresh)
            return NULL;
        goto again;                     /* someone may have added it meanwhile */
    }
    fresh->i_ino = ino;
    fresh->i_state = I_NEW;
    list_add(&fresh->i_hash, &inode_hashtable[inode_hashfn(sb, ino)]);
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    return fresh;
}

void unlock_new_inode(struct inode *inode)
{
    unsigned long flags;
    spin_lock_irqsave(&inode_hash_lock, flags);
    inode->i_state &= ~I_NEW;
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    wake_up_all(&inode_wait);
}

void iget_failed(struct inode *inode)
{
    unsigned long flags;
    spin_lock_irqsave(&inode_hash_lock, flags);
    inode->i_state |= I_FAILED;
    inode->i_state &= ~I_NEW;
    list_del_init(&inode->i_hash);
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    wake_up_all(&inode_wait);
    iput(inode);
}

struct inode *new_inode(struct super_block *sb)
{
    return alloc_inode(sb);
}

void insert_inode_hash(struct inode *inode)
{
    unsigned long flags;
    spin_lock_irqsave(&inode_hash_lock, flags);
    if (list_empty(&inode->i_hash))
        list_add(&inode->i_hash, &inode_hashtable[inode_hashfn(inode->i_sb, inode->i_ino)]);
    spin_unlock_irqrestore(&inode_hash_lock, flags);
}

struct inode *igrab(struct inode *inode)
{
    unsigned long flags;
    spin_lock_irqsave(&inode_hash_lock, flags);
    if (inode->i_state & I_FREEING)
        inode = NULL;
    else
        inode->i_count++;
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    return inode;
}

/* The inode is I_FREEING and unhashed; nobody can find it any more. */
static void evict(struct inode *inode)
{
    unsigned long flags;
    if (inode->i_nlink && !(inode->i_state & I_FAILED) &&
        (inode->i_state & (I_DIRTY | I_DIRTY_PAGES)))
        write_inode_now(inode, 1);      /* still linked: keep what was written */
    spin_lock_irqsave(&inode_wb_lock, flags);
    list_del_init(&inode->i_dirty);
    spin_unlock_irqrestore(&inode_wb_lock, flags);
    truncate_inode_pages(&inode->i_data, 0);
    if (!(inode->i_state & I_FAILED) && inode->i_sb->s_op && inode->i_sb->s_op->evict_inode)
        inode->i_sb->s_op->evict_inode(inode);
    spin_lock_irqsave(&inode_hash_lock, flags);
    list_del_init(&inode->i_hash);
    list_del_init(&inode->i_sb_list);
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    wake_up_all(&inode_wait);
    destroy_inode(inode);
}

unsigned long bmap(struct inode *inode, unsigned long block)
{
    const struct address_space_operations *a_ops = inode->i_mapping->a_ops;
    return a_ops && a_ops->bmap ? a_ops->bmap(inode->i_mapping, block) : 0;
}

void iput(struct inode *inode)
{
    unsigned long flags;
    if (!inode)
        return;
    spin_lock_irqsave(&inode_hash_lock, flags);
    BUG_ON(inode->i_count <= 0);        /* more iputs than references */
    if (--inode->i_count > 0 ||
        (inode->i_nlink && !list_empty(&inode->i_hash) && !(inode->i_state & I_FAILED))) {
        spin_unlock_irqrestore(&inode_hash_lock, flags);
        return;                         /* still used, or cached while linked */
    }
    inode->i_state |= I_FREEING;
    list_del_init(&inode->i_hash);
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    evict(inode);
}

/* Unmount: evict every unused inode of sb. */
void evict_inodes(struct super_block *sb)
{
    unsigned long flags;
    for (;;) {
        struct inode *inode, *victim = NULL;
        spin_lock_irqsave(&inode_hash_lock, flags);
        list_for_each_entry(inode, &sb->s_inodes, i_sb_list)
            if (inode->i_count == 0 && !(inode->i_state & I_FREEING)) {
                victim = inode;
                break;
            }
        if (victim) {
            victim->i_state |= I_FREEING;
            list_del_init(&victim->i_hash);
        }
        spin_unlock_irqrestore(&inode_hash_lock, flags);
        if (!victim)
            return;
        evict(victim);
    }
}

int inodes_in_use(struct super_block *sb)
{
    unsigned long flags;
    struct inode *inode;
    int n = 0;
    spin_lock_irqsave(&inode_hash_lock, flags);
    list_for_each_entry(inode, &sb->s_inodes, i_sb_list)
        if (inode->i_count > 0)
            n++;
    spin_unlock_irqrestore(&inode_hash_lock, flags);
    return n;
}

void clear_nlink(struct inode *inode) { inode->i_nlink = 0; }
void inc_nlink(struct inode *inode) { inode->i_nlink++; }
void drop_nlink(struct inode *inode)
{
    if (WARN(inode->i_nlink == 0, "drop_nlink: inode %lu already has no links", inode->i_ino))
        return;
    inode->i_nlink--;
}

/* Copy every attribute but the size from attr into the in-core inode and
 * mark it dirty (Linux's setattr_copy + mark_inode_dirty).  The size is the
 * filesystem's business: it must free blocks.  Caller holds i_mutex. */
void setattr_copy(struct inode *inode, const struct iattr *attr)
{
    if (attr->ia_valid & ATTR_MODE)
        inode->i_mode = (inode->i_mode & S_IFMT) | (attr->ia_mode & ~S_IFMT);
    if (attr->ia_valid & ATTR_UID)
        inode->i_uid = attr->ia_uid;
    if (attr->ia_valid & ATTR_GID)
        inode->i_gid = attr->ia_gid;
    if (attr->ia_valid & ATTR_ATIME)
        inode->i_atime = attr->ia_atime;
    if (attr->ia_valid & ATTR_MTIME)
        inode->i_mtime = attr->ia_mtime;
    if (attr->ia_valid & ATTR_CTIME)
        inode->i_ctime = attr->ia_ctime;
    mark_inode_dirty(inode);
}

/* Linux's inode_newsize_ok (fs/attr.c): may inode's size become offset?
 * Growing past RLIMIT_FSIZE is -EFBIG and sends SIGXFSZ (as a write does,
 * mm/filemap.c generic_write_check_limits); growing past s_maxbytes is
 * -EFBIG; a negative size -EINVAL; shrinking is always allowed (no swap
 * files here).  Note the limit itself is a size a truncate may reach,
 * where a write may not start at it. */
int inode_newsize_ok(const struct inode *inode, loff_t offset)
{
    if (offset < 0)
        return -EINVAL;
    if (inode->i_size < offset) {
        unsigned long long limit = current->rlim_fsize[0];
        if (limit != RLIM64_INFINITY && (unsigned long long)offset > limit) {
            send_signal(current, SIGXFSZ, NULL);
            return -EFBIG;
        }
        if (offset > inode->i_sb->s_maxbytes)
            return -EFBIG;
    }
    return 0;
}

/* setattr for filesystems without their own (ramfs): the page cache is all
 * there is to truncate.  Caller holds i_mutex. */
int simple_setattr(struct inode *inode, struct iattr *attr)
{
    if (attr->ia_valid & ATTR_SIZE)
        truncate_setsize(inode, attr->ia_size);
    setattr_copy(inode, attr);
    return 0;
}


/* ---- time -------------------------------------------------------------
 * current_time(): the wall clock of the timekeeping code (kernel/sys.c: the
 * RTC read once at boot, plus the uptime), as clock_gettime(CLOCK_REALTIME)
 * reports it. */
time_t current_time(void)
{
    return ktime_get_real_seconds();
}

/* file_update_time: a write sets mtime and ctime to now.  As Linux's
 * file_update_time (fs/inode.c), the inode is dirtied only when a time
 * actually changes: times have one-second granularity, so most writes find
 * both equal already and skip mark_inode_dirty (and its lock).  An inode
 * whose times did change is dirtied, and the flusher writes it. */
void file_update_time(struct file *file)
{
    struct inode *inode = file->f_mapping->host;
    time_t now = current_time();
    if (inode->i_mtime == now && inode->i_ctime == now)
        return;
    inode->i_mtime = inode->i_ctime = now;
    mark_inode_dirty(inode);
}

/* relatime (Linux's relatime_need_update): the access time is worth
 * updating if it is not after the last modification or change, or is a
 * day old.  So a file read twice since it last changed is written once,
 * and programs that compare atime with mtime (mail readers) still work. */
static int relatime_need_update(struct inode *inode, time_t now)
{
    if (inode->i_mtime >= inode->i_atime || inode->i_ctime >= inode->i_atime)
        return 1;
    return (long)(now - inode->i_atime) >= 24 * 60 * 60;
}

/* Linux's touch_atime, relatime being every mount's mode: atime = now, the
 * inode dirtied (ext2 writes it back) only when it changes. */
void touch_atime(const struct path *path)
{
    struct inode *inode = path->inode;
    time_t now = current_time();
    if (inode->i_sb->s_flags & MS_RDONLY)
        return;
    if (!relatime_need_update(inode, now) || inode->i_atime == now)
        return;
    inode->i_atime = now;
    mark_inode_dirty(inode);
}

void file_accessed(struct file *file)
{
    if (!(file->f_flags & O_NOATIME))
        touch_atime(&file->f_path);
}
