/*
 * yaml.h: YAML documents as trees with places, typed reading with
 * diagnostics, and a deterministic emitter; all through libyaml.
 */
#ifndef CROWN_YAML_H
#define CROWN_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

enum crown_ykind {
	CROWN_Y_SCALAR,
	CROWN_Y_SEQ,
	CROWN_Y_MAP
};

struct crown_ynode {
	enum crown_ykind	  kind;
	unsigned		  line;		/* 1-based */
	unsigned		  col;		/* 1-based */
	bool			  plain;	/* scalar written without quotes */
	char			 *str;		/* scalar text, NUL-terminated */
	size_t			  len;
	size_t			  n;		/* items of a sequence or map */
	struct crown_ynode	**item;		/* sequence items; map values */
	struct crown_ynode	**key;		/* map keys (scalars) */
};

struct crown_ylimits {
	size_t		max_bytes;	/* whole file */
	unsigned	max_depth;	/* nesting of sequences and maps */
	size_t		max_nodes;
};

/*
 * Limits for hostile input: orders (1 MiB, 16 levels) and states and rules
 * files (64 MiB, 32 levels).  The byte limits can be changed for one run
 * (--limit-orders-bytes, --limit-state-bytes) with the setters below.
 */
extern struct crown_ylimits crown_ylimits_orders;
extern struct crown_ylimits crown_ylimits_state;

#define CROWN_LIMIT_BYTES_MAX	((size_t)1 << 30)	/* 1 GiB */

/*
 * Set a byte limit from text: a whole number of bytes, or of KiB or MiB
 * with a suffix k or M ("512k", "2M"), from 1 byte to 1 GiB.  0, or
 * CROWN_EUSAGE (and nothing changed) when arg is not such a number.
 */
int	crown_limits_parse_bytes(size_t *out, const char *arg);
int	crown_limits_set_orders_bytes(const char *arg);
int	crown_limits_set_state_bytes(const char *arg);

struct crown_ydoc;

/*
 * Parse buf (len bytes) as one YAML document.  Problems go to d with file
 * as their name.  Anchors, aliases, duplicate keys, non-scalar keys, NUL
 * bytes, control characters in strings (other than tab and newline, also
 * when written as escapes), text in UTF-16, a non-breaking space where
 * YAML needs a space (crown_text_nbsp: in the indentation, beside a ':',
 * after a '- ' or a flow's ',', '[' or '{'; not inside quotes or a
 * comment) and documents past the limits are refused; libyaml refuses
 * what is not UTF-8.  A syntax error is said in plain words (a tab in
 * the indentation named as such), at the line a reader would mend, and
 * the line is quoted (crown_diags_quote).  Returns 0, CROWN_EINVALID, or
 * CROWN_ERROR when libyaml runs out of memory; *out is the document
 * (caller frees) or NULL.
 */
int	crown_ydoc_parse(struct crown_ydoc **out, const char *file,
	    const char *buf, size_t len, const struct crown_ylimits *,
	    struct crown_diags *d);

/* Read path and parse it; CROWN_ENOTFOUND (with a diagnostic) if absent. */
int	crown_ydoc_load(struct crown_ydoc **out, const char *path,
	    const struct crown_ylimits *, struct crown_diags *d);
const struct crown_ynode *crown_ydoc_root(const struct crown_ydoc *);
const char *crown_ydoc_file(const struct crown_ydoc *);
void	crown_ydoc_free(struct crown_ydoc *);

/*
 * Read a whole file into memory, NUL-terminated.  Refuses files over max
 * bytes.  CROWN_ENOTFOUND if it cannot be opened, CROWN_EINVALID if too
 * large; a diagnostic says which.
 */
int	crown_read_file(char **out, size_t *len, const char *path,
	    size_t max, struct crown_diags *d);

/* Typed reading.  Each function reports its own problem and returns
 * CROWN_EINVALID, or 0; the rule id is appended to the message. */
struct crown_yreader {
	const char		*file;
	struct crown_diags	*diags;
	int			 errors;	/* problems reported so far */
};

void	crown_yerror(struct crown_yreader *, const struct crown_ynode *,
	    const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
const struct crown_ynode *crown_ymap_get(const struct crown_ynode *map,
	    const char *key);

/* The key node naming v in map, for places; NULL if v is not a value. */
const struct crown_ynode *crown_ymap_key_of(const struct crown_ynode *map,
	    const struct crown_ynode *v);
bool	crown_yis_null(const struct crown_ynode *);
int	crown_ykind(struct crown_yreader *, const struct crown_ynode *,
	    enum crown_ykind, const char *what, const char *rule);

/* Report every key of map not in keys (a NULL-terminated list). */
int	crown_ykeys(struct crown_yreader *, const struct crown_ynode *map,
	    const char *const *keys, const char *rule);

/* Report a missing required key; returns the value or NULL. */
const struct crown_ynode *crown_yrequire(struct crown_yreader *,
	    const struct crown_ynode *map, const char *key, const char *rule);

int	crown_yint(struct crown_yreader *, const struct crown_ynode *,
	    const char *what, long lo, long hi, const char *rule, long *out);
int	crown_ynum(struct crown_yreader *, const struct crown_ynode *,
	    const char *what, double lo, double hi, const char *rule,
	    double *out);
int	crown_ybool(struct crown_yreader *, const struct crown_ynode *,
	    const char *what, const char *rule, bool *out);
int	crown_ystr(struct crown_yreader *, const struct crown_ynode *,
	    const char *what, const char *rule, const char **out);

/* An id: [a-z0-9][a-z0-9_-]{0,31}. */
int	crown_yid(struct crown_yreader *, const struct crown_ynode *,
	    const char *what, const char *rule, const char **out);
bool	crown_id_valid(const char *);

/* One of names[0..count-1]; *out is its index. */
int	crown_yenum(struct crown_yreader *, const struct crown_ynode *,
	    const char *what, const char *const *names, int count,
	    const char *rule, int *out);

/* Field forms: read map[key] if present (else leave *out alone and, when
 * required, report it missing). */
int	crown_yfield_int(struct crown_yreader *, const struct crown_ynode *map,
	    const char *key, bool required, long lo, long hi, const char *rule,
	    long *out);
int	crown_yfield_num(struct crown_yreader *, const struct crown_ynode *map,
	    const char *key, bool required, double lo, double hi,
	    const char *rule, double *out);
int	crown_yfield_bool(struct crown_yreader *, const struct crown_ynode *map,
	    const char *key, bool required, const char *rule, bool *out);
int	crown_yfield_str(struct crown_yreader *, const struct crown_ynode *map,
	    const char *key, bool required, const char *rule, char **out);
/* A name (of the game, a side, a unit, a leader, a terrain feature, a
 * person): text without a control character, tab and newline among
 * them, or a bidirectional control (crown_diag_unsafe). */
int	crown_yfield_name(struct crown_yreader *, const struct crown_ynode *map,
	    const char *key, bool required, char **out);
int	crown_yfield_id(struct crown_yreader *, const struct crown_ynode *map,
	    const char *key, bool required, const char *rule, char **out);
int	crown_yfield_enum(struct crown_yreader *, const struct crown_ynode *map,
	    const char *key, bool required, const char *const *names,
	    int count, const char *rule, int *out);

/*
 * Emitting into a crown_buf through libyaml's emitter, so output order
 * and number formatting are ours alone (yemit.c).  An error (out of
 * memory, text that is not UTF-8) makes the later calls do nothing and
 * crown_yemit_finish return CROWN_ERROR.
 */
struct crown_yemit;

struct crown_yemit *crown_yemit_new(struct crown_buf *out);

/* Finish the document; 0 or CROWN_ERROR. */
int	crown_yemit_finish(struct crown_yemit *);
void	crown_yemit_free(struct crown_yemit *);
void	crown_yemit_map(struct crown_yemit *, bool flow);
void	crown_yemit_seq(struct crown_yemit *, bool flow);
void	crown_yemit_end(struct crown_yemit *);

/* A string, quoted when it would otherwise read back as something else. */
void	crown_yemit_str(struct crown_yemit *, const char *);
/* A string in double quotes whatever it holds (a name from a rules file,
 * which a reader should see is text). */
void	crown_yemit_quoted(struct crown_yemit *, const char *);
void	crown_yemit_int(struct crown_yemit *, long);
void	crown_yemit_bool(struct crown_yemit *, bool);

/* A number with 2 decimals (positions). */
void	crown_yemit_num2(struct crown_yemit *, double);
void	crown_yemit_null(struct crown_yemit *);

/* Shorthands for "key: value" inside a block map. */
void	crown_yemit_kstr(struct crown_yemit *, const char *, const char *);
void	crown_yemit_kint(struct crown_yemit *, const char *, long);
void	crown_yemit_kbool(struct crown_yemit *, const char *, bool);
void	crown_yemit_knum2(struct crown_yemit *, const char *, double);

/* Write a parsed tree (or subtree) back out as a YAML document. */
int	crown_ynode_emit(struct crown_buf *out, const struct crown_ynode *);

#endif
