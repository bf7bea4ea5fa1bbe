/* include/asm/byteorder.h: converting big-endian on-disk integers (Linux's
 * <asm/byteorder.h>).  The x86 is little-endian, so a big-endian field is
 * byte-swapped on every read and write; ext2's fields are little-endian and
 * are read directly (include/ext2_fs.h), JBD's are big-endian (include/jbd.h).
 * Linux gives the fields the types __be32/__be64 so that sparse catches a
 * missing conversion; Vellum keeps plain integers and converts at each use. */
#ifndef _ASM_BYTEORDER_H
#define _ASM_BYTEORDER_H
#include <types.h>

static inline uint32_t be32_to_cpu(uint32_t x) { return __builtin_bswap32(x); }
static inline uint32_t cpu_to_be32(uint32_t x) { return __builtin_bswap32(x); }
static inline uint16_t be16_to_cpu(uint16_t x) { return __builtin_bswap16(x); }
static inline uint16_t cpu_to_be16(uint16_t x) { return __builtin_bswap16(x); }
static inline uint64_t be64_to_cpu(uint64_t x) { return __builtin_bswap64(x); }
#endif
