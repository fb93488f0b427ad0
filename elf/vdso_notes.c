// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_notes: an image's notes, found through PT_NOTE as a C library
 * finds them, and what they say: the data layout the image expects
 * (<vdso/datapage.h>).  See vdso_image.h.
 */
#include "vdso_image.h"

#include <elf.h>
#include <string.h>

#include <vdso/datapage.h>

#include "ppctime/fail.h"

int vdso_image_note_word(const struct vdso_image *img, const char *name, uint32_t type,
			 uint32_t *word)
{
	const struct elf_file *elf = &img->elf;
	uint64_t name_size = strlen(name) + 1;
	struct elf_segment seg;

	for (size_t i = 0; i < elf->phnum; i++) {
		const unsigned char *note;

		if (elf_file_program_header(elf, i, &seg) || seg.type != PT_NOTE)
			continue;
		note = vdso_image_bytes(img, seg.offset, seg.filesz);
		if (!note)
			continue;
		/* Each note: namesz, descsz, type, then name and desc, 4-aligned. */
		for (uint64_t at = 0; elf_fits(at, 12, seg.filesz);) {
			uint64_t namesz = elf_get(elf, note + at, 4);
			uint64_t descsz = elf_get(elf, note + at + 4, 4);
			uint64_t name_at = at + 12;
			uint64_t desc_at = name_at + ((namesz + 3) & ~3ull);

			if (!elf_fits(desc_at, (descsz + 3) & ~3ull, seg.filesz))
				break;
			if (namesz == name_size && descsz == 4 &&
			    elf_get(elf, note + at + 8, 4) == type &&
			    !memcmp(note + name_at, name, name_size)) {
				*word = elf_get(elf, note + desc_at, 4);
				return 0;
			}
			at = desc_at + ((descsz + 3) & ~3ull);
		}
	}
	return -1;
}

int vdso_image_layout(const struct vdso_image *img, int *layout, char *err, size_t errlen)
{
	uint32_t word;

	if (!vdso_image_note_word(img, VDSO_LAYOUT_NOTE_NAME, VDSO_LAYOUT_NOTE_TYPE, &word)) {
		if (word != VDSO_LAYOUT_6_1 && word != VDSO_LAYOUT_DATASTORE)
			return fail(err, errlen,
				    "its " VDSO_LAYOUT_NOTE_NAME " note asks for data layout %u, "
				    "which this ppctime does not know", word);
		*layout = word;
		return 0;
	}
	/* Linux's own image: its release says the layout. */
	if (vdso_image_note_word(img, "Linux", 0, &word))
		return fail(err, errlen,
			    "neither a " VDSO_LAYOUT_NOTE_NAME " layout note nor a Linux version "
			    "note: the data layout it expects is unknown");
	if (word < VDSO_LINUX_6_12) {
		*layout = VDSO_LAYOUT_6_1;
	} else if (word >= VDSO_LINUX_DATASTORE) {
		*layout = VDSO_LAYOUT_DATASTORE;
	} else {
		return fail(err, errlen,
			    "Linux %u.%u's own image: Linux 6.12 to 6.16 lay the data pages out "
			    "in ways ppctime does not write (it writes 6.1's and 6.17's)",
			    word >> 16, word >> 8 & 0xff);
	}
	return 0;
}
