/*
 * openpgp.h: what the two users of GPGME share (io/openpgp.c): the
 * players' signed mail (mail/pgp.c, the campaign's keyring) and the
 * umpire's signed history (history/gpgsign.c, the umpire's keyring).
 */
#ifndef CROWN_OPENPGP_H
#define CROWN_OPENPGP_H

#include <stdbool.h>

#include <gpgme.h>

/*
 * Is the key that made a signature, fingerprint sig (a primary key's or a
 * subkey's), the key fpr, as the keyring of ctx knows it?
 */
bool	crown_openpgp_is_key(gpgme_ctx_t ctx, const char *sig,
	    const char *fpr);

#endif
