/*
 * verify.h: crown verify's replay of a campaign (verify.c): every turn
 * of a line played again from its parent's committed bytes through the
 * one turn function (play.h), one turn after another, and compared with
 * its commit byte for byte.
 */
#ifndef CROWN_VERIFY_H
#define CROWN_VERIFY_H

#include "crown/campaign.h"
#include "crown/diag.h"
#include "crown/history.h"

struct crown_verify_input {
	struct crown_history		*h;
	const struct crown_chain	*chain;	/* the line, main */
	const char			*dir;	/* the campaign */
	/* NULL: .git/crown-secret, or the revealed secret.hex */
	const char			*secret_file;
	const char			*templates; /* NULL: installed */
};

/*
 * Verify the line: "turn N: ok" and the like for each commit on
 * standard output, up to the first that differs, and a last line that
 * sums up; warnings about tags on standard error; problems of the files
 * to d.  0 when everything it could check is sound (*other: how many
 * turns of another format it could not replay); CROWN_EINVALID when the
 * campaign differs or the secret file holds no secret; CROWN_ENOTFOUND
 * when the secret file given cannot be read; CROWN_ERROR.
 */
int	crown_campaign_verify(int *other, const struct crown_verify_input *,
	    struct crown_diags *d);

#endif
