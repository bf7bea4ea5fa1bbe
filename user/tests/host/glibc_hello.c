/* glibc_hello.c - built on the host with gcc -m32 -static (glibc), run on
 * Vellum by tools/tests/proc_boot.sh: prints, writes a file, reads it back. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int main(void)
{
	printf("glibc: hello from a static glibc program, pid-independent\n");
	FILE *f = fopen("/tmp/glibc.txt", "w");
	if (!f) { perror("fopen w"); return 1; }
	for (int i = 0; i < 100; i++)
		fprintf(f, "line %d\n", i);
	if (fclose(f)) { perror("fclose"); return 2; }
	f = fopen("/tmp/glibc.txt", "r");
	if (!f) { perror("fopen r"); return 3; }
	char buf[64];
	int n = 0;
	while (fgets(buf, sizeof buf, f)) {
		char want[64];
		snprintf(want, sizeof want, "line %d\n", n);
		if (strcmp(buf, want)) { printf("glibc: mismatch at %d\n", n); return 4; }
		n++;
	}
	fclose(f);
	char *p = malloc(1 << 20);     /* brk/mmap through glibc's malloc */
	if (!p) return 5;
	memset(p, 1, 1 << 20);
	free(p);
	printf("glibc: wrote and read back %d lines: PASS\n", n);
	return n == 100 ? 0 : 6;
}
