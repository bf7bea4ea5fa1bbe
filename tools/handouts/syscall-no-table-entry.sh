# The first attempt of docs/labs/01-syscall.md's GDB walk: everything
# written, but the cachestat line of the system call table left out.
sed -i '/^ *S(cachestat,/d' kernel/syscall.c
