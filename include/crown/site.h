/*
 * site.h: the campaign as a static web site (crown site): an index of the
 * turns with a chart of each side's strength, a page per turn (its map,
 * its reports as HTML, its orders and, for the umpire, its events.yaml)
 * and a page per unit (its story, story.h).  Everything comes from the
 * commits of a line of play, so a player's clone makes the same site;
 * nothing refers outside the site, so it works from file:// too.
 *
 * Incremental: OUT/.crown-site, the manifest, records for each page the
 * key of what it was made from (the commits it shows), and for each turn
 * the index's figures; a run writes only the pages whose key changed or
 * whose file is missing, then the manifest, and reads only what those
 * pages need (a run with nothing new reads no turn's state).  A change
 * of templates, of crown's version or of
 * the side the site is for changes every key.  Each page is written to a
 * temporary file and renamed into place, so a failure leaves each page
 * whole, old or new; the manifest comes last, so the next run makes
 * again whatever this one did not finish.
 */
#ifndef CROWN_SITE_H
#define CROWN_SITE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/campaign.h"
#include "crown/diag.h"
#include "crown/history.h"
#include "crown/state.h"

#define CROWN_SITE_MANIFEST	".crown-site"

/* The page templates, in the templates directory beside the reports'. */
#define CROWN_SITE_TEMPLATES	"site-index.html", "site-turn.html", \
				"site-unit.html"

struct crown_site_input {
	struct crown_history		*h;
	const struct crown_chain	*chain;
	const struct crown_state	*start;		/* turn 0's */
	const char			*out;		/* the directory */
	const char			*side;		/* NULL: the umpire's */
	const char			*templates;	/* directory */
	const char			*victory;	/* of the briefing, or
							 * NULL */
};

struct crown_site_stats {
	size_t	pages;		/* the site's pages (and files) */
	size_t	written;	/* written by this run */
	size_t	removed;	/* of an earlier run, no longer the site's */
};

/*
 * Write or bring up to date the site of in->chain in in->out (made if
 * absent; a directory that holds anything but an earlier site is
 * refused, CROWN_EWRITE, so that nothing of anyone's is overwritten).
 * CROWN_EINVALID for an unknown side, broken templates or a commit whose
 * files do not parse; CROWN_ENOTFOUND for missing templates; CROWN_EWRITE
 * when OUT cannot be written.  Problems in d.
 */
int	crown_site_write(struct crown_site_stats *out,
	    const struct crown_site_input *in, struct crown_diags *d);

/*
 * Is the site in in->out that of in->chain as it stands: made by this
 * crown, from these templates, for this side, of this line turn for
 * turn, with every page there?  Then a run has nothing to write, and
 * *out counts the pages.  Reads no commit, and not in->start (which may
 * be NULL); false for anything else, or anything that cannot be read.
 */
bool	crown_site_current(struct crown_site_stats *out,
	    const struct crown_site_input *in);

#endif
