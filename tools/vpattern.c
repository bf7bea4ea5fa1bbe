/* tools/vpattern.c: host tool that writes Vellum's test-file pattern.
 *
 * Every file the disk-image staging tree holds has known content: byte i of
 * a file whose pattern key is NAME is vpattern_byte(fnv1a32(NAME), i).  The
 * kernel tests (fs/ext2/ext2_test.c) compute the same function, so they can
 * check every byte without seeing the host's files.  Keep both in step:
 *
 *   fnv1a32(s):  h = 2166136261; for each byte c: h ^= c; h *= 16777619
 *   byte(seed, i): x = seed + i * 0x9E3779B1 (mod 2^32)
 *                  x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15;
 *                  x *= 0x846ca68b; x ^= x >> 16; return x & 0xff
 *   (i is the byte's offset in the file, taken mod 2^32)
 *
 * Usage:
 *   vpattern NAME LEN                   write bytes 0..LEN-1 to stdout
 *   vpattern -w FILE NAME OFFSET LEN    write bytes OFFSET..OFFSET+LEN-1 of
 *                                       the pattern into FILE at OFFSET
 *                                       (pwrite; holes elsewhere stay holes)
 */
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint32_t fnv1a32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static unsigned char vpattern_byte(uint32_t seed, uint64_t i)
{
    uint32_t x = seed + (uint32_t)i * 0x9E3779B1u;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x & 0xff;
}

static void fill(unsigned char *buf, size_t n, uint32_t seed, uint64_t off)
{
    for (size_t j = 0; j < n; j++)
        buf[j] = vpattern_byte(seed, off + j);
}

int main(int argc, char **argv)
{
    static unsigned char buf[65536];
    if (argc == 3) {
        uint32_t seed = fnv1a32(argv[1]);
        uint64_t len = strtoull(argv[2], NULL, 0), off = 0;
        while (off < len) {
            size_t n = len - off < sizeof(buf) ? len - off : sizeof(buf);
            fill(buf, n, seed, off);
            if (fwrite(buf, 1, n, stdout) != n)
                return 1;
            off += n;
        }
        return 0;
    }
    if (argc == 6 && !strcmp(argv[1], "-w")) {
        uint32_t seed = fnv1a32(argv[3]);
        uint64_t off = strtoull(argv[4], NULL, 0), len = strtoull(argv[5], NULL, 0);
        int fd = open(argv[2], O_WRONLY | O_CREAT, 0644);
        if (fd < 0) {
            perror(argv[2]);
            return 1;
        }
        while (len) {
            size_t n = len < sizeof(buf) ? len : sizeof(buf);
            fill(buf, n, seed, off);
            if (pwrite(fd, buf, n, off) != (ssize_t)n) {
                perror("pwrite");
                return 1;
            }
            off += n;
            len -= n;
        }
        return close(fd) ? 1 : 0;
    }
    fprintf(stderr, "usage: vpattern NAME LEN | vpattern -w FILE NAME OFFSET LEN\n");
    return 2;
}
