/*
 * template.h: the report templates, a subset of mustache rendered by
 * crown's own small renderer (template.c), and the data they read.
 *
 * The subset (doc/formats.md, "Report templates"):
 *
 *	{{name}}		a value, escaped for the output format
 *	{{{name}}} {{& name}}	a value as it is
 *	{{#name}}...{{/name}}	a section: once per item of a list, once
 *				inside a map, once when true or a non-empty
 *				string; not at all when false, empty or absent
 *	{{^name}}...{{/name}}	an inverted section: once when the value is
 *				false, empty or absent
 *	{{> name}}		the partial DIR/name.tmpl, with the context
 *				of the tag
 *	{{! text}}		a comment, may span lines
 *
 * Names are dotted paths (`game.name`) looked up from the innermost
 * context outwards, as mustache does; `.` is the current item.  Inside a
 * list section `_index` (from 1), `_first` and `_last` describe the item.
 * A section, comment or partial tag alone on its line takes the whole line
 * with it (mustache's standalone tags).  Missing values render as nothing.
 */
#ifndef CROWN_TEMPLATE_H
#define CROWN_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

/*
 * The data: a tree of strings, booleans, lists and maps.  Setting a key
 * of a map again hides the older value (crown_tmap_get finds the latest).
 * Numbers are strings, formatted by whoever builds the tree (fixed
 * decimals, so reports are byte-identical everywhere).
 *
 * A tree lives in one arena: crown_tval_map and crown_tval_list make a
 * root with its own arena, every value and string under it is carved out
 * of that, and crown_tval_free on the root frees it all at once.  Only a
 * root is freed.  Map keys keep a hash, so a lookup compares strings only
 * when the hashes agree, and each distinct key is kept once per tree.
 */
enum crown_tkind {
	CROWN_T_NULL,
	CROWN_T_STR,
	CROWN_T_BOOL,
	CROWN_T_LIST,
	CROWN_T_MAP
};

/*
 * A value.  Lists and maps are larger than this (template.c keeps what
 * they hold beside it); a value is only ever reached through a pointer.
 */
struct crown_tval {
	const char		 *key;		/* in a map: the key */
	struct crown_tval	 *next;		/* the next sibling */
	const char		 *str;		/* CROWN_T_STR */
	uint32_t		  hash;		/* of key */
	unsigned char		  kind;		/* enum crown_tkind */
	bool			  b;		/* CROWN_T_BOOL */
};

/* New empty map or list, the root of a tree; the caller frees it with
 * crown_tval_free. */
struct crown_tval *crown_tval_map(void);
struct crown_tval *crown_tval_list(void);
void	crown_tval_free(struct crown_tval *);

/* True for a value a section renders: see above. */
bool	crown_tval_truthy(const struct crown_tval *);

/* Items of a list or values of a map (0 for anything else). */
size_t	crown_tval_count(const struct crown_tval *);

/* The hash crown_tmap_get compares (FNV-1a of the key's len bytes).
 * Inline: the reader of templates (template-parse.c) hashes names with
 * it, the tree (template.c) keys. */
static inline uint32_t
crown_tkey_hash(const char *key, size_t len)
{
	uint32_t	h = 2166136261u;
	size_t		i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 16777619u;
	}
	return h;
}

/* Map setters; each returns the new value (owned by the tree).  A NULL
 * string sets nothing. */
void	crown_tmap_str(struct crown_tval *map, const char *key,
	    const char *s);
/* The same for len bytes of s (no NUL needed; s not NULL). */
void	crown_tmap_strn(struct crown_tval *map, const char *key,
	    const char *s, size_t len);
void	crown_tmap_printf(struct crown_tval *map, const char *key,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void	crown_tmap_int(struct crown_tval *map, const char *key, long v);

/* Two decimals, never "-0.00". */
void	crown_tmap_num2(struct crown_tval *map, const char *key, double v);
void	crown_tmap_bool(struct crown_tval *map, const char *key, bool v);
struct crown_tval *crown_tmap_map(struct crown_tval *map, const char *key);
struct crown_tval *crown_tmap_list(struct crown_tval *map, const char *key);

/*
 * Set key to v, a value made elsewhere in the same tree (a map shared by
 * two lists, say), without copying what it holds; v must not hold map
 * itself.  The new value, returned, shares v's items, and each may still
 * change without the other seeing it: keys set on a map hide the other's;
 * a copied list takes a chain of its own before it grows, and walks only
 * as many items as it had.
 */
struct crown_tval *crown_tmap_ref(struct crown_tval *map, const char *key,
	    const struct crown_tval *v);
const struct crown_tval *crown_tmap_get(const struct crown_tval *map,
	    const char *key);

/* The same, with the hash of key already known. */
const struct crown_tval *crown_tmap_find(const struct crown_tval *map,
	    const char *key, size_t len, uint32_t hash);

/*
 * A map whose values are made as they are asked for: a lookup of a key
 * the map does not hold calls get(map, key, len, arg) (key is len bytes,
 * not NUL-terminated), which puts the key's value into map with the
 * setters above and returns true, or returns false when the map has no
 * such key.  The value put is found by that lookup and every later one.
 * A map so made reads as one whose values were all put at once, for
 * templates and crown_tmap_get alike, as long as get puts only the key
 * asked for and gives the same answer each time (a key it has not is
 * not asked for again); crown_tval_count counts only the values put by
 * the setters.  A reference to it (crown_tmap_ref, crown_tlist_ref)
 * shares what the getter made, through the map or any other reference,
 * so set the getter before taking any reference.  For the reports'
 * events, most of whose keys no template reads.
 */
typedef bool	(*crown_tget)(struct crown_tval *map, const char *key,
		    size_t len, const void *arg);
void	crown_tmap_getter(struct crown_tval *map, crown_tget get,
	    const void *arg);

/* List appenders. */
struct crown_tval *crown_tlist_map(struct crown_tval *list);
void	crown_tlist_str(struct crown_tval *list, const char *s);

/* Append v, a value of the same tree, without copying it: as
 * crown_tmap_ref. */
struct crown_tval *crown_tlist_ref(struct crown_tval *list,
	    const struct crown_tval *v);

/*
 * Escaping by output format, chosen from the output's name: ".md" is
 * Markdown, ".svg", ".xml" and ".html" are XML, anything else is left as
 * it is.
 *
 * Markdown: a backslash before \ ` * _ [ ] < > | (always), and before
 * # + - = at the start of a line and the . or ) of a number that starts a
 * line ("1." would begin a list); line breaks become spaces, so a value
 * never ends a table row or a paragraph.
 * XML: & < > " ' as entities; control characters other than tab, line
 * feed and carriage return (not allowed in XML 1.0) are dropped.
 */
enum crown_escape {
	CROWN_ESC_NONE,
	CROWN_ESC_MARKDOWN,
	CROWN_ESC_XML
};

enum crown_escape crown_escape_for(const char *output_name);

/* Append s escaped; at_line_start: s begins a line of the output. */
void	crown_escape_markdown(struct crown_buf *, const char *s,
	    bool at_line_start);
void	crown_escape_xml(struct crown_buf *, const char *s);

/* Append the len bytes of Markdown md as plain text for mail: without
 * the backslashes that escape punctuation (the inverse of the above). */
void	crown_markdown_plain(struct crown_buf *, const char *md, size_t len);

/*
 * A set of templates: the files NAME.tmpl of one directory, each parsed
 * once, with the partials they name.  Problems are reported as
 * DIR/NAME.tmpl:LINE:COLUMN: error: ...  Syntax errors (every one of a
 * file) give CROWN_EINVALID; a missing template or partial
 * CROWN_ENOTFOUND.
 */
struct crown_tmpl_set;

/* dir may be NULL: then only templates added with crown_tmpl_set_add. */
struct crown_tmpl_set *crown_tmpl_set_new(const char *dir);
void	crown_tmpl_set_free(struct crown_tmpl_set *);

/*
 * What one render may do before it stops with CROWN_EINVALID and a
 * diagnostic: tags and pieces of text visited (100 million by default;
 * sections of a list nested in themselves multiply them), and bytes
 * written (256 MiB).
 */
void	crown_tmpl_set_limits(struct crown_tmpl_set *, unsigned long max_steps,
	    size_t max_bytes);

/* Add a template from memory (tests, built-in defaults). */
int	crown_tmpl_set_add(struct crown_tmpl_set *, const char *name,
	    const char *text, size_t len, struct crown_diags *d);

/* Load NAME and, recursively, every partial it names (whether or not the
 * data will reach it), so that a broken template fails on every turn. */
int	crown_tmpl_load(struct crown_tmpl_set *, const char *name,
	    struct crown_diags *d);

/* Load (as above) and render NAME with ctx (a map) into out. */
int	crown_tmpl_render(struct crown_buf *out, struct crown_tmpl_set *,
	    const char *name, enum crown_escape, const struct crown_tval *ctx,
	    struct crown_diags *d);

#endif
