/*
 * dynlib.c: libraries loaded when first called (dynlib.h).
 */
#define _GNU_SOURCE		/* RTLD_DEFAULT, on a glibc before 2.34 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/dynlib.h"

/* The sonames the Makefile read from the libraries crown was built
 * against: dlopen of "" would give the program itself. */
_Static_assert(sizeof(CROWN_SONAME_GIT2) > 1, "no soname for libgit2");
_Static_assert(sizeof(CROWN_SONAME_GMIME) > 1, "no soname for GMime");
_Static_assert(sizeof(CROWN_SONAME_GPGME) > 1, "no soname for GPGME");

struct crown_dl	crown_dl_git2 = { "libgit2", CROWN_SONAME_GIT2, NULL,
		    { { 0 } } };
struct crown_dl	crown_dl_gmime = { "GMime", CROWN_SONAME_GMIME, NULL,
		    { { 0 } } };
struct crown_dl	crown_dl_gpgme = { "GPGME", CROWN_SONAME_GPGME, NULL,
		    { { 0 } } };

static void
load(struct crown_dl *lib)
{
	/* RTLD_GLOBAL: as if crown were linked with it, so that what it
	 * loads in turn (GIO's modules) finds its symbols */
	if ((lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_GLOBAL)) !=
	    NULL)
		return;
	fflush(stdout);
	fprintf(stderr, "crown: cannot load %s, which this command needs: "
	    "%s\n", lib->what, dlerror());
	exit(CROWN_EXIT_INTERNAL);
}

static void *
sym(struct crown_dl *lib, const char *name)
{
	struct crown_dl_slot	*s;
	void			*p;

	s = &lib->slot[crown_addr_slot(name, CROWN_DL_SLOTS_BITS)];
	if (s->name == name)
		return s->p;
	if (lib->handle == NULL)
		load(lib);
	/* in the whole process, in the loader's order, as a link would
	 * bind it: lib, loaded RTLD_GLOBAL, is in it */
	(void)dlerror();
	if ((p = dlsym(RTLD_DEFAULT, name)) == NULL) {
		fflush(stdout);
		fprintf(stderr, "crown: %s (%s) has no %s: %s\n", lib->what,
		    lib->soname, name, dlerror());
		exit(CROWN_EXIT_INTERNAL);
	}
	s->name = name;
	s->p = p;
	return p;
}

crown_dl_fn
crown_dl_fn_of(struct crown_dl *lib, const char *name)
{
	void		*p = sym(lib, name);
	crown_dl_fn	 f;

	/* POSIX's way from dlsym's void * to a function pointer */
	memcpy(&f, &p, sizeof(f));
	return f;
}

void *
crown_dl_var_of(struct crown_dl *lib, const char *name)
{
	return sym(lib, name);
}

bool
crown_dl_loaded(const struct crown_dl *lib)
{
	return lib->handle != NULL;
}
