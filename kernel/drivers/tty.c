/* kernel/drivers/tty.c: the console terminal and its line discipline (include/tty.h).
 * Owns the one struct tty (termios, the input buffer, the foreground process
 * group) and the file operations of /dev/console and /dev/tty (char major 5).
 * Sits on console_input (keyboard and COM1 interrupts feed it) and
 * console_write (output); the chrdev table (fs/char_dev.c) reaches it.
 *
 * The input buffer is a ring of N_TTY_BUF bytes:
 *
 *     tail ........ canon_head ........ head
 *     |  ready to read  |  line being edited  |
 *
 * In canonical mode (ICANON) typed characters go into the edited part; the
 * erase and kill characters take them back out; newline or ^D moves
 * canon_head to head, which makes the line readable and wakes readers.  ^D
 * is stored as an end-of-file mark (eof_mark bit) that read() consumes
 * without returning it: at the start of a line it reads as end of file.
 * In raw mode (ICANON off) every character is readable at once, and the
 * c_cc[VMIN] and c_cc[VTIME] slots say how long read() waits for them
 * (n_tty_read).  A line editor (the shell's, user/sh/lineedit.c) runs the
 * tty raw with ECHO off and does the editing and echoing itself.
 *
 * Simplifications on purpose: one terminal; ^Z sends SIGTSTP but background
 * reads and writes do not stop (SIGTTIN/SIGTTOU are never sent); output
 * post-processing (\n -> \r\n) is the console drivers' and happens whatever
 * OPOST says; no flow control (IXON).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <fs.h>
#include <uio.h>
#include <sched.h>
#include <wait.h>
#include <mutex.h>
#include <spinlock.h>
#include <console.h>
#include <signal.h>
#include <tty.h>
#include <poll.h>
#include <chrdev.h>
#include <init.h>
#include <timer.h>
#include <asm/uaccess.h>

#define N_TTY_BUF 1024                 /* a power of two */

static struct tty {
    spinlock_t lock;                   /* the ring and termios; taken with irqs off */
    struct termios termios;
    struct winsize winsize;
    char buf[N_TTY_BUF];
    uint32_t eof_mark[N_TTY_BUF / 32]; /* this slot holds a ^D, not a character */
    unsigned head, canon_head, tail;   /* free-running indices into buf */
    wait_queue_head_t read_wait;
    struct mutex read_mutex;           /* one reader at a time (peek, copy, consume) */
    pid_t pgrp;                        /* foreground process group (Ctrl-C goes here) */
    pid_t session;                     /* the session this is the controlling tty of */
    int active;                        /* console input comes to us */
    unsigned long dropped;             /* characters lost to a full buffer */
} tty;

static const struct termios tty_std_termios = {
    .c_iflag = ICRNL | IXON,
    .c_oflag = OPOST | ONLCR,
    .c_cflag = B38400 | CS8 | CREAD,
    .c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | IEXTEN,
    .c_cc = { [VINTR] = 3, [VQUIT] = 034, [VERASE] = 0177, [VKILL] = 025,
              [VEOF] = 4, [VTIME] = 0, [VMIN] = 1, [VSUSP] = 032 },
};

static inline int mark_test(unsigned i) { i %= N_TTY_BUF; return (tty.eof_mark[i / 32] >> (i % 32)) & 1; }
static inline void mark_set(unsigned i, int on)
{
    i %= N_TTY_BUF;
    if (on) tty.eof_mark[i / 32] |= 1u << (i % 32);
    else    tty.eof_mark[i / 32] &= ~(1u << (i % 32));
}

static void tty_echo(const char *s, size_t n)
{
    if (tty.termios.c_lflag & ECHO)
        console_write(s, n);
}

/* Echo one typed character: printable as itself, controls as ^X (ECHOCTL). */
static void echo_char(char c)
{
    unsigned char u = c;
    if ((tty.termios.c_lflag & ECHOCTL) && (u < 32 || u == 0x7f) && c != '\n' && c != '\t') {
        char s[2] = { '^', (char)(u == 0x7f ? '?' : u + '@') };
        tty_echo(s, 2);
    } else {
        tty_echo(&c, 1);
    }
}

static int put_char(char c, int eof)
{
    if (tty.head - tty.tail >= N_TTY_BUF - 1) {   /* keep a slot for the newline */
        tty.dropped++;
        return 0;
    }
    mark_set(tty.head, eof);
    tty.buf[tty.head++ % N_TTY_BUF] = c;
    return 1;
}

/* Erase one character of the line being edited; echo "\b \b" (twice for a
 * control character echoed as ^X). */
static int erase_one(void)
{
    if (tty.head == tty.canon_head)
        return 0;
    unsigned char u = tty.buf[--tty.head % N_TTY_BUF];
    int width = ((tty.termios.c_lflag & ECHOCTL) && (u < 32 || u == 0x7f) && u != '\t') ? 2 : 1;
    if (tty.termios.c_lflag & ECHOE)
        for (int i = 0; i < width; i++)
            tty_echo("\b \b", 3);
    return 1;
}

/* The line discipline for one character.  Called with tty.lock held. */
static void n_tty_receive(char c)
{
    struct termios *t = &tty.termios;
    unsigned char u = c;

    if (c == '\r' && (t->c_iflag & ICRNL))
        c = u = '\n';
    if (t->c_lflag & ISIG) {
        if (u == t->c_cc[VINTR] || u == t->c_cc[VQUIT] || u == t->c_cc[VSUSP]) {
            int sig = u == t->c_cc[VINTR] ? SIGINT : u == t->c_cc[VQUIT] ? SIGQUIT : SIGTSTP;
            echo_char(c);
            tty_echo("\n", 1);
            tty.head = tty.canon_head;           /* flush the line being edited */
            if (tty.pgrp > 0)
                kill_pgrp(tty.pgrp, sig);
            return;
        }
    }
    if (t->c_lflag & ICANON) {
        if (u == t->c_cc[VERASE] || u == '\b') {
            erase_one();
            return;
        }
        if (u == t->c_cc[VKILL]) {
            while (erase_one())
                ;
            return;
        }
        if (u == t->c_cc[VEOF]) {
            if (put_char(c, 1)) {
                tty.canon_head = tty.head;
                wake_up(&tty.read_wait);
            }
            return;
        }
        if (!put_char(c, 0))
            return;
        echo_char(c);
        if (c == '\n') {
            tty.canon_head = tty.head;
            wake_up(&tty.read_wait);
        }
        return;
    }
    /* raw */
    if (put_char(c, 0)) {
        echo_char(c);
        tty.canon_head = tty.head;
        wake_up(&tty.read_wait);
    }
}

void tty_receive_char(char c)
{
    unsigned long flags;
    spin_lock_irqsave(&tty.lock, flags);
    n_tty_receive(c);
    spin_unlock_irqrestore(&tty.lock, flags);
}

void tty_activate(void)
{
    if (tty.active)
        return;
    tty.active = 1;
    int c;
    while ((c = console_getc_nonblock()) >= 0)   /* typed before anyone opened us */
        tty_receive_char(c);
    console_input_handler = tty_receive_char;
}

void tty_reset(void)
{
    unsigned long flags;
    spin_lock_irqsave(&tty.lock, flags);
    tty.termios = tty_std_termios;
    tty.head = tty.canon_head = tty.tail = 0;
    memset(tty.eof_mark, 0, sizeof tty.eof_mark);
    tty.pgrp = 0;
    tty.session = 0;
    spin_unlock_irqrestore(&tty.lock, flags);
}

static void tty_init(void)
{
    spin_lock_init(&tty.lock);
    init_waitqueue_head(&tty.read_wait);
    mutex_init(&tty.read_mutex);
    tty.winsize = (struct winsize){ .ws_row = 25, .ws_col = 80 };
    tty_reset();
}
core_initcall(tty_init);

int tty_chars_available(void)
{
    unsigned long flags;
    spin_lock_irqsave(&tty.lock, flags);
    int n = tty.canon_head - tty.tail;
    spin_unlock_irqrestore(&tty.lock, flags);
    return n;
}

/* Copy what is readable into tmp (at most one line in canonical mode)
 * without consuming it.  *eof_at: index in tmp of a ^D mark, or -1.
 * Returns the number of slots looked at (characters + a mark). */
static size_t peek_input(char *tmp, size_t n, int *eof_at)
{
    size_t got = 0;
    unsigned i = tty.tail;
    *eof_at = -1;
    while (i != tty.canon_head && got < n) {
        if (mark_test(i)) {
            *eof_at = got;
            return got + 1;
        }
        char c = tty.buf[i++ % N_TTY_BUF];
        tmp[got++] = c;
        if (c == '\n' && (tty.termios.c_lflag & ICANON))
            break;
    }
    return got;
}

/* read(2) on the tty.  copy(dst, src, n) moves bytes to the reader and
 * returns how many it managed (short: a bad user buffer); each call carries
 * on where the previous one stopped.
 *
 * Canonical mode: sleep until a line (or a ^D) is complete; return at most
 * that one line.
 *
 * Raw mode (ICANON off): how many bytes to wait for and for how long come
 * from c_cc[VMIN] (a count) and c_cc[VTIME] (tenths of a second), with
 * Linux's four cases (termios(3), drivers/tty/n_tty.c):
 *
 *   VMIN > 0, VTIME = 0   wait until VMIN bytes came (fewer if n is smaller)
 *   VMIN > 0, VTIME > 0   wait for the first byte as long as it takes; then
 *                         return at VMIN bytes, or when VTIME passes with
 *                         no new byte (an inter-byte timer, restarted by
 *                         every byte)
 *   VMIN = 0, VTIME > 0   wait at most VTIME for one byte; 0 if none came
 *   VMIN = 0, VTIME = 0   do not wait: what is there, or 0
 *
 * A signal or O_NONBLOCK ends the wait early: the bytes read so far, or
 * -EINTR / -EAGAIN if none. */
typedef size_t (*tty_copy_t)(void *dst, const char *src, size_t n);

static ssize_t n_tty_read(tty_copy_t copy, void *dst, size_t n, int nonblock)
{
    char tmp[128];
    unsigned long flags;
    size_t total = 0;                  /* bytes given to the reader so far */
    size_t minimum = 1;                /* return once this many were */
    long timeout = MAX_SCHEDULE_TIMEOUT; /* jiffies the next sleep may last */
    long inter_byte = 0;               /* VMIN > 0, VTIME > 0: the timer */
    int canon, hit_eof = 0;

    if (n == 0)
        return 0;
    mutex_lock(&tty.read_mutex);
    spin_lock_irqsave(&tty.lock, flags);
    canon = tty.termios.c_lflag & ICANON;
    if (!canon) {
        unsigned vmin = tty.termios.c_cc[VMIN];
        long vtime = (long)tty.termios.c_cc[VTIME] * HZ / 10;
        if (vmin) {
            minimum = min((size_t)vmin, n);
            inter_byte = vtime;
        } else {
            timeout = vtime;           /* 0: a poll that never sleeps */
        }
    }
    spin_unlock_irqrestore(&tty.lock, flags);

    DEFINE_WAIT(w);
    ssize_t ret;
    for (;;) {
        prepare_to_wait(&tty.read_wait, &w, TASK_INTERRUPTIBLE);
        spin_lock_irqsave(&tty.lock, flags);
        int eof_at;
        size_t slots = peek_input(tmp, min(n - total, sizeof tmp), &eof_at);
        spin_unlock_irqrestore(&tty.lock, flags);
        if (slots) {
            finish_wait(&tty.read_wait, &w);   /* running again: the copy may fault and sleep */
            size_t chars = eof_at >= 0 ? (size_t)eof_at : slots;
            size_t done = chars ? copy(dst, tmp, chars) : 0;
            if (chars && done == 0) {
                ret = total ? (ssize_t)total : -EFAULT;  /* nothing consumed */
                break;
            }
            spin_lock_irqsave(&tty.lock, flags);
            /* consume what was copied, and the ^D mark once all before it went */
            hit_eof = done == chars && eof_at >= 0;
            tty.tail += done + hit_eof;
            spin_unlock_irqrestore(&tty.lock, flags);
            total += done;
            if (canon || hit_eof || done < chars || total >= minimum) {
                ret = total;
                break;
            }
            if (inter_byte)
                timeout = inter_byte;  /* a byte came: the timer starts again */
            continue;                  /* more may be there already */
        }
        if (!timeout) {                /* VTIME passed, or VMIN = VTIME = 0 */
            ret = total;
            break;
        }
        if (nonblock) {
            ret = total ? (ssize_t)total : -EAGAIN;
            break;
        }
        if (signal_pending(current)) {
            ret = total ? (ssize_t)total : -EINTR;
            break;
        }
        timeout = schedule_timeout(timeout);
    }
    finish_wait(&tty.read_wait, &w);
    mutex_unlock(&tty.read_mutex);
    return ret;
}

static size_t copy_iter(void *dst, const char *src, size_t n)
{
    return copy_to_iter(src, n, dst);
}

static ssize_t tty_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
    return n_tty_read(copy_iter, to, iov_iter_count(to), file->f_flags & O_NONBLOCK);
}

static ssize_t tty_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
    char tmp[256];
    ssize_t done = 0;
    while (iov_iter_count(from)) {
        size_t want = min(iov_iter_count(from), sizeof tmp);
        size_t got = copy_from_iter(tmp, want, from);
        if (got)
            console_write(tmp, got);
        done += got;
        if (got < want)
            return done ? done : -EFAULT;
    }
    return done;
}

static int tty_set_ctty(int force);

static long tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
    void __user *p = (void __user *)arg;
    struct termios t;
    unsigned long flags;
    pid_t pgrp;
    int n;

    switch (cmd) {
    case TCGETS:
        spin_lock_irqsave(&tty.lock, flags);
        t = tty.termios;
        spin_unlock_irqrestore(&tty.lock, flags);
        return copy_to_user(p, &t, sizeof t) ? -EFAULT : 0;
    case TCSETS: case TCSETSW: case TCSETSF:
        if (copy_from_user(&t, p, sizeof t))
            return -EFAULT;
        spin_lock_irqsave(&tty.lock, flags);
        if (cmd == TCSETSF)            /* flush pending input */
            tty.tail = tty.canon_head = tty.head;
        if ((tty.termios.c_lflag & ICANON) && !(t.c_lflag & ICANON))
            tty.canon_head = tty.head; /* to raw: the partial line becomes readable */
        tty.termios = t;
        spin_unlock_irqrestore(&tty.lock, flags);
        wake_up(&tty.read_wait);
        return 0;
    case TIOCGWINSZ:
        return copy_to_user(p, &tty.winsize, sizeof tty.winsize) ? -EFAULT : 0;
    case TIOCSWINSZ: {
        struct winsize ws;
        if (copy_from_user(&ws, p, sizeof ws))
            return -EFAULT;
        tty.winsize = ws;
        return 0;
    }
    case TIOCGPGRP:
        pgrp = tty.pgrp;
        return copy_to_user(p, &pgrp, sizeof pgrp) ? -EFAULT : 0;
    case TIOCSPGRP:
        if (copy_from_user(&pgrp, p, sizeof pgrp))
            return -EFAULT;
        if (pgrp <= 0)
            return -EINVAL;
        tty.pgrp = pgrp;
        return 0;
    case TIOCSCTTY:                    /* arg 1 (steal): allowed, we have no uids */
        if (current->session != current->pid)
            return -EPERM;
        return tty_set_ctty(arg == 1);
    case FIONREAD:
        n = tty_chars_available();
        return copy_to_user(p, &n, sizeof n) ? -EFAULT : 0;
    default:
        return -ENOTTY;
    }
}

/* Is the leader of session sid still alive (not exited)? */
static int session_leader_alive(pid_t sid)
{
    struct task_struct *t;
    list_for_each_entry(t, &task_list, tasks)
        if (t->is_process && !t->exit_state && t->pid == sid)
            return 1;
    return 0;
}

/* Linux's tty_open_proc_set_tty/__proc_set_tty, cut down: a session leader
 * that opens the terminal while no live session owns it makes it its
 * controlling terminal, with its process group in the foreground.  Our
 * simplification: instead of disassociating the tty when the session leader
 * exits (Linux's disassociate_ctty from do_exit), the next session leader's
 * open finds the owner dead and takes over, so init can start one shell
 * after another (each in a new session) and Ctrl-C reaches the current one.
 * A process that is not a session leader opening a terminal nobody owns
 * only sets the foreground group (kernel tests and init=programs that never
 * call setsid still get Ctrl-C).  Returns 0 if the tty is now the caller's
 * session's controlling terminal, else -EPERM. */
static int tty_set_ctty(int force)
{
    unsigned long flags;
    int ours;
    spin_lock_irqsave(&tty.lock, flags);
    if (current->mm && current->session == current->pid &&
        (force || tty.session <= 0 || !session_leader_alive(tty.session))) {
        tty.session = current->session;
        tty.pgrp = current->pgrp;
    } else if (tty.pgrp <= 0 && current->mm) {
        tty.pgrp = current->pgrp;
    }
    ours = current->session > 0 && tty.session == current->session;
    spin_unlock_irqrestore(&tty.lock, flags);
    return ours ? 0 : -EPERM;
}

static int tty_open(struct inode *inode, struct file *file)
{
    tty_activate();
    if (!(file->f_flags & O_NOCTTY))
        tty_set_ctty(0);
    return 0;
}

/* Readable when a read would not sleep: a line (or a ^D mark) is waiting
 * in canonical mode; in raw mode a byte, or VMIN bytes when VTIME is 0
 * (Linux's input_available_p: with VMIN = 0 or a timer, one byte will do). */
static unsigned int tty_poll(struct file *file)
{
    unsigned long flags;
    spin_lock_irqsave(&tty.lock, flags);
    int want = 1;
    if (!(tty.termios.c_lflag & ICANON) && tty.termios.c_cc[VMIN] && !tty.termios.c_cc[VTIME])
        want = tty.termios.c_cc[VMIN];
    int ready = (int)(tty.canon_head - tty.tail) >= want;
    spin_unlock_irqrestore(&tty.lock, flags);
    return (ready ? POLLIN | POLLRDNORM : 0) | POLLOUT | POLLWRNORM;
}

const struct file_operations tty_fops = {
    .poll = tty_poll,
    .read_iter = tty_read,
    .write_iter = tty_write,
    .ioctl = tty_ioctl,
    .open = tty_open,
    .llseek = no_llseek,
};

static void tty_chrdev_init(void)
{
    register_chrdev(TTY_MAJOR, "tty", &tty_fops);
}
fs_initcall(tty_chrdev_init);
