/*
 * malloc.c - a first-fit allocator on top of brk, written to be read.
 *
 * The heap is one region that grows upwards with sbrk(). It is cut into
 * blocks; each starts with a header:
 *
 *     +-----------+-----------+---------------------------+
 *     | size      | next      | payload (what malloc      |
 *     | (bytes,   | (free: next free block;  returns)     |
 *     |  header   |  in use: ALLOC_MAGIC)                 |
 *     |  included)|           |                           |
 *     +-----------+-----------+---------------------------+
 *     ^ struct block          ^ block + 1, 8-byte aligned
 *
 * Free blocks sit on one list sorted by address, so free() can merge a
 * block with its neighbours (coalescing) and the heap does not crumble
 * into fragments. malloc() walks the list and takes the first block big
 * enough, splitting off the rest if the rest is worth keeping. When
 * nothing fits it asks sbrk() for at least GROW_MIN more bytes.
 *
 * Memory is never given back to the kernel: simple, and fine for the
 * short-lived programs of a small system.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct block {
	size_t size;            /* whole block, header included, multiple of ALIGN */
	struct block *next;     /* free: next free block; in use: ALLOC_MAGIC */
};

#define ALIGN       8
#define HDR         sizeof(struct block)        /* 8 bytes */
#define MIN_BLOCK   (HDR + ALIGN)               /* smallest block worth keeping */
#define GROW_MIN    (64 * 1024)                 /* grow the heap in 64 KiB steps */
#define ALLOC_MAGIC ((struct block *)0xa110c8ed)

static struct block *free_list;     /* sorted by address */

static size_t round_up(size_t n, size_t a)
{
	return (n + a - 1) & ~(a - 1);
}

/* Put b on the free list in address order, merging with its neighbours. */
static void insert_free(struct block *b)
{
	struct block *prev = NULL, *cur = free_list;

	while (cur && cur < b) {
		prev = cur;
		cur = cur->next;
	}
	/* Merge with the following block if they touch. */
	if (cur && (char *)b + b->size == (char *)cur) {
		b->size += cur->size;
		b->next = cur->next;
	} else {
		b->next = cur;
	}
	/* Merge with the preceding block if they touch. */
	if (prev && (char *)prev + prev->size == (char *)b) {
		prev->size += b->size;
		prev->next = b->next;
	} else if (prev) {
		prev->next = b;
	} else {
		free_list = b;
	}
}

/* Ask the kernel for at least `need` more bytes and add them to the list. */
static int grow_heap(size_t need)
{
	size_t size = need < GROW_MIN ? GROW_MIN : round_up(need, 4096);
	char *cur = sbrk(0);
	size_t pad = round_up((uintptr_t)cur, ALIGN) - (uintptr_t)cur;
	char *p;
	struct block *b;

	if (cur == (char *)-1)
		return -1;
	p = sbrk(size + pad);
	if (p == (char *)-1)
		return -1;
	b = (struct block *)(p + pad);
	b->size = size;
	insert_free(b);
	return 0;
}

void *malloc(size_t size)
{
	size_t need;
	struct block *prev, *b;

	if (size == 0)
		size = 1;
	if (size > 0x7fffffff - HDR - ALIGN) {
		errno = ENOMEM;
		return NULL;
	}
	need = round_up(size + HDR, ALIGN);

	for (;;) {
		prev = NULL;
		for (b = free_list; b; prev = b, b = b->next) {
			if (b->size < need)
				continue;
			if (b->size - need >= MIN_BLOCK) {
				/* Split: the tail stays free, the head is ours. */
				struct block *rest = (struct block *)((char *)b + need);
				rest->size = b->size - need;
				rest->next = b->next;
				b->size = need;
				b->next = rest;
			}
			/* Unlink b. */
			if (prev)
				prev->next = b->next;
			else
				free_list = b->next;
			b->next = ALLOC_MAGIC;
			return b + 1;
		}
		if (grow_heap(need) < 0) {
			errno = ENOMEM;
			return NULL;
		}
	}
}

void free(void *ptr)
{
	struct block *b;

	if (ptr == NULL)
		return;
	b = (struct block *)ptr - 1;
	if (b->next != ALLOC_MAGIC) {
		/* A double free or a pointer malloc never returned. */
		fprintf(stderr, "free(%p): not an allocated block\n", ptr);
		abort();
	}
	insert_free(b);
}

void *calloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > 0xffffffffu / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(nmemb * size);
	if (p)
		memset(p, 0, nmemb * size);
	return p;
}

void *realloc(void *ptr, size_t size)
{
	struct block *b;
	void *n;

	if (ptr == NULL)
		return malloc(size);
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	b = (struct block *)ptr - 1;
	if (b->size - HDR >= size)
		return ptr;             /* still fits: keep it where it is */
	n = malloc(size);
	if (n == NULL)
		return NULL;
	memcpy(n, ptr, b->size - HDR);
	free(ptr);
	return n;
}
