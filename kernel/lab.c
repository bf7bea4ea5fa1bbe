/* kernel/lab.c: lab_not_written() and lab_not_written_does(), the calls a
 * lab skeleton's stubs make (include/lab.h).  Linked into every kernel;
 * only student trees call them. */
#include <kernel.h>
#include <errno.h>
#include <lab.h>

#define LAB_SEEN_MAX 16

/* true the first time fn is met (a boot names each stub once). */
static bool lab_first_time(const char *fn)
{
    static const char *seen[LAB_SEEN_MAX];
    static int nseen;
    int i;

    for (i = 0; i < nseen; i++)
        if (seen[i] == fn)
            return false;
    if (nseen < LAB_SEEN_MAX)
        seen[nseen++] = fn;
    return true;
}

long lab_not_written(const char *fn)
{
    if (lab_first_time(fn))
        printk(KERN_ERR "LAB: %s() is not written yet (returning -ENOSYS)\n", fn);
    return -ENOSYS;
}

void lab_not_written_does(const char *fn, const char *what)
{
    if (lab_first_time(fn))
        printk(KERN_ERR "LAB: %s() is not written yet (%s)\n", fn, what);
}
