/* kernel/cmdline_test.c: the ktests of cmdline.c (test=cmdline); built into
 * the test kernel only (make check), never into the production kernel. */
#include <kernel.h>
#include <string.h>
#include <cmdline.h>
#include <ktest.h>

KTEST(cmdline, key_value_and_bare_words)
{
    char saved[CMDLINE_MAX];
    strlcpy(saved, saved_command_line, sizeof saved);
    KT_ASSERT_EQ(cmdline_parse("  console=serial  quiet loglevel=3 test=a,b  "), 4);
    KT_EXPECT(!strcmp(cmdline_get("console"), "serial"));
    KT_EXPECT(!strcmp(cmdline_get("quiet"), ""));
    KT_EXPECT(!strcmp(cmdline_get("loglevel"), "3"));
    KT_EXPECT(!strcmp(cmdline_get("test"), "a,b"));
    KT_EXPECT(cmdline_get("init") == NULL);
    KT_EXPECT(cmdline_get("consol") == NULL);
    cmdline_parse(saved);
}

KTEST(cmdline, last_word_wins_and_empty)
{
    char saved[CMDLINE_MAX];
    strlcpy(saved, saved_command_line, sizeof saved);
    KT_ASSERT_EQ(cmdline_parse("root=/dev/hda root=/dev/hdb init="), 3);
    KT_EXPECT(!strcmp(cmdline_get("root"), "/dev/hdb"));
    KT_EXPECT(!strcmp(cmdline_get("init"), ""));
    KT_EXPECT_EQ(cmdline_parse(""), 0);
    KT_EXPECT(cmdline_get("root") == NULL);
    cmdline_parse(saved);
}
