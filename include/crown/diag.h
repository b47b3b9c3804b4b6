/*
 * diag.h: problems found in input files, reported all at once as
 * "FILE:LINE:COLUMN: error: message (R-id)", and warnings, as
 * "FILE:LINE:COLUMN: warning: message (R-id)": what is allowed but
 * surely not meant (an order that cannot do anything).  A warning never
 * makes a command fail; whether one failed is its return code, as
 * before.  A note, "FILE: message", says what crown did by itself (the
 * repairs after a killed run); a command prints it as it prints the
 * others.
 */
#ifndef CROWN_DIAG_H
#define CROWN_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum crown_severity {
	CROWN_DIAG_ERROR,	/* 0: what crown_diag_add makes */
	CROWN_DIAG_WARNING,
	CROWN_DIAG_NOTE
};

struct crown_diag {
	enum crown_severity severity;
	char		*file;
	unsigned	 line;		/* 1-based; 0 when the whole file */
	unsigned	 col;		/* 1-based */
	char		*rule;		/* R-id, or NULL */
	char		*msg;
	char		*quote;		/* the line, as shown (printable, tabs
					 * expanded), or NULL */
	unsigned	 caret;		/* where col is in quote, from 0 */
};

struct crown_diags {
	struct crown_diag	*v;
	size_t			 n;
	size_t			 cap;
};

void	crown_diag_add(struct crown_diags *, const char *file, unsigned line,
	    unsigned col, const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
/* The same, as a warning. */
void	crown_diag_warn(struct crown_diags *, const char *file, unsigned line,
	    unsigned col, const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
/* The same, as a note. */
void	crown_diag_note(struct crown_diags *, const char *file, unsigned line,
	    unsigned col, const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
/* Every problem of from put at the end of to, in order; from is left
 * empty. */
void	crown_diags_move(struct crown_diags *to, struct crown_diags *from);
/* How many of d are errors (not warnings or notes). */
size_t	crown_diags_errors(const struct crown_diags *);
/*
 * Quote the line each error of d from index from on is at, from the len
 * bytes of buf it was found in (a byte-order mark, control characters
 * and bytes that are not UTF-8 shown as a player's mail client would:
 * nothing, '?'); an error already quoted or of no line is left.
 */
void	crown_diags_quote(struct crown_diags *d, size_t from, const char *buf,
	    size_t len);
/* One line per problem, in the order found; a quoted one is followed by
 * its line and a caret under its column:
 *
 *	FILE:3:5: error: message
 *	    3 |   - unit 2-militia
 *	      |     ^
 */
void	crown_diags_print(FILE *, const struct crown_diags *);
/* Format one problem as above, without the last newline; caller frees. */
char	*crown_diag_format(const struct crown_diag *);
void	crown_diags_release(struct crown_diags *);

/*
 * Whether code point c must never reach a terminal or a reader as it
 * is: a control character (C0, DEL, C1) or a bidirectional control
 * (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which reorders
 * the text shown around it.
 */
bool	crown_diag_unsafe(unsigned long c);
/*
 * The first such character of the UTF-8 text s (len bytes) as a code
 * point, or 0; *at, when not NULL, is its byte offset.  A byte that is
 * not UTF-8 is not looked at here.
 */
unsigned long crown_diag_unsafe_in(const char *s, size_t len, size_t *at);
/*
 * s with every unsafe character written as \uXXXX (U+202E as
 * "\u202E") and every byte that is not UTF-8 as \xNN, fit to quote in
 * a message; caller frees.  Every diagnostic's file and message pass
 * through it (crown_diag_add and its kin), so no message carries them
 * raw.
 */
char	*crown_diag_escape(const char *s);

#endif
