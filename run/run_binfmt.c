// SPDX-License-Identifier: GPL-2.0
/*
 * --binfmt-register, --binfmt-unregister and --binfmt-print (run.h): the
 * handlers binfmt.h registers or prints for each target that is built.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "elf/vdso_image.h"
#include "preload/host_vdso.h"
#include "run.h"

/* What the handlers below are given: the request, and where they refuse. */
struct binfmt_request {
	const struct request *req;
	struct run_error *e;
	bool refused;			/* e holds why */
};

/* -1, for a handler that refused: main() says why. */
static int refused(struct binfmt_request *b)
{
	b->refused = true;
	return -1;
}

/* The dynamic handler (BINFMT_HANDLER in HANDLER_DIR, or
 * --binfmt-print's) for a target that is built. */
static int host_handler(const char *target, struct binfmt_handler *h, void *ctx)
{
	struct binfmt_request *b = ctx;
	const struct ppctime_target *t = target_named(target, b->e);
	char *loader, *dir;

	if (!t || support_loader(t, false, &loader, b->e))
		return refused(b);
	if (!loader)
		return 0;
	free(loader);
	if (b->req->binfmt_handler) {
		snprintf(h->path, sizeof(h->path), "%s", b->req->binfmt_handler);
	} else {
		/* The link's own name, which says how the handler was run. */
		if (support_handler(".", &dir, b->e))
			return refused(b);
		snprintf(h->path, sizeof(h->path), "%s/" BINFMT_HANDLER, dir);
		free(dir);
		if (access(h->path, X_OK) < 0) {
			refuse(b->e, "%s: %s", h->path, strerror(errno));
			return refused(b);
		}
	}
	if (h->path[0] != '/' || strchr(h->path, ':')) {
		refuse(b->e, "%s: binfmt_misc takes a handler by its absolute path, with no ':'",
		       h->path);
		return refused(b);
	}
	h->flags = BINFMT_FLAGS;
	h->about[0] = '\0';
	return 1;
}

/* --binfmt-register: where the static QEMU is, a bundle (bundle.h) that
 * serves in chroots too; else the dynamic handler. */
static int register_handler(const char *target, struct binfmt_handler *h, void *ctx)
{
	struct binfmt_request *b = ctx;
	const struct ppctime_target *t = target_named(target, b->e);
	char qemu[PATH_MAX], err[512];
	char *handler = NULL, *loader = NULL, *image = NULL, *host_vdso = NULL;
	struct vdso_image img;
	unsigned long page_size = 0;
	int r = host_handler(target, h, ctx), fd = -1, layout;

	if (r <= 0)
		return r;
	static_qemu(t, b->req->static_qemu_dir, qemu, sizeof(qemu));
	if (access(qemu, R_OK) < 0 && !b->req->static_qemu_dir)
		return r;
	if (support_handler(BUNDLE_HANDLER, &handler, b->e) ||
	    support_loader(t, true, &loader, b->e) || support_image(t, &image, b->e) ||
	    support_preload(HOST_VDSO_NAME, &host_vdso, b->e) ||
	    check_image(image, t, &page_size, &img, &layout, b->e)) {
		refused(b);
	} else {
		vdso_image_free(&img);
		fd = bundle_make(handler, qemu, loader, image, host_vdso, t->name, page_size,
				 layout, err, sizeof(err));
		if (fd < 0) {
			refuse(b->e, "cannot make %s's handler: %s", t->name, err);
			refused(b);
		}
	}
	free(handler);
	free(loader);
	free(image);
	free(host_vdso);
	if (fd < 0)
		return -1;
	/* The kernel opens it now, and keeps it (F). */
	snprintf(h->path, sizeof(h->path), "/proc/self/fd/%d", fd);
	h->flags = BINFMT_FLAGS_CHROOT;
	snprintf(h->about, sizeof(h->about), "in chroots too, with %s", qemu);
	return 1;
}

int binfmt_action(const struct request *req, struct run_error *e)
{
	struct binfmt_request b = { .req = req, .e = e };
	int r;

	switch (req->binfmt_action) {
	case BINFMT_UNREGISTER:
		r = binfmt_unregister();
		break;
	case BINFMT_PRINT:
		r = binfmt_print(host_handler, &b);
		break;
	default:
		r = binfmt_register(register_handler, &b);
	}
	/* A refusal of ours main() says; binfmt.c said its own. */
	if (r && !b.refused)
		refuse(e, "%s", "");
	return r ? -1 : 0;
}

