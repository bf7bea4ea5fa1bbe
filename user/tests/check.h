/*
 * check.h - the tiny test harness shared by the programs in user/tests.
 *
 * Each check prints one line, "PASS name" or "FAIL name (what, line)",
 * flushed at once so a crash later does not swallow it. main() ends with
 * "return check_summary();" which exits 1 if anything failed. The test
 * runners (tools/tests/userland.sh on the host, tools/tests/systests.sh on
 * Vellum) count these lines.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

static void check_report(const char *name, int ok, const char *what, int line)
{
	if (ok) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s (%s, line %d)\n", name, what, line);
		check_failures++;
	}
	fflush(stdout);
}

/* CHECK(name, condition) */
#define CHECK(name, cond) check_report(name, (cond) ? 1 : 0, #cond, __LINE__)

/* CHECK_STR(name, got, want): equal strings, both shown on failure. */
#define CHECK_STR(name, got, want) do {                                      \
	const char *g_ = (got), *w_ = (want);                                \
	if (strcmp(g_, w_) == 0) {                                           \
		check_report(name, 1, "", __LINE__);                          \
	} else {                                                             \
		char what_[256];                                             \
		snprintf(what_, sizeof(what_), "got \"%s\", want \"%s\"", g_, w_); \
		check_report(name, 0, what_, __LINE__);                       \
	}                                                                    \
} while (0)

static int check_summary(void)
{
	return check_failures ? 1 : 0;
}

#endif
