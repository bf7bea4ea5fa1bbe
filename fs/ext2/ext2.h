/* fs/ext2/ext2.h: what the files of fs/ext2/ share (not a public interface).
 *
 *   super.c   mount: superblock and group-descriptor validation, ext3's
 *             journal checked and recovered (fs/jbd/), statfs,
 *             sync_fs, put_super; registers "ext2"
 *   balloc.c  block bitmaps: ext2_new_block, ext2_free_blocks; the
 *             "is this a data block" range check every pointer goes through
 *   ialloc.c  inode bitmaps: ext2_new_inode, ext2_free_inode
 *   inode.c   ext2_iget, write_inode, evict_inode, ext2_get_block (the
 *             i_block[] tree), truncate, setattr, the a_ops
 *   dir.c     directory blocks: lookup, readdir, add/delete entries
 *   namei.c   the inode_operations: create, mkdir, rmdir, unlink, rename,
 *             link, symlink, readlink
 */
#ifndef _FS_EXT2_EXT2_H
#define _FS_EXT2_EXT2_H
#include <kernel.h>
#include <fs.h>
#include <ext2_fs.h>
#include <buffer_head.h>

/* super.c */
struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb, unsigned long group,
                                            struct buffer_head **bhp);
int ext2_group_has_super(struct super_block *sb, unsigned long g);
void ext2_error(struct super_block *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* balloc.c */
int ext2_data_block_valid(struct super_block *sb, unsigned long block);
unsigned long ext2_new_block(struct inode *inode, unsigned long goal, int *err);
void ext2_free_blocks(struct inode *inode, unsigned long block, unsigned long count);
unsigned long ext2_count_free_blocks(struct super_block *sb);

/* ialloc.c */
struct inode *ext2_new_inode(struct inode *dir, mode_t mode);   /* ERR_PTR */
void ext2_free_inode(struct inode *inode);

/* inode.c */
struct inode *ext2_iget(struct super_block *sb, unsigned long ino);  /* ERR_PTR */
int ext2_write_inode(struct inode *inode, int sync);
void ext2_evict_inode(struct inode *inode);
int ext2_get_block(struct inode *inode, sector_t iblock, struct buffer_head *bh, int create);
struct buffer_head *ext2_bread(struct inode *inode, sector_t iblock, int create, int *err);
void ext2_truncate_blocks(struct inode *inode, loff_t offset);
int ext2_setattr(struct inode *inode, struct iattr *attr);
void ext2_set_inode_ops(struct inode *inode);
int ext2_inode_is_fast_symlink(struct inode *inode);
extern const struct address_space_operations ext2_aops;
extern const struct file_operations ext2_file_operations;
extern const struct inode_operations ext2_file_inode_operations;
extern const struct inode_operations ext2_symlink_inode_operations;

/* dir.c */
int ext2_inode_by_name(struct inode *dir, const char *name, size_t len, unsigned long *ino);
int ext2_add_link(struct inode *dir, const char *name, size_t len, struct inode *inode);
int ext2_delete_entry(struct inode *dir, const char *name, size_t len);
int ext2_set_link(struct inode *dir, const char *name, size_t len, struct inode *inode,
                  bool update_times);
int ext2_removed_dir_parent(struct inode *dir, unsigned long *ino);
int ext2_empty_dir(struct inode *dir);
int ext2_make_empty(struct inode *inode, struct inode *parent);
extern const struct file_operations ext2_dir_operations;

/* namei.c */
extern const struct inode_operations ext2_dir_inode_operations;
#endif
