// SPDX-License-Identifier: GPL-2.0
/* ppctime-run's binfmt_misc entries (binfmt.h). */
#define _GNU_SOURCE
#include "binfmt.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ppctime/target_table.h"

/* Our entries' names: ENTRY_PREFIX TARGET. */
#define ENTRY_PREFIX	"ppctime-"

/* e_ident, e_type and e_machine: what binfmt_misc compares. */
#define MAGIC_LEN	20

struct entry {
	const char *target;
	char name[64];		/* ENTRY_PREFIX TARGET */
	unsigned char magic[MAGIC_LEN], mask[MAGIC_LEN];
};


/* As QEMU's entries: any OS ABI of the first four, ET_EXEC or ET_DYN. */
static void make_entry(size_t i, struct entry *e)
{
	const struct ppctime_target *t = &ppctime_targets[i];
	int lo = t->big_endian, hi = !lo;	/* bytes of a 16-bit field */

	e->target = t->name;
	snprintf(e->name, sizeof(e->name), ENTRY_PREFIX "%s", e->target);
	memset(e->magic, 0, MAGIC_LEN);
	memset(e->mask, 0xff, MAGIC_LEN);
	memcpy(e->magic, ELFMAG, SELFMAG);
	e->magic[EI_CLASS] = t->elf_class == 64 ? ELFCLASS64 : ELFCLASS32;
	e->magic[EI_DATA] = t->big_endian ? ELFDATA2MSB : ELFDATA2LSB;
	e->magic[EI_VERSION] = EV_CURRENT;
	e->mask[EI_OSABI] = 0xfc;
	e->magic[EI_NIDENT + lo] = ET_EXEC;
	e->mask[EI_NIDENT + lo] = 0xfe;
	e->magic[EI_NIDENT + 2 + lo] = t->machine & 0xff;
	e->magic[EI_NIDENT + 2 + hi] = t->machine >> 8;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
	int saved = errno;

	if (fd >= 0)
		close(fd);
	errno = saved;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int remove_entry(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), BINFMT_MISC_DIR "/%s", name);
	if (access(path, F_OK) < 0)
		return 0;
	if (write_file(path, "-1") < 0) {
		fprintf(stderr, "ppctime-run: cannot remove %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 1;
}

/* binfmt_misc is there, and we may write it. */
static int check_mounted(void)
{
	if (access(BINFMT_MISC_DIR "/register", F_OK) == 0)
		return 0;
	fprintf(stderr, "ppctime-run: binfmt_misc is not mounted at " BINFMT_MISC_DIR
		" (mount -t binfmt_misc binfmt_misc " BINFMT_MISC_DIR ")\n");
	return -1;
}

/* The hex after "KEY " in an entry's text, as bytes; their count, or 0. */
static size_t hex_field(const char *text, const char *key, unsigned char *out, size_t max)
{
	const char *p = strstr(text, key);
	size_t n = 0;
	unsigned byte;

	if (!p)
		return 0;
	for (p += strlen(key); n < max && sscanf(p, "%2x", &byte) == 1; p += 2)
		out[n++] = byte;
	return n;
}

/* Other enabled entries that take e's programs: ours stand in front of them. */
static void say_others(const struct entry *e, const char *what)
{
	DIR *dir = opendir(BINFMT_MISC_DIR);
	struct dirent *d;

	while (dir && (d = readdir(dir))) {
		char path[512], text[4096];
		unsigned char magic[128], mask[128];
		size_t n, m;
		ssize_t len;
		int fd;

		if (d->d_name[0] == '.' || !strcmp(d->d_name, "register") ||
		    !strcmp(d->d_name, "status") || !strncmp(d->d_name, ENTRY_PREFIX, strlen(ENTRY_PREFIX)))
			continue;
		snprintf(path, sizeof(path), BINFMT_MISC_DIR "/%s", d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		len = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
		if (fd >= 0)
			close(fd);
		if (len <= 0)
			continue;
		text[len] = '\0';
		n = hex_field(text, "\nmagic ", magic, sizeof(magic));
		m = hex_field(text, "\nmask ", mask, sizeof(mask));
		if (strncmp(text, "enabled", 7) || !n || n > MAGIC_LEN || !strstr(text, "\noffset 0\n"))
			continue;
		for (size_t i = 0; i < n; i++)
			if ((magic[i] ^ e->magic[i]) & (i < m ? mask[i] : 0xff))
				goto next;
		fprintf(stderr, "ppctime-run: %s: %s\n", d->d_name, what);
next:;
	}
	if (dir)
		closedir(dir);
}

/*
 * The entries of the targets that have a handler, each with the line
 * binfmt_misc's register file (and a binfmt.d(5) file) takes.  Their
 * count, 0 having said so, or -1.
 */
struct line {
	struct entry e;
	struct binfmt_handler h;
	char text[4608];
};

static int handled_lines(binfmt_handler_fn *handler, void *ctx,
			 struct line lines[PPCTIME_NR_TARGETS])
{
	int n = 0;

	for (size_t i = 0; i < PPCTIME_NR_TARGETS; i++) {
		struct line *l = &lines[n];
		char *p = l->text;
		int r = handler(ppctime_targets[i].name, &l->h, ctx);

		if (r < 0)
			return -1;
		if (!r)
			continue;
		make_entry(i, &l->e);
		p += sprintf(p, ":%s:M::", l->e.name);
		for (int k = 0; k < MAGIC_LEN; k++)
			p += sprintf(p, "\\x%02x", l->e.magic[k]);
		*p++ = ':';
		for (int k = 0; k < MAGIC_LEN; k++)
			p += sprintf(p, "\\x%02x", l->e.mask[k]);
		snprintf(p, l->text + sizeof(l->text) - p, ":%s:%s", l->h.path, l->h.flags);
		n++;
	}
	if (!n)
		fprintf(stderr, "ppctime-run: no target built to register\n");
	return n;
}

int binfmt_print(binfmt_handler_fn *handler, void *ctx)
{
	static struct line lines[PPCTIME_NR_TARGETS];
	int n = handled_lines(handler, ctx, lines);

	for (int i = 0; i < n; i++)
		printf("%s\n", lines[i].text);
	return n > 0 ? 0 : -1;
}

int binfmt_register(binfmt_handler_fn *handler, void *ctx)
{
	static struct line lines[PPCTIME_NR_TARGETS];
	int n;

	if (check_mounted())
		return -1;
	n = handled_lines(handler, ctx, lines);
	for (int i = 0; i < n; i++) {
		const struct line *l = &lines[i];

		/* Anew, so that it is tried first. */
		if (remove_entry(l->e.name) < 0)
			return -1;
		if (write_file(BINFMT_MISC_DIR "/register", l->text) < 0) {
			fprintf(stderr, "ppctime-run: cannot register %s: %s\n", l->e.name,
				strerror(errno));
			return -1;
		}
		fprintf(stderr, "ppctime-run: registered %s: %s programs run with the vDSO "
			"(flags %s%s%s)\n", l->e.name, l->e.target, l->h.flags,
			l->h.about[0] ? ": " : "", l->h.about);
		say_others(&l->e, "not used while ppctime's entry is registered");
	}
	return n > 0 ? 0 : -1;
}

int binfmt_unregister(void)
{
	if (check_mounted())
		return -1;
	for (size_t i = 0; i < PPCTIME_NR_TARGETS; i++) {
		struct entry e;
		int r;

		make_entry(i, &e);
		r = remove_entry(e.name);
		if (r < 0)
			return -1;
		if (r) {
			fprintf(stderr, "ppctime-run: removed %s\n", e.name);
			say_others(&e, "used again");
		}
	}
	return 0;
}
