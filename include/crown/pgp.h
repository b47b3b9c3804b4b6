/*
 * pgp.h: OpenPGP signatures on players' mail (issue 19): PGP/MIME
 * (RFC 3156) read through GMime's multipart/signed and GPGME, against a
 * keyring of the players' public keys inside the campaign's .git
 * (crown_roster_keyring).  Inline PGP ("-----BEGIN PGP SIGNED
 * MESSAGE-----" in a text body) is not read: such mail is unsigned here.
 *
 * A key just imported into a keyring is not trusted by it, so GPGME
 * reports a good signature without its VALID or GREEN bits: a signature
 * is judged by its error bits and the signer's fingerprint, never by
 * trust, which the roster gives instead.
 */
#ifndef CROWN_PGP_H
#define CROWN_PGP_H

#include <stddef.h>

#include "crown/diag.h"
#include "crown/mail.h"

/*
 * Import the public key of fingerprint fpr (40 hex digits) from the
 * key file path into the keyring at GnuPG home home.  0; CROWN_EINVALID
 * with a diagnostic when the file holds no such key; CROWN_ERROR when
 * GnuPG cannot be run.
 */
int	crown_pgp_import(const char *home, const char *fpr, const char *path,
	    struct crown_diags *d);

/*
 * What names one signature, whatever the headers of the mail around it
 * or the encoding of the signature: the SHA-256 of the signer's
 * fingerprint, the signature's creation time (inside what is signed)
 * and the signed part with its line ends dropped.  Re-sending a signed
 * mail with new headers, a re-armoured signature or other line ends
 * gives the same key; new orders, or the same signed again a second
 * later, another.
 */
struct crown_pgp_sig {
	char		 key[CROWN_SHA256_HEX];
	long long	 created;	/* seconds of the epoch, GPGME's */
};

/*
 * Is the message of len bytes PGP/MIME, signed by the key fpr of the
 * keyring home, over the whole of its body?  0 when it is, and *sig
 * (may be NULL) names the signature; otherwise CROWN_EINVALID and *why
 * (caller frees) says what is wrong, fit to send to the player.
 */
int	crown_pgp_verify(char **why, struct crown_pgp_sig *sig,
	    const char *home, const char *fpr, const char *data, size_t len);

#endif
