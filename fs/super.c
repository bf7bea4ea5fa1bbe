/* fs/super.c: filesystem types and superblocks.  register_filesystem keeps
 * the list of known types; alloc_super/destroy_super make and free the
 * in-core superblock that a type's fill_super fills; super_blocks lists
 * every mounted one (for sync and the flusher).  Mounting itself (the
 * tree) is fs/namespace.c.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include "internal.h"

LIST_HEAD(super_blocks);
DEFINE_MUTEX(sb_list_lock);
static struct file_system_type *file_systems;

int register_filesystem(struct file_system_type *fs)
{
    for (struct file_system_type *t = file_systems; t; t = t->next)
        if (!strcmp(t->name, fs->name))
            return -EBUSY;
    fs->next = file_systems;
    file_systems = fs;
    return 0;
}

struct file_system_type *get_fs_type(const char *name)
{
    for (struct file_system_type *t = file_systems; t; t = t->next)
        if (!strcmp(t->name, name))
            return t;
    return NULL;
}

struct super_block *alloc_super(struct file_system_type *type)
{
    /* Anonymous device numbers for superblocks without a disk, as Linux's
     * get_anon_bdev(); simplification: never reused (a counter). */
    static unsigned int next_anon_dev = 1;
    struct super_block *sb = kmalloc(sizeof *sb, GFP_KERNEL);
    if (!sb)
        return NULL;
    memset(sb, 0, sizeof *sb);
    INIT_LIST_HEAD(&sb->s_inodes);
    INIT_LIST_HEAD(&sb->s_dirty);
    INIT_LIST_HEAD(&sb->s_list);
    mutex_init(&sb->s_lock);
    sb->s_type = type;
    sb->s_blocksize = PAGE_SIZE;
    sb->s_blocksize_bits = PAGE_SHIFT;
    sb->s_maxbytes = 0x7fffffff;
    sb->s_anon_dev = next_anon_dev++ & 0xff;   /* minor only, major 0 */
    return sb;
}

void destroy_super(struct super_block *sb)
{
    kfree(sb);
}
