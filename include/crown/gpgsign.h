/*
 * gpgsign.h: the campaign's history signed with the umpire's OpenPGP key
 * (history/gpgsign.c, FORMATS.md "crown new --sign"): the key comes from
 * the umpire's own keyring (GNUPGHOME, else ~/.gnupg) through GPGME and
 * its agent, never from the campaign; the players' keys of crown inbox
 * are another keyring (crown_roster_keyring).  crown_stamp's sign names
 * the key a commit or a tag is signed with.
 */
#ifndef CROWN_GPGSIGN_H
#define CROWN_GPGSIGN_H

#include "crown/diag.h"
#include "crown/history.h"

#define CROWN_FPR_HEX	40

/*
 * A fingerprint as given ("0123 4567 ...", either case) into out
 * (CROWN_FPR_HEX + 1 bytes) as the 40 upper-case hex digits
 * game.umpire.openpgp keeps: 0, or -1 when it is not one.
 */
int	crown_gpgsign_fingerprint(char *out, const char *in);

/*
 * Can the key fpr sign in the umpire's keyring?  0, or
 * CROWN_EUNAVAILABLE with a diagnostic at what (the option) saying why.
 */
int	crown_gpgsign_usable(const char *fpr, const char *what,
	    struct crown_diags *d);

/*
 * Is the commit id, or the tag refs/tags/name, signed by the key fpr (or
 * one of its subkeys), as git verify-commit and git verify-tag see it?
 * 0; CROWN_ENOTFOUND when it carries no signature (a lightweight tag
 * neither); CROWN_EINVALID when it is signed otherwise (*why says how);
 * CROWN_EUNAVAILABLE when the key fpr is not in the reader's keyring
 * (*why says so); CROWN_ERROR or CROWN_EMISSING when it cannot be read.
 * The caller frees *why.
 */
int	crown_history_commit_signed(char **why, struct crown_history *,
	    const char *id, const char *fpr);
int	crown_history_tag_signed(char **why, struct crown_history *,
	    const char *name, const char *fpr);

#endif
