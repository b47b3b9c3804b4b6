/*
 * dynlib.h: the libraries crown loads when it first calls them, not at
 * start: libgit2 (the campaign's history), GMime with GLib, and GPGME
 * (mail and signatures).  Binding them at start was a third of the
 * dynamic loader's work for every command, 16 M instructions, most of
 * it for commands that never touch a repository or a message (crown
 * resolve, crown check).  doc/design.md, "Libraries loaded when first
 * called".
 *
 * A file that calls such a library includes its header, then a list of
 * lines like
 *
 *	#define git_blob_free	CROWN_DL(crown_dl_git2, git_blob_free)
 *
 * so that its code reads as before: each call goes through the pointer
 * crown_dl_fn finds (and remembers) for the name, the library loaded the
 * first time.  The header's own declaration gives the pointer its type.
 * A function left out of the list is a reference the link refuses, as
 * crown is not linked with these libraries.
 */
#ifndef CROWN_DYNLIB_H
#define CROWN_DYNLIB_H

#include <stdbool.h>

/* the slots of names a library remembers (a power of two) */
#define CROWN_DL_SLOTS_BITS	8

struct crown_dl_slot {
	const char	*name;		/* the address the caller gave */
	void		*p;
};

struct crown_dl {
	const char		*what;	/* for messages: "libgit2" */
	const char		*soname;
	void			*handle;
	struct crown_dl_slot	 slot[1u << CROWN_DL_SLOTS_BITS];
};

extern struct crown_dl	crown_dl_git2, crown_dl_gmime, crown_dl_gpgme;

/* Any function's pointer type: ISO C converts function pointers only to
 * function pointers, and this one to every other without a warning. */
typedef void	(*crown_dl_fn)(void);

/*
 * The function name of lib, loading lib first if it is not yet loaded.
 * name is remembered by its address, so it must be a string of static
 * storage that never changes (the macros below give a literal); and a
 * slot is written without a lock, as crown runs one thread (crown verify
 * forks).
 * A library that cannot be loaded, or has not name, is an installation
 * that cannot work: crown says which and exits 1, as when memory runs
 * out.
 */
crown_dl_fn	crown_dl_fn_of(struct crown_dl *lib, const char *name);
/* The same for a variable of lib (GLib's g_utf8_skip). */
void	       *crown_dl_var_of(struct crown_dl *lib, const char *name);
/* Whether lib has been loaded in this process (for the tests). */
bool		crown_dl_loaded(const struct crown_dl *lib);

#define CROWN_DL(lib, f)	((__typeof__(&f))crown_dl_fn_of(&(lib), #f))
#define CROWN_DL_VAR(lib, v)	(*(__typeof__(&v))crown_dl_var_of(&(lib), #v))

#endif
