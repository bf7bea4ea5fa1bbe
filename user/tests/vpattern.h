/*
 * vpattern.h - Vellum's test-file pattern, for the programs in user/tests.
 *
 * Byte i of a file whose pattern key is NAME is
 * vpattern_byte(fnv1a32(NAME), i).  The host tool tools/vpattern.c writes
 * the same bytes (its header gives the definition), and the kernel tests
 * (fs/ext2/ext2_test.c) compute them too, so a test on either side checks
 * every byte of a file the other side wrote.
 */
#ifndef VPATTERN_H
#define VPATTERN_H

/* FNV-1a, 32 bits: a key's seed. */
static inline unsigned fnv1a32(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* Byte i (the offset in the file, mod 2^32) of the pattern seeded seed. */
static inline unsigned char vpattern_byte(unsigned seed, unsigned i)
{
	unsigned x = seed + i * 0x9E3779B1u;
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x & 0xff;
}

/* Bytes off..off+n-1 of the pattern seeded seed into p. */
static inline void vpattern_fill(unsigned char *p, unsigned seed, unsigned off, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = vpattern_byte(seed, off + i);
}

#endif
