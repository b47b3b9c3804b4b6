/*
 * pack.h: the campaign's loose git objects into a pack, as git's
 * `gc --auto' does: each writing command, once its commit is made,
 * packs the loose objects when there are more than a threshold of them.
 *
 * A turn adds about 15 loose objects (the commit, its trees, the new
 * state, events, reports, map and orders: about 96 KiB, each file
 * compressed alone).  git's threshold, 6,700 loose objects, suits a
 * repository that many people commit to; here it would be 450 turns,
 * more than a campaign lasts.  CROWN_PACK_LOOSE, 256, packs every 17
 * turns or so: the new pack stores each turn's files as deltas of the
 * turn before, and the work is a few turns' worth of objects, never the
 * whole history.
 *
 * Crash-safe: the pack and its index are written and synced (with the
 * directory that holds them) before any loose object goes, and a loose
 * object goes only when the new pack's index holds it.  A kill at any
 * moment leaves every object readable, loose or packed or both.
 */
#ifndef CROWN_PACK_H
#define CROWN_PACK_H

#include <stddef.h>

#include "crown/diag.h"
#include "crown/history.h"

#define CROWN_PACK_LOOSE	256

/*
 * Pack h's loose objects when there are more than the threshold, then
 * remove those the pack holds.  *out (may be NULL) the objects packed,
 * 0 when there were too few.  CROWN_EWRITE when the pack cannot be
 * written, with a warning in d: nothing is lost, the loose objects
 * stay.
 */
int	crown_pack_auto(size_t *out, struct crown_history *h,
	    struct crown_diags *d);

/*
 * For the tests: the threshold (CROWN_PACK_LOOSE by default); and
 * _exit(9) at step n of the next packing (1: the pack written, not yet
 * synced; 2: synced, no loose object removed; 3: half of them removed),
 * 0 for none.
 */
void	crown_pack_threshold(size_t n);
void	crown_pack_kill_at(int step);

#endif
