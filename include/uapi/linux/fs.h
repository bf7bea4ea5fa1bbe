/* include/uapi/linux/fs.h: lseek(2)'s whence and preadv2/pwritev2's
 * per-call flags, Linux values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md). */
#ifndef _UAPI_LINUX_FS_H
#define _UAPI_LINUX_FS_H

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define SEEK_DATA 3                    /* the next data at or after offset */
#define SEEK_HOLE 4                    /* the next hole at or after offset */

#define RWF_HIPRI   0x01               /* poll for completion */
#define RWF_DSYNC   0x02               /* this write as if O_DSYNC */
#define RWF_SYNC    0x04               /* this write as if O_SYNC */
#define RWF_NOWAIT  0x08               /* do not block: reads of what is cached */
#define RWF_APPEND  0x10               /* this write as if O_APPEND */

#endif
