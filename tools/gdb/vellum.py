# tools/gdb/vellum.py: GDB helper commands for Vellum, loaded by the .gdbinit
# that `make qemu-gdb` writes (tools/gdb/mkgdbinit.sh).  Linux's equivalent
# is scripts/gdb/ (vmlinux-gdb.py, loaded the same way): the same lx- names,
# fewer commands, one file.  Owns nothing in the kernel; it only reads:
#
#   lx-dmesg            the log ring (kernel/printk.c log_buf, log_head)
#   lx-ps               task_list (include/sched.h struct task_struct)
#   lx-page EXPR        a struct page (include/mm_types.h): flags by name from
#                       the debug info's enum pageflags, refcount, mapping,
#                       index, lock owner and waiters, buffers, first bytes
#   lx-file-pages X     a file's cached pages (address_space.pages), X an
#                       inode/file/address_space expression or a path
#   lx-locks            page locks held or waited for, mutexes held or waited for,
#                       and with the lock validator each task's held-lock stack
#   lx-vmas PID         a process's VMAs (mm->mmap, include/mm.h VM_* flags)
#   lx-extable [ADDR]   the __ex_table entry for ADDR (or the whole table)
#   lx-cpus             each CPU: online or not, APIC id, its current task
#                       (include/smp.h cpu_online_mask, the per-CPU cpu_info
#                       and current_task: include/asm/percpu.h)
#   lx-runqueues        each CPU's run queue (kernel/sched.c runqueues[]): its
#                       current task, the queued pids, the balancing counters
#   $lx_current()       the running task of the CPU GDB has selected (QEMU's
#                       thread N is CPU N-1; Linux: $lx_current()); $lx_task_by_pid(N)
#   $lx_per_cpu("VAR", CPU)  that CPU's copy of a per-CPU variable
#   $lx_page_address(P), $lx_virt_to_page(A)   include/mm.h's inlines
#   print *file         pretty printers: struct file / struct inode name their path
#
# Everything is read through the kernel's debug info (types, fields, enum
# pageflags).  Constants the debug info does not carry (#define VM_READ,
# TASK_RUNNING, EXIT_ZOMBIE) are read from the headers in include/, found
# from this file's place in the tree, so nothing here repeats a kernel value.
# Paths are found by reading directories the kernel has in memory: ext2
# directory blocks in the buffer cache (fs/buffer.c's bh_hash), ramfs's entry
# lists; a directory whose blocks are not cached cannot be walked (said so).
# Simplification: Linux's scripts/gdb walks dentries; Vellum has none.
import os
import re

import gdb

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------- helpers
def read_defines(header, prefix):
    """{NAME: value} of the '#define PREFIXname number' lines of include/HEADER."""
    out = {}
    try:
        with open(os.path.join(TOP, "include", header)) as f:
            for line in f:
                m = re.match(r"#define\s+(%s\w*)\s+(0x[0-9a-fA-F]+|\d+)\b" % prefix, line)
                if m:
                    out[m.group(1)] = int(m.group(2), 0)
    except OSError:
        pass
    return out


def ptr(v):
    return int(v.cast(gdb.lookup_type("unsigned long")))


def container_of(p, typename, member):
    t = gdb.lookup_type(typename)
    off = 0
    for f in t.fields():
        if f.name == member:
            off = f.bitpos // 8
            break
    return gdb.Value(ptr(p) - off).cast(t.pointer())


def list_for_each_entry(head, typename, member):
    """The entries of a struct list_head list (include/list.h)."""
    head_addr = ptr(head.address)
    node = head["next"]
    n = 0
    while ptr(node) != head_addr and ptr(node) != 0:
        yield container_of(node, typename, member)
        node = node["next"]
        n += 1
        if n > 100000:
            raise gdb.GdbError("list at 0x%x does not come back to its head" % head_addr)


def cstr(v, n=None):
    try:
        return v.string(length=n) if n is not None else v.string()
    except gdb.error:
        return "?"


def symname(addr):
    """'func+0x12' for a code address, or ''."""
    try:
        s = gdb.execute("info symbol 0x%x" % addr, to_string=True).strip()
    except gdb.error:
        return ""
    if s.startswith("No symbol"):
        return ""
    m = re.match(r"(\S+)( \+ (\d+))? in section", s)
    if not m:
        return s
    return m.group(1) + ("+%d" % int(m.group(3)) if m.group(3) else "")


def fixup_desc(addr):
    """A fixup's symbol, or for one in .text.fixup (no symbol of its own: the
    get_user/put_user fixups of include/asm/uaccess.h) where it jumps back to."""
    s = symname(addr)
    if s:
        return s
    try:
        arch = gdb.selected_frame().architecture()
        for insn in arch.disassemble(addr, count=4):
            m = re.match(r"jmp\s+(0x[0-9a-f]+)", insn["asm"])
            if m:
                to = int(m.group(1), 16)
                return ".text.fixup, back to 0x%x %s" % (to, symname(to))
    except (gdb.error, RuntimeError):
        pass
    return "no symbol"


def hexdump_line(data):
    hx = " ".join("%02x" % b for b in data)
    asc = "".join(chr(b) if 32 <= b < 127 else "." for b in data)
    return "%-47s  |%s|" % (hx, asc)


def read_bytes(addr, n):
    return bytes(gdb.selected_inferior().read_memory(addr, n))


def eval_arg(arg):
    if not arg.strip():
        raise gdb.GdbError("an argument is needed (help lx-...)")
    return gdb.parse_and_eval(arg)


# ---------------------------------------------------------------- tasks
def tasks():
    head = gdb.parse_and_eval("task_list")
    return list(list_for_each_entry(head, "struct task_struct", "tasks"))


def task_by_pid(pid):
    for t in tasks():
        if int(t["pid"]) == pid:
            return t
    return None


def task_name(t):
    if t is None or ptr(t) == 0:
        return "nobody"
    return "%s[%d]" % (cstr(t["comm"]), int(t["pid"]))


_STATES = None


def state_char(t):
    """Linux's ps letters: R S D T X, Z for a zombie (kernel/sched.c task_state_char)."""
    global _STATES
    if _STATES is None:
        d = read_defines("sched.h", "TASK_")
        d.update(read_defines("sched.h", "EXIT_"))
        letters = {"TASK_RUNNING": "R", "TASK_INTERRUPTIBLE": "S", "TASK_UNINTERRUPTIBLE": "D",
                   "TASK_STOPPED": "T", "TASK_DEAD": "X"}
        _STATES = ({d[k]: c for k, c in letters.items() if k in d}, d.get("EXIT_ZOMBIE"))
    states, zombie = _STATES
    if zombie is not None and int(t["exit_state"]) == zombie:
        return "Z"
    return states.get(int(t["state"]), "?")


def nr_cpus():
    return int(gdb.parse_and_eval("__per_cpu_offset").type.sizeof //
               gdb.parse_and_eval("__per_cpu_offset[0]").type.sizeof)


def per_cpu(name, cpu):
    """CPU cpu's copy of per-CPU variable name: the symbol (the boot CPU's
    copy) moved by __per_cpu_offset[cpu] (include/asm/percpu.h)."""
    var = gdb.parse_and_eval(name)
    off = int(gdb.parse_and_eval("__per_cpu_offset[%d]" % cpu))
    return gdb.Value(ptr(var.address) + off).cast(var.type.pointer()).dereference()


def selected_cpu():
    """The CPU GDB has selected: QEMU's gdbstub makes CPU n thread n+1."""
    t = gdb.selected_thread()
    n = t.num - 1 if t is not None else 0
    return n if 0 <= n < nr_cpus() else 0


def current_task():
    return per_cpu("current_task", selected_cpu())


class LxCurrent(gdb.Function):
    """$lx_current(): the running task (struct task_struct *), as Linux's."""

    def __init__(self):
        super().__init__("lx_current")

    def invoke(self):
        return current_task()


class LxTaskByPid(gdb.Function):
    """$lx_task_by_pid(PID): that task (struct task_struct *), as Linux's."""

    def __init__(self):
        super().__init__("lx_task_by_pid")

    def invoke(self, pid):
        t = task_by_pid(int(pid))
        if t is None:
            raise gdb.GdbError("no task with pid %d" % int(pid))
        return t


# ---------------------------------------------------------------- pages
def page_type():
    return gdb.lookup_type("struct page")


def pageflag_names():
    """[(bit, 'locked'), ...] from the debug info's enum pageflags."""
    t = gdb.lookup_type("enum pageflags")
    return [(int(f.enumval), f.name[3:] if f.name.startswith("PG_") else f.name) for f in t.fields()]


def decode_pageflags(flags):
    names, known = [], 0
    for bit, name in pageflag_names():
        known |= 1 << bit
        if flags & (1 << bit):
            names.append(name)
    rest = flags & ~known
    for bit in range(32):
        if rest & (1 << bit):
            names.append("bit%d" % bit)
    return "|".join(names) if names else "none"


def pageflag_bit(name):
    for bit, n in pageflag_names():
        if n == name:
            return bit
    raise gdb.GdbError("enum pageflags has no PG_%s" % name)


def kernel_base():
    return read_defines("asm/layout.h", "KERNEL_BASE").get("KERNEL_BASE", 0xC0000000)


def to_page(v):
    """A struct page * from: a struct page * / struct page value, an address
    inside mem_map[], or a direct-map kernel address (the page holding it)."""
    pt = page_type()
    if v.type.strip_typedefs().code == gdb.TYPE_CODE_STRUCT and v.type.strip_typedefs().tag == "page":
        v = v.address
    mem_map = ptr(gdb.parse_and_eval("mem_map"))
    max_pfn = int(gdb.parse_and_eval("max_pfn"))
    size = pt.sizeof
    a = ptr(v)
    if v.type.strip_typedefs().code == gdb.TYPE_CODE_PTR and \
            v.type.strip_typedefs().target().strip_typedefs().tag == "page":
        return v.cast(pt.pointer())
    if mem_map <= a < mem_map + max_pfn * size:
        return gdb.Value(mem_map + (a - mem_map) // size * size).cast(pt.pointer())
    kb = kernel_base()
    if a >= kb and (a - kb) >> 12 < max_pfn:
        return gdb.Value(mem_map + ((a - kb) >> 12) * size).cast(pt.pointer())
    raise gdb.GdbError("0x%x is neither a struct page (mem_map[0..%d]) nor a direct-map address" % (a, max_pfn))


def page_pfn(page):
    return (ptr(page) - ptr(gdb.parse_and_eval("mem_map"))) // page_type().sizeof


def page_address(page):
    """include/mm.h page_address(): the direct map of the frame."""
    return kernel_base() + (page_pfn(page) << 12)


def page_lock_waiters(page):
    """Tasks asleep in __lock_page on this page (task->waiting_on_page)."""
    a = ptr(page)
    return [t for t in tasks() if ptr(t["waiting_on_page"]) == a]


def inode_desc(inode):
    if ptr(inode) == 0:
        return "no inode"
    sb = inode["i_sb"]
    fs = cstr(sb["s_type"]["name"]) if ptr(sb) and ptr(sb["s_type"]) else "?"
    s = "inode %d of %s (%s)" % (int(inode["i_ino"]), cstr(sb["s_id"]) if ptr(sb) else "?", fs)
    p = Paths.get().path_of(inode)
    return s + (", " + p if p else "")


def mapping_desc(mapping):
    if ptr(mapping) == 0:
        return "none (not in the page cache)"
    return "0x%x: %s" % (ptr(mapping), inode_desc(mapping["host"]))


def buffer_states(page):
    """The page's buffer_heads (PG_private: page->private, a circular list)."""
    if not int(page["flags"]) & (1 << pageflag_bit("private")) or int(page["private"]) == 0:
        return []
    try:
        bht = gdb.lookup_type("struct buffer_head").pointer()
        bh_names = [(int(f.enumval), f.name[3:].lower()) for f in gdb.lookup_type("enum bh_state_bits").fields()]
    except gdb.error:
        return []
    first = gdb.Value(int(page["private"])).cast(bht)
    out, bh = [], first
    mapped = [bit for bit, n in bh_names if n == "mapped"]
    for k in range(64):
        st = int(bh["b_state"])
        names = "|".join(n for bit, n in bh_names if st & (1 << bit)) or "none"
        if mapped and st & (1 << mapped[0]):
            out.append("%d: block %d, %s" % (k, int(bh["b_blocknr"]), names))
        else:
            out.append("%d: no block (unmapped), %s" % (k, names))
        bh = bh["b_this_page"]
        if ptr(bh) in (0, ptr(first)):
            break
    return out


def page_lines(page, nbytes=32):
    flags = int(page["flags"])
    pfn = page_pfn(page)
    out = ["page 0x%x: pfn %d, phys 0x%x, page_address 0x%x" % (ptr(page), pfn, pfn << 12, page_address(page)),
           "  flags     0x%x %s" % (flags, decode_pageflags(flags)),
           "  _count    %d" % int(page["_count"]),
           "  _mapcount %d (%s)" % (int(page["_mapcount"]),
                                    "mapped by %d PTEs" % (int(page["_mapcount"]) + 1)
                                    if int(page["_mapcount"]) >= 0 else "no user mapping"),
           "  mapping   %s" % mapping_desc(page["mapping"]),
           "  index     %d (file offset %d)" % (int(page["index"]), int(page["index"]) << 12)]
    if flags & (1 << pageflag_bit("locked")):
        out.append("  lock      held by %s" % task_name(page["lock_owner"]))
    else:
        out.append("  lock      unlocked")
    w = page_lock_waiters(page)
    out.append("  waiters   %s" % (", ".join(task_name(t) for t in w) if w else "none"))
    for b in buffer_states(page):
        out.append("  buffer    %s" % b)
    if nbytes:
        addr = page_address(page)
        data = read_bytes(addr, nbytes)
        for off in range(0, nbytes, 16):
            out.append("  %04x      %s" % (off, hexdump_line(data[off:off + 16])))
    return out


# ---------------------------------------------------------------- paths
class Paths:
    """Path <-> inode, from the directories the kernel holds in memory.
    Rebuilt after every stop (the kernel ran meanwhile)."""
    _inst = None

    @classmethod
    def get(cls):
        if cls._inst is None:
            cls._inst = Paths()
        return cls._inst

    @classmethod
    def reset(cls, *args):
        cls._inst = None

    def __init__(self):
        self.inodes = {}                   # (sb, ino) -> inode
        self.dirs = {}                     # inode addr -> [(name, ino)] or None
        self.rev = None                    # inode addr -> path
        for sb in list_for_each_entry(gdb.parse_and_eval("super_blocks"), "struct super_block", "s_list"):
            for ino in list_for_each_entry(sb["s_inodes"], "struct inode", "i_sb_list"):
                self.inodes[(ptr(sb), int(ino["i_ino"]))] = ino
        self.mounts = list(list_for_each_entry(gdb.parse_and_eval("vfsmount_list"),
                                               "struct vfsmount", "mnt_list"))

    def mounted_on(self, mnt, inode):
        for m in self.mounts:
            if ptr(m) != ptr(mnt) and ptr(m["mnt_parent"]) == ptr(mnt) and \
                    ptr(m["mnt_mountpoint"]) == ptr(inode):
                return m
        return None

    def entries(self, inode):
        """[(name, ino)] of a directory, or None if it cannot be read here."""
        a = ptr(inode)
        if a in self.dirs:
            return self.dirs[a]
        fs = cstr(inode["i_sb"]["s_type"]["name"])
        r = None
        if fs == "ext2":
            r = self.ext2_entries(inode)
        elif fs == "ramfs":
            r = self.ramfs_entries(inode)
        self.dirs[a] = r
        return r

    def ext2_entries(self, inode):
        # fs/ext2/dir.c ext2_foreach_dirent: i_size / blocksize blocks, read as
        # metadata buffers; we take the cached ones (fs/buffer.c bh_hash).
        ei = container_of(inode, "struct ext2_inode_info", "vfs_inode")
        sb = inode["i_sb"]
        bs = int(sb["s_blocksize"])
        nblocks = (int(inode["i_size"]) + bs - 1) // bs
        out = []
        for n in range(min(nblocks, 12)):   # direct blocks: directories here are small
            data = self.cached_block(sb["s_bdev"], int(ei["i_data"][n]), bs)
            if data is None:
                return None
            off = 0
            while off + 8 <= bs:
                ino = int.from_bytes(data[off:off + 4], "little")
                rec = int.from_bytes(data[off + 4:off + 6], "little")
                nl = data[off + 6]
                if rec < 8:
                    break
                if ino:
                    out.append((data[off + 8:off + 8 + nl].decode("latin-1"), ino))
                off += rec
        return out

    def cached_block(self, bdev, block, size):
        heads = gdb.parse_and_eval("bh_hash")
        n = heads.type.range()[1] + 1
        # fs/buffer.c bh_hashfn; every chain is searched if the guess misses
        guess = (ptr(bdev) // 16 + block * 2654435761) % n
        for i in [guess] + [k for k in range(n) if k != guess]:
            for bh in list_for_each_entry(heads[i], "struct buffer_head", "b_hash"):
                if ptr(bh["b_bdev"]) == ptr(bdev) and int(bh["b_blocknr"]) == block and \
                        int(bh["b_size"]) == size:
                    return read_bytes(ptr(bh["b_data"]), size)
            if i == guess and n > 64:
                # the formula held for every lookup so far: a miss means not cached
                return None
        return None

    def ramfs_entries(self, inode):
        # fs/ramfs/inode.c: i_private is a struct ramfs_dir, a list of ramfs_dirent
        if ptr(inode["i_private"]) == 0:
            return None
        d = inode["i_private"].cast(gdb.lookup_type("struct ramfs_dir").pointer())
        out = []
        for de in list_for_each_entry(d["entries"], "struct ramfs_dirent", "list"):
            # name is a flexible array: read its bytes at its address
            name = read_bytes(ptr(de["name"].address), int(de["len"])).decode("latin-1")
            out.append((name, int(de["inode"]["i_ino"])))
        return out

    def root(self):
        m = gdb.parse_and_eval("root_mnt")
        if ptr(m) == 0:
            raise gdb.GdbError("no root mounted yet (root_mnt is NULL)")
        return m, m["mnt_sb"]["s_root"]

    def lookup(self, path):
        """The inode at an absolute path, or a GdbError saying where it stopped."""
        mnt, inode = self.root()
        done = ""
        for comp in [c for c in path.split("/") if c and c != "."]:
            m = self.mounted_on(mnt, inode)
            while m is not None:
                mnt, inode = m, m["mnt_sb"]["s_root"]
                m = self.mounted_on(mnt, inode)
            ents = self.entries(inode)
            if ents is None:
                fs = cstr(inode["i_sb"]["s_type"]["name"])
                if fs in ("ext2", "ramfs"):
                    why = "its blocks are not in the buffer cache"
                else:
                    why = "a %s directory: its entries are made on demand, not kept" % fs
                raise gdb.GdbError("%s: cannot read directory %s here (%s)" % (path, done or "/", why))
            found = [ino for name, ino in ents if name == comp]
            if not found:
                raise gdb.GdbError("%s: no %s in %s" % (path, comp, done or "/"))
            nxt = self.inodes.get((ptr(inode["i_sb"]), found[0]))
            if nxt is None:
                raise gdb.GdbError("%s: inode %d (%s/%s) is not in the inode cache" %
                                   (path, found[0], done, comp))
            inode, done = nxt, done + "/" + comp
        m = self.mounted_on(mnt, inode)
        while m is not None:
            mnt, inode = m, m["mnt_sb"]["s_root"]
            m = self.mounted_on(mnt, inode)
        return inode

    def path_of(self, inode):
        if self.rev is None:
            self.rev = {}
            try:
                mnt, root = self.root()
            except gdb.GdbError:
                return None
            self.walk(mnt, root, "", 0)
        return self.rev.get(ptr(inode))

    def walk(self, mnt, inode, prefix, depth):
        m = self.mounted_on(mnt, inode)
        while m is not None:
            mnt, inode = m, m["mnt_sb"]["s_root"]
            m = self.mounted_on(mnt, inode)
        self.rev.setdefault(ptr(inode), prefix or "/")
        if depth > 16:
            return
        ents = self.entries(inode)
        for name, ino in ents or []:
            if name in (".", ".."):
                continue
            child = self.inodes.get((ptr(inode["i_sb"]), ino))
            if child is None:
                continue
            self.rev.setdefault(ptr(child), prefix + "/" + name)
            if (int(child["i_mode"]) & 0o170000) == 0o040000:
                self.walk(mnt, child, prefix + "/" + name, depth + 1)


gdb.events.stop.connect(Paths.reset)
gdb.events.memory_changed.connect(Paths.reset)


def to_mapping(arg):
    """address_space of: a path, or a struct inode / file / address_space expression."""
    a = arg.strip()
    if a.startswith("/"):
        inode = Paths.get().lookup(a)
        return inode["i_mapping"], inode
    v = eval_arg(a)
    t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_STRUCT:
        v = v.address
        t = v.type.strip_typedefs()
    tag = t.target().strip_typedefs().tag if t.code == gdb.TYPE_CODE_PTR else None
    if tag == "inode":
        return v["i_mapping"], v
    if tag == "file":
        return v["f_mapping"], v["f_inode"]
    if tag == "address_space":
        return v, v["host"]
    raise gdb.GdbError("%s: give a path, or a struct inode *, struct file * or struct address_space *" % a)


# ---------------------------------------------------------------- commands
class Vellum(gdb.Command):
    """Vellum's helper commands (tools/gdb/vellum.py), named after Linux's scripts/gdb:
  lx-dmesg              the kernel log
  lx-ps                 the task list: pid, parent, state, comm
  lx-page EXPR          a struct page decoded (flags, count, mapping, index, lock, bytes)
  lx-file-pages X       a file's cached pages (X: a path, or an inode/file/address_space)
  lx-locks              page locks and mutexes: who holds, who waits
  lx-vmas PID           a process's memory areas
  lx-extable [ADDR]     the exception-table entry for ADDR (no ADDR: the whole table)
  lx-cpus               each CPU: online, APIC id, current task
  lx-runqueues          each CPU's run queue: current, queued pids, balancing counters
  $lx_current()         the selected CPU's running task; $lx_task_by_pid(PID)
  $lx_per_cpu("VAR", CPU)  a CPU's copy of a per-CPU variable
  $lx_page_address(P)   page_address(P); $lx_virt_to_page(ADDR) its inverse
  print *file           a struct file (or struct inode) shows its path first"""

    def __init__(self):
        super().__init__("vellum", gdb.COMMAND_USER, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        gdb.write(self.__doc__ + "\n")


class LxDmesg(gdb.Command):
    """Print the kernel log buffer, as dmesg (kernel/printk.c: the log_buf ring,
log_head bytes ever logged).  Linux: lx-dmesg."""

    def __init__(self):
        super().__init__("lx-dmesg", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        buf = gdb.parse_and_eval("log_buf")
        size = int(buf.type.sizeof)
        head = int(gdb.parse_and_eval("log_head"))
        avail = min(head, size)
        start = head - avail
        raw = read_bytes(ptr(buf.address), size)
        i = start % size
        data = raw[i:] + raw[:i] if avail == size else raw[start:start + avail]
        gdb.write(data.decode("latin-1"))
        if data and not data.endswith(b"\n"):
            gdb.write("\n")


class LxPs(gdb.Command):
    """List every task (task_list): pid, parent's pid, state letter (R running or
runnable, S sleeping, D uninterruptible, T stopped, Z zombie, X dead), the
task_struct, its mm, comm; '*' marks the running task.  Linux: lx-ps."""

    def __init__(self):
        super().__init__("lx-ps", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        cur = ptr(current_task())
        gdb.write("  PID  PPID S TASK       MM         COMM\n")
        for t in tasks():
            par = t["parent"]
            ppid = int(par["pid"]) if ptr(par) else 0
            mm = ptr(t["mm"])
            what = ""
            if ptr(t["waiting_on_page"]):
                what = "  (waits for page 0x%x)" % ptr(t["waiting_on_page"])
            elif ptr(t["waiting_on"]) and int(t["state"]) != 0:
                what = "  (waits on %s 0x%x)" % (cstr(t["waiting_what"]) if ptr(t["waiting_what"]) else "?",
                                                  ptr(t["waiting_on"]))
            gdb.write("%5d %5d %s 0x%08x %-10s %s%s%s\n" % (
                int(t["pid"]), ppid, state_char(t), ptr(t), "0x%08x" % mm if mm else "-",
                cstr(t["comm"]), " *" if ptr(t) == cur else "", what))


class LxPage(gdb.Command):
    """Decode a struct page: lx-page EXPR
EXPR: a struct page * (e.g. page in ext2_write_end), an address inside
mem_map[], or a kernel direct-map address (then the page holding it).
Shows the flags by name (from enum pageflags in the debug info), _count,
_mapcount, mapping (inode and path), index, the lock's owner and the tasks
waiting for it, the page's buffer_heads, and its first 32 bytes read at
page_address(page).  lx-page EXPR N shows N bytes."""

    def __init__(self):
        super().__init__("lx-page", gdb.COMMAND_USER, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        n = 32
        m = re.match(r"(.*\S)\s+(\d+)$", arg.strip())
        if m and not m.group(1).endswith(("+", "-", "*", "/", "(", ",")):
            try:
                gdb.parse_and_eval(m.group(1))
                arg, n = m.group(1), int(m.group(2))
            except gdb.error:
                pass
        page = to_page(eval_arg(arg))
        gdb.write("\n".join(page_lines(page, n)) + "\n")


class LxFilePages(gdb.Command):
    """A file's pages in the page cache: lx-file-pages PATH | EXPR
PATH is absolute (/root/notes.txt); EXPR is a struct inode *, struct file *
or struct address_space *.  One line per page on mapping->pages, by index:
the page, its flags by name, _count, the lock owner, the first bytes."""

    def __init__(self):
        super().__init__("lx-file-pages", gdb.COMMAND_USER, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        mapping, inode = to_mapping(arg)
        pages = list(list_for_each_entry(mapping["pages"], "struct page", "i_pages"))
        gdb.write("%s, i_size %d, nrpages %d\n" % (inode_desc(inode), int(inode["i_size"]),
                                                  int(mapping["nrpages"])))
        gdb.write("  INDEX PAGE       FLAGS                          COUNT LOCK        BYTES\n")
        locked = 1 << pageflag_bit("locked")
        for p in sorted(pages, key=lambda p: int(p["index"])):
            flags = int(p["flags"])
            data = read_bytes(page_address(p), 16)
            gdb.write("  %5d 0x%08x %-30s %5d %-11s |%s|\n" % (
                int(p["index"]), ptr(p), "0x%x %s" % (flags, decode_pageflags(flags)), int(p["_count"]),
                task_name(p["lock_owner"]) if flags & locked else "-",
                "".join(chr(b) if 32 <= b < 127 else "." for b in data)))


def global_mutexes():
    """(name, struct mutex value) for every global or static struct mutex."""
    out = []
    s = gdb.execute("info variables -q -t mutex", to_string=True)
    fname = None
    for line in s.splitlines():
        m = re.match(r"File (.*):$", line)
        if m:
            fname = m.group(1)
            continue
        m = re.match(r"\d+:\s+(static )?struct mutex (\w+);", line)
        if m:
            try:
                v = gdb.parse_and_eval("'%s'::%s" % (fname, m.group(2)) if m.group(1) else m.group(2))
                out.append((m.group(2), v))
            except gdb.error:
                pass
    return out


def locked_pages():
    """Addresses of every struct page in mem_map[] with PG_locked set: the whole
    array read in 64 KiB pieces (about a second for 128 MiB of RAM)."""
    pt = page_type()
    size = pt.sizeof
    foff = [f.bitpos // 8 for f in pt.fields() if f.name == "flags"][0]
    mem_map = ptr(gdb.parse_and_eval("mem_map"))
    total = int(gdb.parse_and_eval("max_pfn")) * size
    bit = 1 << pageflag_bit("locked")
    out, step = [], (65536 // size) * size
    for off in range(0, total, step):
        chunk = read_bytes(mem_map + off, min(step, total - off))
        for k in range(0, len(chunk) - size + 1, size):
            if int.from_bytes(chunk[k + foff:k + foff + 4], "little") & bit:
                out.append(mem_map + off + k)
    return out


def all_mutexes():
    """(description, struct mutex *) for the mutexes we know where to find:
    globals, each in-core inode's i_mutex, each superblock's s_lock, each
    mm's mmap_sem (a struct rw_semaphore: is_rwsem), each open file's
    f_pos_lock."""
    out = [(n, v.address) for n, v in global_mutexes()]
    P = Paths.get()
    for (sb, ino), inode in P.inodes.items():
        out.append(("i_mutex of %s" % inode_desc(inode), inode["i_mutex"].address))
    for sb in list_for_each_entry(gdb.parse_and_eval("super_blocks"), "struct super_block", "s_list"):
        out.append(("s_lock of %s" % cstr(sb["s_id"]), sb["s_lock"].address))
    seen = set()
    for t in tasks():
        if ptr(t["mm"]) and ptr(t["mm"]) not in seen:
            seen.add(ptr(t["mm"]))
            out.append(("mmap_sem of mm 0x%x (%s)" % (ptr(t["mm"]), task_name(t)), t["mm"]["mmap_sem"].address))
        files = t["files"]
        if ptr(files) and ptr(files) not in seen:
            seen.add(ptr(files))
            fd = files["fd"]
            for i in range(fd.type.range()[1] + 1):
                f = fd[i]
                if ptr(f) and ptr(f) not in seen:
                    seen.add(ptr(f))
                    out.append(("f_pos_lock of fd %d of %s" % (i, task_name(t)), f["f_pos_lock"].address))
    return out


class LxLocks(gdb.Command):
    """Who holds and who waits: page locks (every PG_locked page of mem_map[],
with page->lock_owner, and the tasks asleep in __lock_page) and mutexes
(the global ones, every in-core inode's i_mutex, superblocks' s_lock, mms'
mmap_sem, an rw_semaphore: its writer, or its readers, named with the
validator; open files' f_pos_lock; waiters from task->waiting_on), then every
task that sleeps waiting for something, then (a kernel with the lock
validator, CONFIG_LOCKDEP: the test kernel or DEBUG=1) every task's stack of
held locks as the validator keeps it (kernel/lockdep.c).  Linux has no one
command for this (lockdep's /proc/lockdep and lx-... come closest)."""

    def __init__(self):
        super().__init__("lx-locks", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        ts = tasks()
        locked = 1 << pageflag_bit("locked")
        gdb.write("page locks:\n")
        n = 0
        pt = page_type().pointer()
        waited = {ptr(t["waiting_on_page"]) for t in ts if ptr(t["waiting_on_page"])}
        for a in sorted(set(locked_pages()) | waited):
            p = gdb.Value(a).cast(pt)
            w = [t for t in ts if ptr(t["waiting_on_page"]) == a]
            where = inode_desc(p["mapping"]["host"]) + ", index %d" % int(p["index"]) \
                if ptr(p["mapping"]) else "not in the page cache"
            held = "held by " + task_name(p["lock_owner"]) if int(p["flags"]) & locked else "unlocked"
            gdb.write("  page 0x%x (%s): %s; waiters: %s\n" % (
                a, where, held, ", ".join(task_name(t) for t in w) or "none"))
            n += 1
        if not n:
            gdb.write("  none held\n")
        gdb.write("mutexes:\n")
        n = 0
        known = all_mutexes()
        seen = {ptr(m) for _, m in known}
        mt = gdb.lookup_type("struct mutex").pointer()
        for t in ts:                       # mutexes found only through a waiter (locals)
            if int(t["state"]) != 0 and ptr(t["waiting_on"]) and ptr(t["waiting_what"]) and \
                    cstr(t["waiting_what"]) == "mutex" and ptr(t["waiting_on"]) not in seen:
                seen.add(ptr(t["waiting_on"]))
                known.append(("mutex waited on by %s" % task_name(t), t["waiting_on"].cast(mt)))
        for desc, m in known:
            w = [t for t in ts if ptr(t["waiting_on"]) == ptr(m) and int(t["state"]) != 0]
            if is_rwsem(m):
                a = int(m["activity"])
                if a or w:
                    gdb.write("  %s (0x%x, \"%s\"): %s; waiters: %s\n" % (
                        desc, ptr(m), cstr(m["name"]) if ptr(m["name"]) else "?",
                        rwsem_holders(m, ts), ", ".join(task_name(t) for t in w) or "none"))
                    n += 1
                continue
            if int(m["locked"]) or w:
                gdb.write("  %s (0x%x, \"%s\"): %s; waiters: %s\n" % (
                    desc, ptr(m), cstr(m["name"]) if ptr(m["name"]) else "?",
                    "held by " + task_name(m["owner"]) if int(m["locked"]) else "free",
                    ", ".join(task_name(t) for t in w) or "none"))
                n += 1
        if not n:
            gdb.write("  none held\n")
        gdb.write("waiting tasks:\n")
        n = 0
        for t in ts:
            if int(t["state"]) == 0:
                continue
            if ptr(t["waiting_on_page"]):
                p = t["waiting_on_page"].cast(page_type().pointer())
                gdb.write("  %s %s: lock of page 0x%x, held by %s\n" % (
                    task_name(t), state_char(t), ptr(p), task_name(p["lock_owner"])))
                n += 1
            elif ptr(t["waiting_on"]) and ptr(t["waiting_what"]) and cstr(t["waiting_what"]) == "rwsem":
                m = t["waiting_on"].cast(gdb.lookup_type("struct rw_semaphore").pointer())
                gdb.write("  %s %s: rwsem 0x%x \"%s\", %s\n" % (
                    task_name(t), state_char(t), ptr(m), cstr(m["name"]) if ptr(m["name"]) else "?",
                    rwsem_holders(m, ts)))
                n += 1
            elif ptr(t["waiting_on"]) and ptr(t["waiting_what"]) and cstr(t["waiting_what"]) == "mutex":
                m = t["waiting_on"].cast(gdb.lookup_type("struct mutex").pointer())
                gdb.write("  %s %s: mutex 0x%x \"%s\", held by %s\n" % (
                    task_name(t), state_char(t), ptr(m), cstr(m["name"]) if ptr(m["name"]) else "?",
                    task_name(m["owner"])))
                n += 1
        if not n:
            gdb.write("  none\n")
        held_locks_section(ts, locked)


def is_rwsem(m):
    """Is m (a pointer) a struct rw_semaphore * (mm->mmap_sem)?"""
    return str(m.type.strip_typedefs().target().strip_typedefs()) == "struct rw_semaphore"


def rwsem_holders(m, ts):
    """Who holds rw_semaphore *m (include/rwsem.h): activity -1 is its
    writer (m->owner); n > 0 readers are only counted by the rwsem, and
    named from the validator's held-lock stacks when the kernel has them
    (CONFIG_LOCKDEP), else only the last one in (m->last_reader)."""
    a = int(m["activity"])
    if a == 0:
        return "free"
    if a < 0:
        return "held for writing by " + task_name(m["owner"])
    tt = gdb.lookup_type("struct task_struct")
    if not any(f.name == "held_locks" for f in tt.fields()):
        r = m["last_reader"]
        return "held for reading by %d task%s (the last in: %s)" % (
            a, "s" if a > 1 else "", task_name(r) if ptr(r) else "?")
    names = []
    for t in ts:
        for i in range(int(t["lockdep_depth"])):
            h = t["held_locks"][i]
            if ptr(h["instance"]) == ptr(m) and int(h["read"]) and \
                    not (ptr(t["waiting_on"]) == ptr(m) and int(t["state"]) != 0):
                names.append(task_name(t))
                break
    return "held for reading by %d: %s" % (a, ", ".join(names) or "?")


def held_locks_section(ts, locked):
    """The lock validator's view (kernel/lockdep.c, kernel built with
    CONFIG_LOCKDEP: the test kernel, DEBUG=1): each task's stack of held
    locks, oldest first, as its reports print them.  An entry for a mutex is
    pushed before mutex_lock sleeps, so a waiter shows the mutex it waits
    for too (marked); a page-lock entry whose page was unlocked since
    (unlock_page is not hooked) is marked released, as the validator drops
    it the next time it looks."""
    tt = gdb.lookup_type("struct task_struct")
    if not any(f.name == "held_locks" for f in tt.fields()):
        gdb.write("held locks (validator): not in this kernel (CONFIG_LOCKDEP: the test "
                  "kernel, or make DEBUG=1)\n")
        return
    on = int(gdb.parse_and_eval("debug_locks"))
    gdb.write("held locks (validator %s; %d classes, %d dependencies, %d reports):\n" % (
        "on" if on else "off", int(gdb.parse_and_eval("nr_lock_classes")),
        int(gdb.parse_and_eval("nr_lock_edges")), int(gdb.parse_and_eval("lockdep_reports"))))
    kinds = ["spin", "mutex", "page", "rwsem"]
    n = 0
    for t in ts:
        depth = int(t["lockdep_depth"])
        for i in range(depth):
            h = t["held_locks"][i]
            c = h["class"]
            kind = kinds[int(c["kind"])] if 0 <= int(c["kind"]) < 4 else "?"
            inst = ptr(h["instance"])
            note = ""
            if kind == "page":
                p = gdb.Value(inst).cast(page_type().pointer())
                if not (int(p["flags"]) & locked) or ptr(p["lock_owner"]) != ptr(t):
                    note = " (released)"
            elif kind == "mutex":
                m = gdb.Value(inst).cast(gdb.lookup_type("struct mutex").pointer())
                if ptr(m["owner"]) != ptr(t):
                    note = " (waiting for it)"
            elif kind == "rwsem":
                kind = "rwsem-read" if int(h["read"]) else "rwsem-write"
                if ptr(t["waiting_on"]) == inst and int(t["state"]) != 0:
                    note = " (waiting for it)"
            gdb.write("  %s #%d: %s {%s} 0x%x, at 0x%x %s%s\n" % (
                task_name(t), i, cstr(c["name"]), kind, inst, ptr(h["ip"]),
                symname(ptr(h["ip"])), note))
            n += 1
    if not n:
        gdb.write("  none\n")


class LxVmas(gdb.Command):
    """A process's virtual memory areas: lx-vmas PID
One line per VMA on mm->mmap: start-end, permissions (r w x, s shared or p
private, VM_GROWSDOWN as 'stack'), size, the file's offset, inode and path.
Flags come from include/mm.h's VM_* definitions.  Linux: cat /proc/PID/maps."""

    def __init__(self):
        super().__init__("lx-vmas", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        pid = int(eval_arg(arg))
        t = task_by_pid(pid)
        if t is None:
            raise gdb.GdbError("no task with pid %d (lx-ps lists them)" % pid)
        mm = t["mm"]
        if ptr(mm) == 0:
            gdb.write("%s is a kernel thread: no mm\n" % task_name(t))
            return
        vm = read_defines("mm.h", "VM_")
        gdb.write("%s: mm 0x%x, %d VMAs, brk 0x%x-0x%x, stack at 0x%x\n" % (
            task_name(t), ptr(mm), int(mm["map_count"]), int(mm["start_brk"]), int(mm["brk"]),
            int(mm["start_stack"])))
        for v in list_for_each_entry(mm["mmap"], "struct vm_area_struct", "vm_list"):
            fl = int(v["vm_flags"])
            perm = "".join(c if fl & vm.get(k, 0) else "-" for c, k in
                           (("r", "VM_READ"), ("w", "VM_WRITE"), ("x", "VM_EXEC")))
            perm += "s" if fl & vm.get("VM_SHARED", 0) else "p"
            start, end = int(v["vm_start"]), int(v["vm_end"])
            f = v["vm_file"]
            what = ""
            if ptr(f):
                what = "%s @%d" % (inode_desc(f["f_inode"]), int(v["vm_pgoff"]) << 12)
            elif fl & vm.get("VM_GROWSDOWN", 0):
                what = "[stack]"
            elif start == int(mm["start_brk"]) or (start < int(mm["brk"]) <= end):
                what = "[heap]"
            gdb.write("  %08x-%08x %s %6dK  %s\n" % (start, end, perm, (end - start) // 1024, what))


class LxExtable(gdb.Command):
    """The exception table (__ex_table, include/asm/uaccess.h): lx-extable ADDR
shows the entry whose faulting instruction is at ADDR (an expression: an
address, a label, $pc) and its fixup, with symbols; no ADDR lists every
entry.  Linux: search_exception_tables(), in gdb by hand."""

    def __init__(self):
        super().__init__("lx-extable", gdb.COMMAND_USER, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        et = gdb.lookup_type("struct exception_table_entry")
        start = ptr(gdb.parse_and_eval("&__start_ex_table"))
        stop = ptr(gdb.parse_and_eval("&__stop_ex_table"))
        n = (stop - start) // et.sizeof
        ents = gdb.Value(start).cast(et.pointer())
        want = None
        if arg.strip():
            v = eval_arg(arg)
            want = ptr(v.address) if v.type.strip_typedefs().code == gdb.TYPE_CODE_FUNC else ptr(v)
        found = 0
        for i in range(n):
            e = ents[i]
            insn, fix = int(e["insn"]), int(e["fixup"])
            if want is None or insn == want:
                gdb.write("0x%08x <%s>  fixup 0x%08x <%s>\n" % (insn, symname(insn), fix, fixup_desc(fix)))
                found += 1
        if want is not None and not found:
            gdb.write("0x%08x <%s>: no exception-table entry (%d entries); a fault there is an oops\n"
                      % (want, symname(want), n))
        elif want is None:
            gdb.write("%d entries\n" % n)


class LxPageAddress(gdb.Function):
    """$lx_page_address(PAGE): the kernel virtual address of a struct page's
frame, as include/mm.h's page_address() (an inline, so gdb cannot call it)."""

    def __init__(self):
        super().__init__("lx_page_address")

    def invoke(self, page):
        return gdb.Value(page_address(to_page(page))).cast(gdb.lookup_type("void").pointer())


class LxVirtToPage(gdb.Function):
    """$lx_virt_to_page(ADDR): the struct page of a direct-map address, as
include/mm.h's virt_to_page()."""

    def __init__(self):
        super().__init__("lx_virt_to_page")

    def invoke(self, addr):
        return to_page(addr)


# ---------------------------------------------------------------- pretty printers
class FilePrinter:
    """`print *file` shows which file: its path (from the directories in
    memory) or inode, before the fields.  Linux's struct file has f_path's
    dentry for that; ours holds only the inode."""

    def __init__(self, val):
        self.val = val

    def to_string(self):
        try:
            return "struct file for %s" % inode_desc(self.val["f_inode"])
        except Exception as e:       # never let a printer break a print
            return "struct file (%s)" % e

    def children(self):
        for f in self.val.type.strip_typedefs().fields():
            yield f.name, self.val[f.name]


class InodePrinter(FilePrinter):
    def to_string(self):
        try:
            return "struct inode: %s" % inode_desc(self.val.address)
        except Exception as e:
            return "struct inode (%s)" % e


def lookup_printer(val):
    t = val.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_STRUCT and val.address is not None:
        if t.tag == "file":
            return FilePrinter(val)
        if t.tag == "inode":
            return InodePrinter(val)
    return None


gdb.pretty_printers.append(lookup_printer)

class LxCpus(gdb.Command):
    """List the CPUs (SMP step 1, docs/smp.md): number, online or not
(cpu_online_mask), APIC id (its per-CPU cpu_info), its current task (the
per-CPU current_task) and that task's comm; '*' marks the CPU GDB has
selected (thread N is CPU N-1).  Linux: lx-cpus (scripts/gdb/linux/cpus.py)."""

    def __init__(self):
        super().__init__("lx-cpus", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        online = int(gdb.parse_and_eval("cpu_online_mask"))
        sel = selected_cpu()
        gdb.write("CPU ONLINE APIC TASK       PID COMM\n")
        for cpu in range(nr_cpus()):
            if not (online >> cpu) & 1:
                if cpu == 0 or int(gdb.parse_and_eval("__per_cpu_offset[%d]" % cpu)) == 0:
                    continue           # never set up: not shown
                gdb.write("%3d %-6s\n" % (cpu, "no"))
                continue
            t = per_cpu("current_task", cpu)
            gdb.write("%3d %-6s %4d 0x%08x %3d %s%s\n" % (
                cpu, "yes", int(per_cpu("cpu_info", cpu)["apicid"]), ptr(t), int(t["pid"]),
                cstr(t["comm"]), " *" if cpu == sel else ""))


class LxRunqueues(gdb.Command):
    """Each online CPU's run queue (kernel/sched.c runqueues[]: Linux 2.6's
struct rq per CPU): its current task, whether it halts waiting for work, the
pids queued on it in the order they will run, and its counters (context
switches, tasks woken onto it, tasks pulled by idle and tick balancing,
moved there by an affinity change).  The queues are read without their locks,
as the kernel's show_runqueues() does."""

    def __init__(self):
        super().__init__("lx-runqueues", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        online = int(gdb.parse_and_eval("cpu_online_mask"))
        gdb.write("CPU CURR        PID COMM             QUEUED (pids, next first)\n")
        for cpu in range(nr_cpus()):
            if not (online >> cpu) & 1:
                continue
            rq = gdb.parse_and_eval("runqueues[%d]" % cpu)
            curr = rq["curr"]
            queued = [str(int(t["pid"]))
                      for t in list_for_each_entry(rq["queue"], "struct task_struct", "run_list")]
            gdb.write("%3d 0x%08x %4d %-16s %s%s\n" % (
                cpu, ptr(curr), int(curr["pid"]) if ptr(curr) else -1,
                cstr(curr["comm"]) if ptr(curr) else "?",
                " ".join(queued) if queued else "-", "  (halted)" if int(rq["idling"]) else ""))
            gdb.write("      switches %d, woken here %d (from other CPUs %d), pulled idle %d, "
                      "tick %d, affinity moves %d\n" % (
                          int(rq["nr_switches"]), int(rq["nr_wakeups"]), int(rq["nr_wakeups_remote"]),
                          int(rq["nr_idle_pulls"]), int(rq["nr_tick_pulls"]), int(rq["nr_affine_moves"])))


class LxPerCpu(gdb.Function):
    """$lx_per_cpu("VAR", CPU): CPU's copy of the per-CPU variable VAR, as Linux's."""

    def __init__(self):
        super().__init__("lx_per_cpu")

    def invoke(self, name, cpu):
        return per_cpu(name.string(), int(cpu))


Vellum()
LxCpus()
LxRunqueues()
LxPerCpu()
LxDmesg()
LxPs()
LxPage()
LxFilePages()
LxLocks()
LxVmas()
LxExtable()
LxCurrent()
LxTaskByPid()
LxPageAddress()
LxVirtToPage()
