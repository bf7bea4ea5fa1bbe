/* tools/ext2fuzz.c: host tool, the corrupt-image fuzzer's mutator.  Reads a
 * good ext2 image, learns where its metadata is (superblock, group
 * descriptors, bitmaps, inode table, the used inodes, directory blocks and
 * their entries, indirect blocks, symlinks) by walking it from the root,
 * and writes a copy with a few structure-aware mutations, chosen by a
 * seeded generator: the same BASE and SEED always give the same bytes.
 *
 *   ext2fuzz BASE OUT SEED       write OUT; one line per mutation on stdout:
 *                                "seed S: CLASS: what was changed"
 *
 * Classes: sb (a superblock field), gd (a group descriptor field), bitmap
 * (bits of a block or inode bitmap), inode (a field of a used inode),
 * dirent (a directory entry's inode, rec_len, name_len, file_type or
 * name), indirect (a pointer in an indirect block), symlink (a symlink's
 * size, blocks or target), bytes (random bytes somewhere in the metadata).
 * Values come from a list of the usual suspects: 0, 1, -1, 0x7fffffff,
 * off-by-one, a flipped bit, the block count and just past it, the
 * superblock's or the inode table's or a directory's own block, ...
 * tools/tests/ext2fuzz.sh builds it with the host compiler and docs/systests.md
 * describes the campaign.
 *
 * Little-endian host assumed (x86): the image's fields are read in place. */
#define _FILE_OFFSET_BITS 64
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *img;
static size_t img_len;
static uint64_t rng;

static unsigned long long seed;
static int started;                             /* this mutation has printed */

/* printf, the first call of a mutation prefixed "seed S: " */
static void out(const char *fmt, ...)
{
    va_list ap;
    if (!started)
        printf("seed %llu: ", seed);
    started = 1;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

static uint64_t rnd(void)                       /* splitmix64 */
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }

static uint32_t get(size_t off, int size)
{
    if (off + size > img_len)
        return 0;
    uint32_t v = 0;
    memcpy(&v, img + off, size);
    return v;
}
static void put(size_t off, int size, uint32_t v)
{
    if (off + size <= img_len)
        memcpy(img + off, &v, size);
}

/* ---- what the walk learns ---- */
static uint32_t bs, blocks_count, inodes_count, ipg, bpg, first_data, inode_size, ngroups;
#define MAXT 4096
static uint32_t used_ino[MAXT], nused;         /* inodes reached from the root */
static uint32_t dir_blk[MAXT], ndir_blk;       /* directory data blocks */
static size_t dirent_off[MAXT], ndirent;       /* byte offsets of directory entries */
static uint32_t ind_blk[MAXT], nind;           /* indirect blocks of files and dirs */
static uint32_t sym_ino[MAXT], nsym;           /* symlink inodes */
static uint32_t dir_ino[MAXT], ndir_ino;       /* directory inodes */

static size_t gd_off(uint32_t g) { return (size_t)(first_data + 1) * bs + g * 32; }
static uint32_t itable(uint32_t g) { return get(gd_off(g) + 8, 4); }
static size_t ino_off(uint32_t ino)
{
    if (ino < 1 || ino > inodes_count)
        return 0;
    uint32_t g = (ino - 1) / ipg, i = (ino - 1) % ipg;
    if (g >= ngroups)
        return 0;
    size_t off = (size_t)itable(g) * bs + (size_t)i * inode_size;
    return off + inode_size <= img_len ? off : 0;
}
static int seen(const uint32_t *a, uint32_t n, uint32_t v)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] == v)
            return 1;
    return 0;
}

/* The data blocks of inode ino, in order, up to max (indirect blocks go to
 * ind_blk as they are met). */
static uint32_t blocks_of(size_t ioff, uint32_t *out, uint32_t max)
{
    uint32_t n = 0, apb = bs / 4;
    for (int k = 0; k < 12 && n < max; k++) {
        uint32_t b = get(ioff + 40 + 4 * k, 4);
        if (b && b < blocks_count)
            out[n++] = b;
    }
    uint32_t ind = get(ioff + 40 + 48, 4);
    if (ind && ind < blocks_count) {
        if (nind < MAXT && !seen(ind_blk, nind, ind))
            ind_blk[nind++] = ind;
        for (uint32_t k = 0; k < apb && n < max; k++) {
            uint32_t b = get((size_t)ind * bs + 4 * k, 4);
            if (b && b < blocks_count)
                out[n++] = b;
        }
    }
    uint32_t dind = get(ioff + 40 + 52, 4);
    if (dind && dind < blocks_count) {
        if (nind < MAXT && !seen(ind_blk, nind, dind))
            ind_blk[nind++] = dind;
        for (uint32_t j = 0; j < apb; j++) {
            uint32_t i2 = get((size_t)dind * bs + 4 * j, 4);
            if (i2 && i2 < blocks_count && nind < MAXT && !seen(ind_blk, nind, i2))
                ind_blk[nind++] = i2;
        }
    }
    return n;
}

static void walk(uint32_t ino, int depth)
{
    size_t ioff = ino_off(ino);
    if (!ioff || depth > 16 || seen(used_ino, nused, ino) || nused >= MAXT)
        return;
    used_ino[nused++] = ino;
    uint16_t mode = get(ioff, 2);
    static uint32_t blk[MAXT];
    if ((mode & 0xf000) == 0xa000) {
        if (nsym < MAXT)
            sym_ino[nsym++] = ino;
        return;
    }
    if ((mode & 0xf000) == 0x8000) {
        blocks_of(ioff, blk, MAXT);
        return;
    }
    if ((mode & 0xf000) != 0x4000)
        return;
    if (ndir_ino < MAXT)
        dir_ino[ndir_ino++] = ino;
    uint32_t n = blocks_of(ioff, blk, MAXT);
    uint32_t mine[64], nm = n < 64 ? n : 64;
    memcpy(mine, blk, nm * 4);
    for (uint32_t k = 0; k < nm; k++) {
        if (ndir_blk < MAXT)
            dir_blk[ndir_blk++] = mine[k];
        size_t base = (size_t)mine[k] * bs;
        for (uint32_t pos = 0; pos + 8 <= bs; ) {
            uint32_t child = get(base + pos, 4);
            uint16_t rec = get(base + pos + 4, 2);
            uint8_t nl = get(base + pos + 6, 1);
            if (rec < 8 || pos + rec > bs)
                break;
            if (ndirent < MAXT)
                dirent_off[ndirent++] = base + pos;
            const char *name = (const char *)img + base + pos + 8;
            if (child && !(nl == 1 && name[0] == '.') && !(nl == 2 && !memcmp(name, "..", 2)))
                walk(child, depth + 1);
            pos += rec;
        }
    }
}

/* ---- values ---- */
static uint32_t interesting(uint32_t orig, int size)
{
    uint32_t v;
    switch (below(16)) {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = 0xffffffffu; break;
    case 3: v = 0x7fffffffu; break;
    case 4: v = 0x80000000u; break;
    case 5: v = orig + 1; break;
    case 6: v = orig - 1; break;
    case 7: v = orig ^ (1u << below(size * 8)); break;
    case 8: v = blocks_count; break;
    case 9: v = blocks_count + 1 + below(4); break;
    case 10: v = first_data; break;                          /* the superblock */
    case 11: v = itable(below(ngroups)) + below(4); break;   /* the inode table */
    case 12: v = ndir_blk ? dir_blk[below(ndir_blk)] : 0; break;
    case 13: v = below(blocks_count); break;
    case 14: v = inodes_count + below(3); break;
    default: v = (uint32_t)rnd(); break;
    }
    if (size == 2)
        v &= 0xffff;
    else if (size == 1)
        v &= 0xff;
    return v;
}

static void set_field(const char *cls, const char *what, size_t off, int size, uint32_t v)
{
    uint32_t old = get(off, size);
    put(off, size, v);
    out("%s: %s: %#x -> %#x (byte %zu)\n", cls, what, old, v, off);
}

/* ---- the mutators ---- */
static const struct { const char *name; int off, size; } sb_fields[] = {
    { "s_inodes_count", 0, 4 }, { "s_blocks_count", 4, 4 }, { "s_r_blocks_count", 8, 4 },
    { "s_free_blocks_count", 12, 4 }, { "s_free_inodes_count", 16, 4 },
    { "s_first_data_block", 20, 4 }, { "s_log_block_size", 24, 4 },
    { "s_log_frag_size", 28, 4 }, { "s_blocks_per_group", 32, 4 },
    { "s_frags_per_group", 36, 4 }, { "s_inodes_per_group", 40, 4 },
    { "s_mnt_count", 52, 2 }, { "s_max_mnt_count", 54, 2 }, { "s_magic", 56, 2 },
    { "s_state", 58, 2 }, { "s_errors", 60, 2 }, { "s_rev_level", 76, 4 },
    { "s_first_ino", 84, 4 }, { "s_inode_size", 88, 2 }, { "s_block_group_nr", 90, 2 },
    { "s_feature_compat", 92, 4 }, { "s_feature_incompat", 96, 4 },
    { "s_feature_ro_compat", 100, 4 },
};
static void mut_sb(void)
{
    int k = below(sizeof sb_fields / sizeof sb_fields[0]);
    size_t off = 1024 + sb_fields[k].off;
    set_field("sb", sb_fields[k].name, off, sb_fields[k].size,
              interesting(get(off, sb_fields[k].size), sb_fields[k].size));
}

static const struct { const char *name; int off, size; } gd_fields[] = {
    { "bg_block_bitmap", 0, 4 }, { "bg_inode_bitmap", 4, 4 }, { "bg_inode_table", 8, 4 },
    { "bg_free_blocks_count", 12, 2 }, { "bg_free_inodes_count", 14, 2 },
    { "bg_used_dirs_count", 16, 2 },
};
static void mut_gd(void)
{
    uint32_t g = below(ngroups);
    int k = below(sizeof gd_fields / sizeof gd_fields[0]);
    char what[64];
    snprintf(what, sizeof what, "group %u %s", g, gd_fields[k].name);
    size_t off = gd_off(g) + gd_fields[k].off;
    set_field("gd", what, off, gd_fields[k].size, interesting(get(off, gd_fields[k].size),
                                                               gd_fields[k].size));
}

static void mut_bitmap(void)
{
    uint32_t g = below(ngroups);
    int inode_bm = below(2);
    uint32_t b = get(gd_off(g) + (inode_bm ? 4 : 0), 4);
    size_t base = (size_t)b * bs;
    if (base + bs > img_len)
        return;
    uint32_t nbits = inode_bm ? ipg : bpg, how = below(4);
    if (how == 0) {                                 /* all clear or all set */
        int v = below(2) ? 0xff : 0;
        memset(img + base, v, (nbits + 7) / 8 < bs ? (nbits + 7) / 8 : bs);
        out("bitmap: group %u %s bitmap (block %u) all %s\n", g, inode_bm ? "inode" : "block",
               b, v ? "set" : "clear");
        return;
    }
    uint32_t n = 1 + below(how == 1 ? 2 : 32);
    out("bitmap: group %u %s bitmap (block %u): %u bits flipped:", g,
           inode_bm ? "inode" : "block", b, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bit = below(nbits < 64 ? nbits : (how == 3 ? nbits : 64)); /* low bits: metadata */
        img[base + bit / 8] ^= 1 << (bit % 8);
        out(" %u", bit);
    }
    out("\n");
}

static const struct { const char *name; int off, size; } ino_fields[] = {
    { "i_mode", 0, 2 }, { "i_size", 4, 4 }, { "i_dtime", 20, 4 }, { "i_links_count", 26, 2 },
    { "i_blocks", 28, 4 }, { "i_flags", 32, 4 }, { "i_block[0]", 40, 4 },
    { "i_block[1]", 44, 4 }, { "i_block[11]", 84, 4 }, { "i_block[12] (IND)", 88, 4 },
    { "i_block[13] (DIND)", 92, 4 }, { "i_block[14] (TIND)", 96, 4 },
    { "i_file_acl", 104, 4 }, { "i_size_high", 108, 4 },
};
static void mut_inode(void)
{
    uint32_t ino = below(4) ? used_ino[below(nused)] : 1 + below(inodes_count);
    size_t ioff = ino_off(ino);
    if (!ioff)
        return;
    char what[64];
    if (below(5) == 0) {                            /* a change of type */
        static const uint16_t types[] = { 0x1000, 0x2000, 0x4000, 0x6000, 0x8000, 0xa000,
                                          0xc000, 0x0000, 0xf000 };
        uint16_t m = (get(ioff, 2) & 0x0fff) | types[below(9)];
        snprintf(what, sizeof what, "inode %u i_mode type", ino);
        set_field("inode", what, ioff, 2, m);
        return;
    }
    int k = below(sizeof ino_fields / sizeof ino_fields[0]);
    snprintf(what, sizeof what, "inode %u %s", ino, ino_fields[k].name);
    size_t off = ioff + ino_fields[k].off;
    set_field("inode", what, off, ino_fields[k].size,
              interesting(get(off, ino_fields[k].size), ino_fields[k].size));
}

static void mut_dirent(void)
{
    if (!ndirent)
        return;
    size_t off = dirent_off[below(ndirent)];
    uint16_t rec = get(off + 4, 2);
    uint8_t nl = get(off + 6, 1);
    char what[64];
    switch (below(6)) {
    case 0: {                                       /* inode: a loop, a bad number, 0 */
        uint32_t v;
        switch (below(5)) {
        case 0: v = dir_ino[below(ndir_ino)]; break;
        case 1: v = 0; break;
        case 2: v = inodes_count + below(3); break;
        case 3: v = 1 + below(11); break;           /* reserved inodes */
        default: v = interesting(get(off, 4), 4); break;
        }
        snprintf(what, sizeof what, "entry at byte %zu inode", off);
        set_field("dirent", what, off, 4, v);
        break;
    }
    case 1: case 2: {                               /* rec_len */
        static const uint16_t r[] = { 0, 1, 4, 7, 8, 9, 12, 0xffff, 0x8000 };
        uint16_t v = below(3) ? r[below(9)] : (uint16_t)(rec + (int)below(40) - 20);
        if (below(4) == 0)
            v = bs - (off % bs) + 4 * below(3);   /* to the block's end, or past it */
        snprintf(what, sizeof what, "entry at byte %zu rec_len", off);
        set_field("dirent", what, off + 4, 2, v);
        break;
    }
    case 3: {                                       /* name_len */
        static const uint8_t l[] = { 0, 1, 2, 255 };
        uint8_t v = below(2) ? l[below(4)] : (uint8_t)(rec - 8 + below(8));
        snprintf(what, sizeof what, "entry at byte %zu name_len", off);
        set_field("dirent", what, off + 6, 1, v);
        break;
    }
    case 4:                                         /* file_type */
        snprintf(what, sizeof what, "entry at byte %zu file_type", off);
        set_field("dirent", what, off + 7, 1, below(3) ? below(9) : (uint32_t)rnd() & 0xff);
        break;
    default: {                                      /* a name byte: '/', NUL, '.' */
        static const char c[] = { '/', 0, '.', (char)0xff };
        size_t at = off + 8 + (nl ? below(nl) : 0);
        snprintf(what, sizeof what, "entry at byte %zu name byte %zu", off, at - off - 8);
        set_field("dirent", what, at, 1, (unsigned char)c[below(4)]);
        break;
    }
    }
}

static void mut_indirect(void)
{
    if (!nind)
        return;
    uint32_t b = ind_blk[below(nind)];
    uint32_t slot = below(4) ? below(8) : below(bs / 4);
    size_t off = (size_t)b * bs + 4 * slot;
    char what[64];
    snprintf(what, sizeof what, "block %u slot %u", b, slot);
    set_field("indirect", what, off, 4, below(4) == 0 ? b : interesting(get(off, 4), 4));
}

static void mut_symlink(void)
{
    if (!nsym)
        return;
    uint32_t ino = sym_ino[below(nsym)];
    size_t ioff = ino_off(ino);
    char what[64];
    switch (below(4)) {
    case 0: {
        static const uint32_t sz[] = { 0, 59, 60, 61, 1023, 1024, 4095, 4096, 4097, 0xffffffff };
        snprintf(what, sizeof what, "inode %u i_size", ino);
        set_field("symlink", what, ioff + 4, 4, sz[below(10)]);
        break;
    }
    case 1:                                         /* fast <-> slow */
        snprintf(what, sizeof what, "inode %u i_blocks", ino);
        set_field("symlink", what, ioff + 28, 4, get(ioff + 28, 4) ? 0 : bs / 512);
        break;
    case 2:
        snprintf(what, sizeof what, "inode %u i_block[0]", ino);
        set_field("symlink", what, ioff + 40, 4, interesting(get(ioff + 40, 4), 4));
        break;
    default: {                                      /* the target: no NUL, odd bytes */
        uint32_t blk = get(ioff + 40, 4);
        size_t at = get(ioff + 28, 4) && blk < blocks_count ? (size_t)blk * bs : ioff + 40;
        uint32_t n = get(ioff + 28, 4) ? bs : 60;
        for (uint32_t i = 0; i < n && at + i < img_len; i++)
            img[at + i] = below(2) ? '/' : (unsigned char)(rnd() | 1);
        out("symlink: inode %u target bytes at %zu overwritten (%u)\n", ino, at, n);
        break;
    }
    }
}

static void mut_bytes(void)
{
    /* Somewhere in group 0's metadata: superblock to the inode table's end. */
    size_t end = ((size_t)itable(0) + ipg * inode_size / bs) * bs;
    if (end > img_len || end <= 1024)
        end = img_len;
    uint32_t n = 1 + below(8);
    size_t at = 1024 + below(end - 1024);
    out("bytes: %u random bytes at %zu\n", n, at);
    for (uint32_t i = 0; i < n && at + i < img_len; i++)
        img[at + i] = rnd();
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: ext2fuzz BASE OUT SEED\n");
        return 2;
    }
    seed = strtoull(argv[3], NULL, 0);
    FILE *f = fopen(argv[1], "rb");
    if (!f || fseek(f, 0, SEEK_END) || (img_len = ftell(f)) < 2048) {
        fprintf(stderr, "ext2fuzz: cannot read %s\n", argv[1]);
        return 1;
    }
    rewind(f);
    img = malloc(img_len);
    if (!img || fread(img, 1, img_len, f) != img_len) {
        fprintf(stderr, "ext2fuzz: cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(f);
    if (get(1024 + 56, 2) != 0xef53) {
        fprintf(stderr, "ext2fuzz: %s is not ext2\n", argv[1]);
        return 1;
    }
    bs = 1024u << get(1024 + 24, 4);
    inodes_count = get(1024, 4);
    blocks_count = get(1024 + 4, 4);
    first_data = get(1024 + 20, 4);
    bpg = get(1024 + 32, 4);
    ipg = get(1024 + 40, 4);
    inode_size = get(1024 + 76, 4) ? get(1024 + 88, 2) : 128;
    ngroups = (blocks_count - first_data + bpg - 1) / bpg;
    walk(2, 0);
    walk(11, 0);                                    /* lost+found, if unreached */

    rng = seed * 0x2545F4914F6CDD1Dull + 1;
    uint32_t n = 1 + below(3);
    for (uint32_t i = 0, tries = 0; i < n && tries < 50; tries++) {
        started = 0;
        uint32_t c = below(100);
        if (c < 10) mut_sb();
        else if (c < 20) mut_gd();
        else if (c < 30) mut_bitmap();
        else if (c < 52) mut_inode();
        else if (c < 74) mut_dirent();
        else if (c < 84) mut_indirect();
        else if (c < 94) mut_symlink();
        else mut_bytes();
        i += started;                               /* a mutator may find nothing to do */
    }
    f = fopen(argv[2], "wb");
    if (!f || fwrite(img, 1, img_len, f) != img_len || fclose(f)) {
        fprintf(stderr, "ext2fuzz: cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
