/*
 * diag.h: problems found in input files, reported all at once as
 * "FILE:LINE:COLUMN: error: message (R-id)".
 */
#ifndef CROWN_DIAG_H
#define CROWN_DIAG_H

#include <stdio.h>

struct crown_diag {
	char		*file;
	unsigned	 line;		/* 1-based; 0 when the whole file */
	unsigned	 col;		/* 1-based */
	char		*rule;		/* R-id, or NULL */
	char		*msg;
};

struct crown_diags {
	struct crown_diag	*v;
	size_t			 n;
	size_t			 cap;
};

void	crown_diag_add(struct crown_diags *, const char *file, unsigned line,
	    unsigned col, const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
/* One line per problem, in the order found. */
void	crown_diags_print(FILE *, const struct crown_diags *);
/* Format one problem as the line above, without the newline; caller frees. */
char	*crown_diag_format(const struct crown_diag *);
void	crown_diags_release(struct crown_diags *);

#endif
