# tools/gdb/vellum.py: GDB helper commands for Vellum, loaded by the .gdbinit
# that `make qemu-gdb` writes (tools/gdb/mkgdbinit.sh).  Linux's equivalent
# is scripts/gdb/ (vmlinux-gdb.py): the same lx- names, fewer commands.
# Every command reads the kernel's own structures through the debug info.
import gdb


class Vellum(gdb.Command):
    """Vellum's helper commands (tools/gdb/vellum.py), after Linux's scripts/gdb:
  lx-dmesg      the kernel log"""

    def __init__(self):
        super().__init__("vellum", gdb.COMMAND_DATA, gdb.COMPLETE_NONE, True)


Vellum()


class LxDmesg(gdb.Command):
    """Print the kernel log buffer (kernel/printk.c's log_buf ring), as dmesg.
Linux: lx-dmesg."""

    def __init__(self):
        super().__init__("lx-dmesg", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        buf = gdb.parse_and_eval("log_buf")
        size = int(buf.type.sizeof)
        head = int(gdb.parse_and_eval("log_head"))
        avail = min(head, size)
        start = head - avail
        base = int(buf.address)
        inf = gdb.selected_inferior()
        raw = bytes(inf.read_memory(base, size))
        data = bytes(raw[(start + i) % size] for i in range(avail))
        gdb.write(data.decode("latin-1"))


LxDmesg()
