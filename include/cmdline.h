/* include/cmdline.h: the kernel command line, Linux style "key=value key2".
 * Recognised keys: console= (serial, vga, both), loglevel=N, test=SUITE[,SUITE]
 * (kernel tests to run; "all" for every suite), init=PATH and root=DEV
 * (used by the process and storage layers), oops=KIND (deliberate faults). */
#ifndef _CMDLINE_H
#define _CMDLINE_H
#include <types.h>
#define CMDLINE_MAX 512
void cmdline_init(const char *raw);
/* The value of key, or NULL if absent; a bare "key" has value "". */
const char *cmdline_get(const char *key);
/* Parse "s" into the table (exposed for tests); returns the number of keys. */
int cmdline_parse(const char *s);
extern char saved_command_line[CMDLINE_MAX];
#endif
