/* include/writeback.h: writing dirty pages and inodes back to disk
 * (mm/page-writeback.c, fs/fs-writeback.c).  A flusher kernel thread writes
 * data that has been dirty longer than dirty_expire_centisecs, every
 * dirty_writeback_centisecs; sync(), fsync() and unmount write at once. */
#ifndef _WRITEBACK_H
#define _WRITEBACK_H
#include <fs.h>

enum writeback_sync_modes { WB_SYNC_NONE, WB_SYNC_ALL };
struct writeback_control {
    enum writeback_sync_modes sync_mode;    /* ALL: wait for every page's I/O */
    long nr_to_write;                       /* pages left to write in this pass */
    unsigned long older_than_this;          /* jiffies; 0 = any age */
    unsigned tagged_writepages:1;           /* WB_SYNC_NONE too writes only the pages
                                               dirty when the pass began (sync) */
};

extern unsigned int dirty_writeback_centisecs;  /* flusher period (default 500) */
extern unsigned int dirty_expire_centisecs;     /* age that makes data due (default 3000) */
int write_inode_now(struct inode *inode, int sync);
int writeback_inodes_sb(struct super_block *sb, struct writeback_control *wbc);
void wakeup_flusher_threads(void);
/* Background writeback: the flusher writes dirty pages of any age until
 * they are under vm_dirty_background_ratio (fs/fs-writeback.c).  Any
 * process context. */
void wakeup_flusher_background(void);
/* Write a mapping's dirty pages through ->writepage (mm/page-writeback.c). */
int do_writepages(struct address_space *mapping, struct writeback_control *wbc);
/* From set_page_dirty: the inode has dirty pages; put it on sb->s_dirty
 * with dirtied_when (fs/fs-writeback.c). */
void inode_mark_dirty_pages(struct inode *inode);
#endif
