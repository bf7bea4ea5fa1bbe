/*
 * t_malloc.c - the allocator under stress: many blocks of random sizes,
 * each filled with its own pattern, freed in random order; the patterns
 * must survive, and freeing everything must let the heap be reused
 * (coalescing) instead of growing without end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

#define SLOTS 512
#define ROUNDS 20000

static unsigned int seed = 42;

static unsigned int rnd(void)
{
	seed = seed * 1103515245 + 12345;
	return seed >> 8;
}

static unsigned char *ptr[SLOTS];
static size_t len[SLOTS];

/* Fill/verify block i with bytes derived from its slot number and size. */
static void fill(int i)
{
	for (size_t j = 0; j < len[i]; j++)
		ptr[i][j] = (unsigned char)(i * 31 + j);
}

static int intact(int i)
{
	for (size_t j = 0; j < len[i]; j++)
		if (ptr[i][j] != (unsigned char)(i * 31 + j))
			return 0;
	return 1;
}

int main(void)
{
	int ok_fill = 1, ok_align = 1, ok_alloc = 1;
	char *before, *after, *p, *q;

	for (int r = 0; r < ROUNDS; r++) {
		int i = rnd() % SLOTS;

		if (ptr[i]) {
			if (!intact(i))
				ok_fill = 0;
			free(ptr[i]);
			ptr[i] = NULL;
		} else {
			len[i] = rnd() % (r % 7 == 0 ? 20000 : 200) + 1;
			ptr[i] = malloc(len[i]);
			if (!ptr[i]) {
				ok_alloc = 0;
				continue;
			}
			if ((uintptr_t)ptr[i] & 7)
				ok_align = 0;
			fill(i);
		}
	}
	CHECK("malloc.stress_allocations_succeed", ok_alloc);
	CHECK("malloc.stress_aligned_8", ok_align);
	CHECK("malloc.stress_contents_intact", ok_fill);

	for (int i = 0; i < SLOTS; i++) {
		if (ptr[i] && !intact(i))
			ok_fill = 0;
		free(ptr[i]);
		ptr[i] = NULL;
	}
	CHECK("malloc.contents_intact_at_end", ok_fill);

	/* Everything is free and merged: a large block must fit without
	 * moving the break by more than that block. */
	before = sbrk(0);
	p = malloc(200000);
	after = sbrk(0);
	CHECK("malloc.coalesced_heap_reused", p != NULL && after - before <= 200000 + 4096);
	free(p);

	p = calloc(1000, 4);
	{
		int zero = p != NULL;
		for (int i = 0; zero && i < 4000; i++)
			if (p[i])
				zero = 0;
		CHECK("malloc.calloc_zeroed", zero);
	}
	memcpy(p, "keep me", 8);
	q = realloc(p, 100000);
	CHECK("malloc.realloc_keeps_contents", q && strcmp(q, "keep me") == 0);
	free(q);
	CHECK("malloc.calloc_overflow_fails", calloc(0x10000, 0x10000) == NULL);
	CHECK("malloc.huge_fails", malloc(0xf0000000u) == NULL);
	CHECK("malloc.zero_size_unique", (p = malloc(0)) != NULL);
	free(p);
	free(NULL);
	return check_summary();
}
