/* include/ext2_fs.h: the ext2 on-disk format and ext2's in-core structures
 * (fs/ext2/).  Field names are ext2's own (as in Linux and e2fsprogs).
 * Every on-disk integer is little-endian; x86 is too, so Vellum reads the
 * fields directly (Linux wraps them in le32_to_cpu; a big-endian port would
 * have to).  The layout picture is in docs/ext2.md.
 */
#ifndef _EXT2_FS_H
#define _EXT2_FS_H
#include <types.h>
#include <fs.h>
#include <mutex.h>

#define EXT2_SUPER_MAGIC     0xEF53
#define EXT2_SUPER_OFFSET    1024          /* bytes from the start of the device */
#define EXT2_ROOT_INO        2
#define EXT2_GOOD_OLD_REV    0             /* revision 0: 128-byte inodes, first_ino 11 */
#define EXT2_DYNAMIC_REV     1
#define EXT2_GOOD_OLD_FIRST_INO   11
#define EXT2_GOOD_OLD_INODE_SIZE  128
#define EXT2_MIN_BLOCK_LOG   10            /* 1 KiB */
#define EXT2_MAX_BLOCK_LOG   12            /* 4 KiB (the page size: our limit) */
#define EXT2_LINK_MAX        32000

/* s_state: VALID_FS is set only while the filesystem is unmounted cleanly
 * (cleared on disk by a read-write mount of ext2, set again at unmount; ext3
 * keeps it set, as Linux's: the journal keeps the disk consistent), ERROR_FS
 * once an error was found; e2fsck -p checks a filesystem lacking VALID_FS or
 * having ERROR_FS.  s_max_mnt_count: mounts before a check is due. */
#define EXT2_VALID_FS        0x0001
#define EXT2_ERROR_FS        0x0002
#define EXT3_ORPHAN_FS       0x0004        /* in s_mount_state only: the mount is
                                              processing the orphan list (ext2_iget
                                              then reads inodes with no links) */
#define EXT2_DFL_MAX_MNT_COUNT 20

/* s_errors: what to do when an error is detected, the default of the mount
 * option errors= (Linux's EXT2_ERRORS_*; mke2fs -e, tune2fs -e). */
#define EXT2_ERRORS_CONTINUE 1
#define EXT2_ERRORS_RO       2
#define EXT2_ERRORS_PANIC    3

/* sbi->s_mount_opt: the mount options (fs/ext2/super.c, parse_options). */
#define EXT2_MOUNT_ERRORS_CONT  0x0001     /* errors=continue */
#define EXT2_MOUNT_ERRORS_RO    0x0002     /* errors=remount-ro */
#define EXT2_MOUNT_ERRORS_PANIC 0x0004     /* errors=panic */
#define EXT2_MOUNT_ERRORS_MASK  0x0007

/* i_block[]: 12 direct pointers, then single, double, triple indirect */
#define EXT2_NDIR_BLOCKS     12
#define EXT2_IND_BLOCK       12
#define EXT2_DIND_BLOCK      13
#define EXT2_TIND_BLOCK      14
#define EXT2_N_BLOCKS        15

/* features */
#define EXT2_FEATURE_COMPAT_DIR_INDEX      0x0020
#define EXT2_FEATURE_INCOMPAT_FILETYPE     0x0002
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER 0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE  0x0002
/* ext3 (fs/jbd/, docs/journal.md): a journal in inode s_journal_inum;
 * RECOVER ("needs_recovery") is set while the journal may hold transactions
 * not yet written home, and is accepted only with HAS_JOURNAL: the mount
 * replays the journal and clears it.  JOURNAL_DEV (the filesystem is an
 * external journal) and external journals (s_journal_inum 0) are refused. */
#define EXT3_FEATURE_COMPAT_HAS_JOURNAL    0x0004
#define EXT3_FEATURE_INCOMPAT_RECOVER      0x0004
#define EXT3_FEATURE_INCOMPAT_JOURNAL_DEV  0x0008
#define EXT2_FEATURE_INCOMPAT_SUPP  (EXT2_FEATURE_INCOMPAT_FILETYPE | \
                                     EXT3_FEATURE_INCOMPAT_RECOVER)
#define EXT2_FEATURE_RO_COMPAT_SUPP (EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
                                     EXT2_FEATURE_RO_COMPAT_LARGE_FILE)

struct ext2_super_block {
    uint32_t s_inodes_count;       /*   0 */
    uint32_t s_blocks_count;       /*   4 */
    uint32_t s_r_blocks_count;     /*   8 reserved for root */
    uint32_t s_free_blocks_count;  /*  12 */
    uint32_t s_free_inodes_count;  /*  16 */
    uint32_t s_first_data_block;   /*  20 1 for 1 KiB blocks, else 0 */
    uint32_t s_log_block_size;     /*  24 block size = 1024 << this */
    uint32_t s_log_frag_size;      /*  28 */
    uint32_t s_blocks_per_group;   /*  32 */
    uint32_t s_frags_per_group;    /*  36 */
    uint32_t s_inodes_per_group;   /*  40 */
    uint32_t s_mtime;              /*  44 */
    uint32_t s_wtime;              /*  48 */
    uint16_t s_mnt_count;          /*  52 */
    uint16_t s_max_mnt_count;      /*  54 */
    uint16_t s_magic;              /*  56 0xEF53 */
    uint16_t s_state;              /*  58 */
    uint16_t s_errors;             /*  60 */
    uint16_t s_minor_rev_level;    /*  62 */
    uint32_t s_lastcheck;          /*  64 */
    uint32_t s_checkinterval;      /*  68 */
    uint32_t s_creator_os;         /*  72 */
    uint32_t s_rev_level;          /*  76 */
    uint16_t s_def_resuid;         /*  80 */
    uint16_t s_def_resgid;         /*  82 */
    /* EXT2_DYNAMIC_REV only: */
    uint32_t s_first_ino;          /*  84 first non-reserved inode */
    uint16_t s_inode_size;         /*  88 */
    uint16_t s_block_group_nr;     /*  90 */
    uint32_t s_feature_compat;     /*  92 */
    uint32_t s_feature_incompat;   /*  96 */
    uint32_t s_feature_ro_compat;  /* 100 */
    uint8_t  s_uuid[16];           /* 104 */
    char     s_volume_name[16];    /* 120 */
    char     s_last_mounted[64];   /* 136 */
    uint32_t s_algorithm_usage_bitmap; /* 200 */
    uint8_t  s_prealloc_blocks;    /* 204 */
    uint8_t  s_prealloc_dir_blocks;/* 205 */
    uint16_t s_reserved_gdt_blocks;/* 206 resize_inode */
    /* ext3 (COMPAT_HAS_JOURNAL): */
    uint8_t  s_journal_uuid[16];   /* 208 an external journal's UUID */
    uint32_t s_journal_inum;       /* 224 the journal's inode (8), 0 if external */
    uint32_t s_journal_dev;        /* 228 an external journal's device */
    uint32_t s_last_orphan;        /* 232 head of the orphan list */
    uint8_t  s_rest[788];          /* 236..1023: not used by Vellum */
};

struct ext2_group_desc {           /* 32 bytes, in the blocks after the superblock */
    uint32_t bg_block_bitmap;
    uint32_t bg_inode_bitmap;
    uint32_t bg_inode_table;
    uint16_t bg_free_blocks_count;
    uint16_t bg_free_inodes_count;
    uint16_t bg_used_dirs_count;
    uint16_t bg_pad;
    uint32_t bg_reserved[3];
};

struct ext2_inode {                /* the first 128 bytes of every on-disk inode */
    uint16_t i_mode;               /*   0 */
    uint16_t i_uid;                /*   2 low 16 bits */
    uint32_t i_size;               /*   4 low 32 bits */
    uint32_t i_atime;              /*   8 */
    uint32_t i_ctime;              /*  12 */
    uint32_t i_mtime;              /*  16 */
    uint32_t i_dtime;              /*  20 deletion time */
    uint16_t i_gid;                /*  24 */
    uint16_t i_links_count;        /*  26 */
    uint32_t i_blocks;             /*  28 in 512-byte units, indirect blocks included */
    uint32_t i_flags;              /*  32 */
    uint32_t i_osd1;               /*  36 */
    uint32_t i_block[EXT2_N_BLOCKS];/* 40 block pointers, or a fast symlink's target */
    uint32_t i_generation;         /* 100 */
    uint32_t i_file_acl;           /* 104 */
    uint32_t i_size_high;          /* 108 rev 1 regular files: high 32 bits of size */
    uint32_t i_faddr;              /* 112 */
    uint8_t  l_i_frag, l_i_fsize;  /* 116 */
    uint16_t i_pad1;               /* 118 */
    uint16_t l_i_uid_high;         /* 120 */
    uint16_t l_i_gid_high;         /* 122 */
    uint32_t l_i_reserved2;        /* 124 */
};

#define EXT2_INDEX_FL 0x00001000   /* hashed directory (dir_index): we clear it on change */

/* Directory entry: 8-byte header then the name (not NUL-terminated); entries
 * are 4-byte aligned and rec_len reaches the next entry (the last one of a
 * block reaches the block's end).  Without the filetype feature the
 * file_type byte is the high byte of a 16-bit name_len. */
struct ext2_dir_entry_2 {
    uint32_t inode;                /* 0 = unused entry */
    uint16_t rec_len;
    uint8_t  name_len;
    uint8_t  file_type;            /* EXT2_FT_* (filetype feature) */
    char     name[];
};
#define EXT2_DIR_REC_LEN(name_len) (((name_len) + 8 + 3) & ~3)
enum { EXT2_FT_UNKNOWN, EXT2_FT_REG_FILE, EXT2_FT_DIR, EXT2_FT_CHRDEV, EXT2_FT_BLKDEV,
       EXT2_FT_FIFO, EXT2_FT_SOCK, EXT2_FT_SYMLINK, EXT2_FT_MAX };

/* ---- in core ---- */
struct buffer_head;
struct journal_s;

struct ext2_sb_info {
    struct ext2_super_block *s_es;     /* points into s_sbh->b_data */
    struct buffer_head *s_sbh;         /* the superblock's buffer (held) */
    struct buffer_head **s_group_desc; /* group descriptor blocks (held) */
    unsigned long s_groups_count;
    unsigned long s_gdb_count;         /* blocks of group descriptors */
    unsigned long s_desc_per_block;
    unsigned long s_blocks_per_group, s_inodes_per_group;
    unsigned long s_inodes_per_block, s_itb_per_group;
    unsigned long s_first_ino, s_inode_size;
    unsigned long s_first_data_block, s_blocks_count, s_inodes_count;
    unsigned long s_addr_per_block;    /* block pointers per block */
    unsigned int s_addr_per_block_bits;
    uint32_t s_feature_incompat, s_feature_ro_compat;
    uint16_t s_mount_state;            /* s_state as found at mount (+ ERROR_FS):
                                        * what unmount writes back */
    unsigned long s_mount_opt;         /* EXT2_MOUNT_*: errors= */
    unsigned long s_commit_interval;   /* commit=N in jiffies; 0: JBD's default */
    struct journal_s *s_journal;       /* ext3 mounted read-write: its journal
                                        * (fs/jbd/); NULL for ext2 and read-only */
    struct list_head s_orphan;         /* ext3: the in-core orphan list, newest
                                        * first, as on disk (fs/ext2/namei.c); under
                                        * sb->s_lock */
};

struct ext2_inode_info {
    uint32_t i_data[EXT2_N_BLOCKS];    /* i_block[] as on disk */
    uint32_t i_flags;
    uint32_t i_dtime;
    uint32_t i_file_acl;
    uint32_t i_generation;
    unsigned long i_block_group;       /* group holding the inode */
    unsigned long i_next_alloc_goal;   /* next block to try when allocating */
    loff_t i_truncate_size;            /* ext3: a truncate spanning transactions, the
                                        * size on disk until it ends (covers the blocks
                                        * not yet freed: fs/ext2/inode.c); else 0 */
    struct mutex truncate_mutex;       /* serialises get_block and truncate_blocks */
    struct list_head i_orphan;         /* ext3: on sbi->s_orphan while on the orphan
                                        * list (i_dtime then names the next orphan) */
    struct inode vfs_inode;
};

static inline struct ext2_sb_info *EXT2_SB(struct super_block *sb)
{ return (struct ext2_sb_info *)sb->s_fs_info; }
static inline struct ext2_inode_info *EXT2_I(struct inode *inode)
{ return container_of(inode, struct ext2_inode_info, vfs_inode); }
static inline int ext2_has_filetype(struct super_block *sb)
{ return EXT2_SB(sb)->s_feature_incompat & EXT2_FEATURE_INCOMPAT_FILETYPE; }
#endif
