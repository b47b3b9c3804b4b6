/*
 * template-parse.h: a template as template-parse.c reads it and
 * template.c renders it: a tree of nodes, the names in them hashed once,
 * and the set of templates loaded from one folder.  For those two files
 * only; the interface is template.h.
 */
#ifndef CROWN_TEMPLATE_PARSE_H
#define CROWN_TEMPLATE_PARSE_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>

#include "crown/diag.h"
#include "crown/template.h"

#define MAX_NEST		100	/* sections inside sections */

enum node_kind {
	N_TEXT,
	N_VAR,		/* {{name}} */
	N_RAW,		/* {{{name}}}, {{& name}} */
	N_SECTION,	/* {{#name}} */
	N_INVERTED,	/* {{^name}} */
	N_PARTIAL	/* {{> name}} */
};

/*
 * A part of a dotted name, hashed once when the template is read, and
 * bound to the tree it was last looked up in: that tree's copy of the
 * key (interned, so a map's keys are compared by address), or NULL when
 * no value of the tree had it while the tree held nkeys keys.
 */
struct seg {
	const char	*s;
	size_t		 len;
	uint32_t	 hash;
	uint64_t	 bits;		/* bloom_bits(hash) */
	uint64_t	 tree;		/* crown_tarena's gen; 0: none yet */
	size_t		 nkeys;
	const char	*key;
};

enum special {
	SP_NONE,
	SP_DOT,		/* "." */
	SP_INDEX,	/* _index, _first, _last: of a list's item */
	SP_FIRST,
	SP_LAST
};

struct node {
	enum node_kind	 kind;
	char		*s;		/* text, or the name */
	size_t		 len;		/* of text */
	unsigned	 line, col;
	struct node	*child;
	size_t		 nchild, capchild;
	/* values and sections: the name's parts */
	struct seg	*seg;
	size_t		 nseg;
	enum special	 special;	/* of the first part */
	/* partials: the template, once it has loaded */
	struct tmpl	*partial;
};

struct tmpl {
	char		*name;
	char		*file;		/* for diagnostics */
	int		 error;		/* 0 when usable */
	struct node	 root;
};

struct crown_tmpl_set {
	char			*dir;
	struct tmpl		**v;
	size_t			  n, cap;
	pcre2_code		 *tag_re;
	pcre2_match_data	 *md;
	int			  re_error;
	unsigned long		  max_steps;	/* per render */
	size_t			  max_bytes;
};

/* The bits of a key's hash in a map's bloom: a lookup of a key the map
 * does not hold (most lookups, as names are looked for from the innermost
 * context outwards) seldom walks the map. */
static inline uint64_t
bloom_bits(uint32_t hash)
{
	return (uint64_t)1 << (hash & 63) | (uint64_t)1 << (hash >> 26);
}

/*
 * Template `name' of set into *out, loaded with its partials once; from
 * and tag: the template and partial tag that ask for it (NULL, NULL for
 * the first), for the diagnostic when it is missing.  0, or the problems
 * in d and an error.
 */
int	crown_tmpl_load_at(struct crown_tmpl_set *set, const char *name,
	    struct crown_diags *d, const struct tmpl *from,
	    const struct node *tag, struct tmpl **out);

#endif
