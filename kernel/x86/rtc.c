/* kernel/x86/rtc.c: the PC's battery-backed real-time clock, the MC146818
 * in the CMOS (ports 0x70/0x71).  Owns reading it: read_persistent_clock(),
 * called once at boot by the timekeeping code (kernel/sys.c), which then
 * advances the time with jiffies.  (Linux: mach_get_cmos_time in
 * arch/x86/kernel/rtc.c, behind read_persistent_clock64.)
 *
 * Simplifications: the RTC is taken to hold UTC in the years 2000-2099 (no
 * century register); nothing ever writes it. */
#include <kernel.h>
#include <timer.h>
#include <asm/io.h>
#include <asm/irqflags.h>

#define RTC_PORT_INDEX   0x70
#define RTC_PORT_DATA    0x71
/* CMOS registers (Linux's <linux/mc146818rtc.h> names) */
#define RTC_SECONDS      0x00
#define RTC_MINUTES      0x02
#define RTC_HOURS        0x04
#define RTC_DAY_OF_MONTH 0x07
#define RTC_MONTH        0x08
#define RTC_YEAR         0x09
#define RTC_REG_A        0x0A
#define RTC_UIP          0x80          /* A: update in progress */
#define RTC_REG_B        0x0B
#define RTC_24H          0x02          /* B: 24-hour mode (else 12, bit 7 = PM) */
#define RTC_DM_BINARY    0x04          /* B: binary (else BCD) */

#define RTC_FALLBACK_TIME 1735689600   /* 2025-01-01 00:00:00 UTC */

static unsigned cmos_read(unsigned reg)
{
    outb(RTC_PORT_INDEX, reg);
    return inb(RTC_PORT_DATA);
}

static unsigned bcd2bin(unsigned v) { return (v & 0xF) + (v >> 4) * 10; }

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static unsigned long days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    int era = y / 400;
    int yoe = y - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (unsigned long)(era * 146097 + doe - 719468);
}

/* The RTC's time, in seconds since the epoch; 2025-01-01 if its date makes
 * no sense (a CMOS that lost its battery). */
time_t read_persistent_clock(void)
{
    unsigned long flags = local_irq_save();
    while (cmos_read(RTC_REG_A) & RTC_UIP)     /* wait out an update */
        ;
    unsigned sec = cmos_read(RTC_SECONDS), min = cmos_read(RTC_MINUTES);
    unsigned hour = cmos_read(RTC_HOURS), day = cmos_read(RTC_DAY_OF_MONTH);
    unsigned mon = cmos_read(RTC_MONTH), year = cmos_read(RTC_YEAR);
    unsigned regb = cmos_read(RTC_REG_B);
    local_irq_restore(flags);
    bool pm = hour & 0x80;
    hour &= 0x7F;
    if (!(regb & RTC_DM_BINARY)) {
        sec = bcd2bin(sec); min = bcd2bin(min); hour = bcd2bin(hour);
        day = bcd2bin(day); mon = bcd2bin(mon); year = bcd2bin(year);
    }
    if (!(regb & RTC_24H))             /* 12-hour clock: 12 AM is 0, 12 PM 12 */
        hour = hour % 12 + (pm ? 12 : 0);
    if (mon < 1 || mon > 12 || day < 1 || day > 31) {
        printk(KERN_WARNING "rtc: date %04u-%02u-%02u makes no sense, using 2025-01-01\n",
               2000 + year, mon, day);
        return RTC_FALLBACK_TIME;
    }
    unsigned long t = days_from_civil(2000 + year, mon, day) * 86400UL +
                      hour * 3600UL + min * 60UL + sec;
    printk(KERN_INFO "rtc: %04u-%02u-%02u %02u:%02u:%02u UTC (%lu)\n",
           2000 + year, mon, day, hour, min, sec, t);
    return (time_t)t;
}
