// SPDX-License-Identifier: GPL-2.0
/*
 * --binfmt-register, --binfmt-unregister and --binfmt-print (run.h): the
 * handlers binfmt.h registers or prints for each target that is built.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "elf/vdso_image.h"
#include "preload/host_vdso.h"
#include "run.h"

/* The dynamic handler (BINFMT_HANDLER in HANDLER_DIR, or
 * --binfmt-print's) for a target that is built. */
static int host_handler(const char *target, struct binfmt_handler *h, void *ctx)
{
	const struct request *req = ctx;
	const struct ppctime_target *t = target_named(target);
	char *loader, *dir;

	loader = support_loader(t, false);
	if (!loader)
		return 0;
	free(loader);
	if (req->binfmt_handler) {
		snprintf(h->path, sizeof(h->path), "%s", req->binfmt_handler);
	} else {
		/* The link's own name, which says how the handler was run. */
		dir = support_handler(".");
		snprintf(h->path, sizeof(h->path), "%s/" BINFMT_HANDLER, dir);
		free(dir);
		if (access(h->path, X_OK) < 0)
			refuse("%s: %s", h->path, strerror(errno));
	}
	if (h->path[0] != '/' || strchr(h->path, ':'))
		refuse("%s: binfmt_misc takes a handler by its absolute path, with no ':'",
		       h->path);
	h->flags = BINFMT_FLAGS;
	h->about[0] = '\0';
	return 1;
}

/* --binfmt-register: where the static QEMU is, a bundle (bundle.h) that
 * serves in chroots too; else the dynamic handler. */
static int register_handler(const char *target, struct binfmt_handler *h, void *ctx)
{
	const struct request *req = ctx;
	const struct ppctime_target *t = target_named(target);
	char qemu[PATH_MAX], err[512];
	char *handler, *loader, *image, *host_vdso;
	struct vdso_image img;
	unsigned long page_size;
	int r = host_handler(target, h, ctx), fd, layout;

	static_qemu(t, req->static_qemu_dir, qemu, sizeof(qemu));
	if (r <= 0 || (access(qemu, R_OK) < 0 && !req->static_qemu_dir))
		return r;
	handler = support_handler(BUNDLE_HANDLER);
	loader = support_loader(t, true);
	image = support_image(t);
	host_vdso = support_preload(HOST_VDSO_NAME);
	page_size = check_image(image, t, 0, &img, &layout);
	vdso_image_free(&img);
	fd = bundle_make(handler, qemu, loader, image, host_vdso, t->name, page_size, layout,
			 err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "ppctime-run: cannot make %s's handler: %s\n", t->name, err);
		return -1;
	}
	/* The kernel opens it now, and keeps it (F). */
	snprintf(h->path, sizeof(h->path), "/proc/self/fd/%d", fd);
	h->flags = BINFMT_FLAGS_CHROOT;
	snprintf(h->about, sizeof(h->about), "in chroots too, with %s", qemu);
	free(handler);
	free(loader);
	free(image);
	free(host_vdso);
	return 1;
}

int binfmt_action(struct request *req)
{
	switch (req->binfmt_action) {
	case BINFMT_UNREGISTER:
		return binfmt_unregister() ? LAUNCH_EXIT_ERROR : 0;
	case BINFMT_PRINT:
		return binfmt_print(host_handler, req) ? LAUNCH_EXIT_ERROR : 0;
	default:
		return binfmt_register(register_handler, req) ? LAUNCH_EXIT_ERROR : 0;
	}
}

