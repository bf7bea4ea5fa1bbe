/* kernel/cmdline.c: the kernel command line, split Linux style into
 * "key=value" and bare "key" words.  Later words win over earlier ones. */
#include <kernel.h>
#include <string.h>
#include <cmdline.h>

#define MAX_PARAMS 32
char saved_command_line[CMDLINE_MAX];
static char params_buf[CMDLINE_MAX];
static struct { const char *key, *val; } params[MAX_PARAMS];
static int nparams;

int cmdline_parse(const char *s)
{
    strlcpy(params_buf, s, sizeof params_buf);
    nparams = 0;
    char *p = params_buf;
    while (*p && nparams < MAX_PARAMS) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        char *key = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '=')
            p++;
        char *val = "";
        if (*p == '=') {
            *p++ = '\0';
            val = p;
            while (*p && *p != ' ' && *p != '\t')
                p++;
        }
        if (*p)
            *p++ = '\0';
        params[nparams].key = key;
        params[nparams].val = val;
        nparams++;
    }
    return nparams;
}

const char *cmdline_get(const char *key)
{
    for (int i = nparams - 1; i >= 0; i--)
        if (!strcmp(params[i].key, key))
            return params[i].val;
    return NULL;
}

void cmdline_init(const char *raw)
{
    strlcpy(saved_command_line, raw ? raw : "", sizeof saved_command_line);
    cmdline_parse(saved_command_line);
}
