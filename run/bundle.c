// SPDX-License-Identifier: GPL-2.0
/* The chroot handler's bundle (bundle.h): its making and its reading. */
#define _GNU_SOURCE
#include "bundle.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf/elf_file.h"
#include "ppctime/fail.h"
#include "preload/host_vdso.h"
#include "userland_exec.h"

#ifndef MFD_EXEC
#define MFD_EXEC	0x0010U
#endif

#define BUNDLE_NOTE_NAME	"ppctime"
#define BUNDLE_NOTE_TYPE	0x62646e6c	/* "lndb" */
#define BUNDLE_VERSION		3
/* The handler's own program headers, QEMU's PT_LOADs and the payload's
 * three (loader and image, the host vDSO's parameters, the host vDSO). */
#define BUNDLE_MAX_PHDRS	32

struct bundle_header {
	uint32_t version;		/* 0: the handler as built */
	uint32_t phnum;
	char target[16];
	uint64_t page_size;
	int32_t layout;			/* the image's data layout */
	uint32_t unused;
	/* From this header's own address to each part's first byte. */
	int64_t qemu, loader, image, host_vdso;
	uint64_t loader_size, image_size;
	Elf64_Phdr phdrs[BUNDLE_MAX_PHDRS];	/* the bundle's e_phoff points here */
};

/* The header lies at the first 8-byte boundary of the note's descriptor:
 * reader and maker each round up, one an address, the other the file
 * offset, which agree modulo the page size. */
#define ALIGN_UP(x, a)	(((x) + (a) - 1) & ~((uint64_t)(a) - 1))

static const struct {
	Elf64_Nhdr nhdr;
	char name[ALIGN_UP(sizeof(BUNDLE_NOTE_NAME), 4)];
	unsigned char desc[sizeof(struct bundle_header) + 8];
} handler_note __attribute__((section(".note.ppctime-bundle"), aligned(4), used)) = {
	.nhdr = { .n_namesz = sizeof(BUNDLE_NOTE_NAME),
		  .n_descsz = sizeof(struct bundle_header) + 8, .n_type = BUNDLE_NOTE_TYPE },
	.name = BUNDLE_NOTE_NAME,
};

int bundle_self(struct bundle *b)
{
	const unsigned char *at = (const unsigned char *)ALIGN_UP((uintptr_t)handler_note.desc, 8);
	const struct bundle_header *h;

	/* Filled in after the compiler saw it all zero. */
	__asm__("" : "=r"(h) : "0"(at));
	if (h->version != BUNDLE_VERSION)
		return -1;
	*b = (struct bundle){
		.target = h->target, .page_size = h->page_size, .layout = h->layout,
		.qemu = at + h->qemu, .loader = at + h->loader, .image = at + h->image,
		.host_vdso = at + h->host_vdso,
		.loader_size = h->loader_size, .image_size = h->image_size,
	};
	return 0;
}

/* --- Making a bundle (ppctime-run --binfmt-register) --- */

struct part {
	const char *path;
	unsigned char *buf;
	size_t len;
	struct elf_file elf;
};

static int read_part(struct part *p, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t got = -1;

	p->path = path;
	p->buf = NULL;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (p->buf = malloc(st.st_size ? st.st_size : 1)))
		got = read(fd, p->buf, st.st_size);
	if (got < 0 || (fd >= 0 && got != st.st_size)) {
		fail(err, errlen, "cannot read %s: %s", path,
		    got < 0 && errno ? strerror(errno) : "not a regular file, or short");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	p->len = got;
	return 0;
}

/* A host program to load: one userland_exec() can enter, as QEMU is
 * (userland_phdr() may then read its program headers). */
static int check_static_pie(struct part *p, char *err, size_t errlen)
{
	char why[128];

	if (elf_file_parse_header(&p->elf, p->buf, p->len, why, sizeof(why)) < 0)
		return fail(err, errlen, "%s: %s", p->path, why);
	return userland_check(&p->elf, p->path, false, err, errlen);
}

/* The file offset of the handler's bundle header, in its first segment. */
static int find_header(const struct part *h, uint64_t *offset, char *err, size_t errlen)
{
	Elf64_Phdr first = { .p_type = PT_NULL };

	for (size_t i = 0; i < h->elf.phnum; i++) {
		Elf64_Phdr seg = userland_phdr(&h->elf, i);
		/* Notes are padded as their segment is aligned (4 or 8). */
		uint64_t align = seg.p_align == 8 ? 8 : 4;

		if (seg.p_type == PT_LOAD && first.p_type == PT_NULL)
			first = seg;
		if (seg.p_type != PT_NOTE || !elf_fits(seg.p_offset, seg.p_filesz, h->len))
			continue;
		for (uint64_t at = seg.p_offset, end = seg.p_offset + seg.p_filesz; at + 12 <= end;) {
			Elf64_Nhdr nh;
			uint64_t desc;

			memcpy(&nh, h->buf + at, sizeof(nh));
			desc = at + 12 + ALIGN_UP(nh.n_namesz, align);
			if (desc > end || nh.n_descsz > end - desc)
				break;
			if (nh.n_type == BUNDLE_NOTE_TYPE && nh.n_namesz == sizeof(BUNDLE_NOTE_NAME) &&
			    !memcmp(h->buf + at + 12, BUNDLE_NOTE_NAME, nh.n_namesz) &&
			    nh.n_descsz >= sizeof(struct bundle_header) + 8) {
				*offset = ALIGN_UP(desc, 8);
				if (first.p_type != PT_LOAD || first.p_offset != first.p_vaddr ||
				    *offset + sizeof(struct bundle_header) >
				    first.p_offset + first.p_filesz)
					return fail(err, errlen, "%s: its bundle note is not in its "
						   "first segment", h->path);
				return 0;
			}
			at = desc + ALIGN_UP(nh.n_descsz, align);
		}
	}
	return fail(err, errlen, "%s: no " BUNDLE_NOTE_NAME " bundle note: not %s", h->path,
		   BUNDLE_HANDLER);
}

/* The end of p's PT_LOADs in memory; their greatest alignment in *align. */
static uint64_t span(const struct part *p, uint64_t *align)
{
	uint64_t end = 0;

	for (size_t i = 0; i < p->elf.phnum; i++) {
		Elf64_Phdr ph = userland_phdr(&p->elf, i);

		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr + ph.p_memsz > end)
			end = ph.p_vaddr + ph.p_memsz;
		if (align && ph.p_align > *align)
			*align = ph.p_align;
	}
	return end;
}

/* The sealed memfd the kernel execs: MFD_EXEC, whatever vm.memfd_noexec
 * says (Linux 6.3; earlier kernels know no other way). */
static int bundle_memfd(void)
{
	int fd = memfd_create(BUNDLE_HANDLER, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);

	if (fd < 0 && errno == EINVAL)
		fd = memfd_create(BUNDLE_HANDLER, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	return fd;
}

static int make(struct part *h, struct part *q, struct part *ld, struct part *img,
		struct part *vdso, const char *target, unsigned long page_size,
		int layout, char *err, size_t errlen)
{
	uint64_t page = sysconf(_SC_PAGESIZE), hdr_off = 0, h_end, q_end, q_align = 1;
	uint64_t q_off, q_vaddr, p_off, p_vaddr, img_at, v_off, v_vaddr, total, last_load = 0;
	struct bundle_header hdr = { .version = BUNDLE_VERSION, .page_size = page_size,
				     .layout = layout };
	Elf64_Ehdr eh;
	size_t n = 0, q_loads = 0;
	int fd;

	if (check_static_pie(h, err, errlen) < 0 || check_static_pie(q, err, errlen) < 0 ||
	    check_static_pie(vdso, err, errlen) < 0 || find_header(h, &hdr_off, err, errlen) < 0)
		return -1;
	/* Mapped whole from its first byte: one segment, as built. */
	for (size_t k = 1; k < vdso->elf.phnum; k++)
		if (userland_phdr(&vdso->elf, k).p_type == PT_LOAD)
			return fail(err, errlen, "%s: more than one PT_LOAD", vdso->path);
	for (size_t k = 0; k < q->elf.phnum; k++)
		q_loads += userland_phdr(&q->elf, k).p_type == PT_LOAD;
	if (h->elf.phnum + q_loads + 3 > BUNDLE_MAX_PHDRS)
		return fail(err, errlen, "%s and %s: too many program headers", h->path, q->path);
	if (strlen(target) >= sizeof(hdr.target))
		return fail(err, errlen, "%s: target name too long", target);
	strcpy(hdr.target, target);

	/* Handler, then QEMU, then the loader and image, each from a page
	 * boundary, both in the file and in memory. */
	h_end = span(h, NULL);
	q_end = span(q, &q_align);
	if (q_align < page)
		q_align = page;
	q_off = ALIGN_UP(h->len, q_align);
	q_vaddr = ALIGN_UP(h_end, q_align);
	p_off = ALIGN_UP(q_off + q->len, page);
	p_vaddr = ALIGN_UP(q_vaddr + q_end, page);
	img_at = ALIGN_UP(ld->len, 16);
	/* The host vDSO's parameters, a page of zeros in the file (a
	 * segment with none there is not mapped by every kernel), then it. */
	v_off = ALIGN_UP(p_off + img_at + img->len, page);
	v_vaddr = ALIGN_UP(p_vaddr + img_at + img->len, page);
	total = v_off + HOST_VDSO_PARAMS_SIZE + vdso->len;

	for (size_t i = 0; i < h->elf.phnum; i++)
		if (userland_phdr(&h->elf, i).p_type == PT_LOAD)
			last_load = i;
	for (size_t i = 0; i < h->elf.phnum; i++) {
		Elf64_Phdr ph = userland_phdr(&h->elf, i);

		if (ph.p_type == PT_PHDR) {
			ph.p_offset = ph.p_vaddr = hdr_off + offsetof(struct bundle_header, phdrs);
			ph.p_paddr = ph.p_vaddr;
		}
		hdr.phdrs[n++] = ph;
		if (i != last_load)
			continue;
		/* PT_LOADs in ascending order, QEMU's and the payload's last. */
		for (size_t k = 0; k < q->elf.phnum; k++) {
			Elf64_Phdr qp = userland_phdr(&q->elf, k);

			if (qp.p_type != PT_LOAD)
				continue;
			qp.p_offset += q_off;
			qp.p_vaddr += q_vaddr;
			qp.p_paddr = qp.p_vaddr;
			hdr.phdrs[n++] = qp;
		}
		hdr.phdrs[n++] = (Elf64_Phdr){
			.p_type = PT_LOAD, .p_flags = PF_R, .p_offset = p_off,
			.p_vaddr = p_vaddr, .p_paddr = p_vaddr,
			.p_filesz = img_at + img->len, .p_memsz = img_at + img->len,
			.p_align = page,
		};
		hdr.phdrs[n++] = (Elf64_Phdr){
			.p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = v_off,
			.p_vaddr = v_vaddr, .p_paddr = v_vaddr,
			.p_filesz = HOST_VDSO_PARAMS_SIZE, .p_memsz = HOST_VDSO_PARAMS_SIZE,
			.p_align = page,
		};
		hdr.phdrs[n++] = (Elf64_Phdr){
			.p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			.p_offset = v_off + HOST_VDSO_PARAMS_SIZE,
			.p_vaddr = v_vaddr + HOST_VDSO_PARAMS_SIZE,
			.p_paddr = v_vaddr + HOST_VDSO_PARAMS_SIZE,
			.p_filesz = vdso->len, .p_memsz = vdso->len, .p_align = page,
		};
	}
	hdr.phnum = n;
	hdr.qemu = q_vaddr - hdr_off;
	hdr.loader = p_vaddr - hdr_off;
	hdr.image = p_vaddr + img_at - hdr_off;
	hdr.host_vdso = v_vaddr + HOST_VDSO_PARAMS_SIZE - hdr_off;
	hdr.loader_size = ld->len;
	hdr.image_size = img->len;
	memcpy(&eh, h->buf, sizeof(eh));
	eh.e_phoff = hdr_off + offsetof(struct bundle_header, phdrs);
	eh.e_phnum = n;

	/* Each part where it goes; the gaps between them read as zeros. */
	fd = bundle_memfd();
	if (fd < 0 || ftruncate(fd, total) < 0 ||
	    pwrite(fd, h->buf, h->len, 0) != (ssize_t)h->len ||
	    pwrite(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    pwrite(fd, &hdr, sizeof(hdr), hdr_off) != sizeof(hdr) ||
	    pwrite(fd, q->buf, q->len, q_off) != (ssize_t)q->len ||
	    pwrite(fd, ld->buf, ld->len, p_off) != (ssize_t)ld->len ||
	    pwrite(fd, img->buf, img->len, p_off + img_at) != (ssize_t)img->len ||
	    pwrite(fd, vdso->buf, vdso->len, v_off + HOST_VDSO_PARAMS_SIZE) !=
	    (ssize_t)vdso->len ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		fail(err, errlen, "cannot write the bundle: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int bundle_make(const char *handler, const char *qemu, const char *loader,
		const char *image, const char *host_vdso, const char *target,
		unsigned long page_size, int layout, char *err, size_t errlen)
{
	struct part parts[5] = { 0 };
	const char *paths[5] = { handler, qemu, loader, image, host_vdso };
	int fd = -1;
	size_t i;

	for (i = 0; i < 5; i++)
		if (read_part(&parts[i], paths[i], err, errlen) < 0)
			break;
	if (i == 5)
		fd = make(&parts[0], &parts[1], &parts[2], &parts[3], &parts[4], target,
			  page_size, layout, err, errlen);
	for (i = 0; i < 5; i++)
		free(parts[i].buf);
	return fd;
}
