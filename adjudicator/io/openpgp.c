/*
 * openpgp.c: the GPGME calls the players' mail and the umpire's history
 * share (openpgp.h).
 */
#include <stdbool.h>
#include <strings.h>

#include <gpgme.h>

#include "crown/openpgp.h"

bool
crown_openpgp_is_key(gpgme_ctx_t ctx, const char *sig, const char *fpr)
{
	gpgme_key_t	key = NULL;
	bool		ok = false;

	if (strcasecmp(sig, fpr) == 0)
		return true;
	if (ctx != NULL && gpgme_get_key(ctx, sig, &key, 0) ==
	    GPG_ERR_NO_ERROR && key != NULL) {
		ok = key->subkeys != NULL && key->subkeys->fpr != NULL &&
		    strcasecmp(key->subkeys->fpr, fpr) == 0;
		gpgme_key_unref(key);
	}
	return ok;
}
