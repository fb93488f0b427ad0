/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vdso_image_internal: what the vDSO image reader's own files share, not
 * for its users (they have vdso_image.h).  vdso_image.c parses the
 * headers, the segments and the sections and calls on vdso_dynamic.c for
 * the dynamic section.
 */
#ifndef VDSO_IMAGE_INTERNAL_H
#define VDSO_IMAGE_INTERNAL_H

#include "vdso_image.h"

/* Parses the dynamic section, found by the program headers, and the hash
 * tables, dynamic symbols and version definitions it points at. */
int vdso_dynamic_parse(struct vdso_image *img, char *err, size_t errlen);

#endif /* VDSO_IMAGE_INTERNAL_H */
