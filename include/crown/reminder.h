/*
 * reminder.h: the reminder mail of crown remind (mail/reminder.c), to a
 * player of a side whose orders for the next turn are not in.
 */
#ifndef CROWN_REMINDER_H
#define CROWN_REMINDER_H

#include <stddef.h>

#include "crown/diag.h"
#include "crown/outputs.h"
#include "crown/roster.h"
#include "crown/rules.h"
#include "crown/state.h"

/*
 * The reminder to the player at addr of side sd of s (whose deadline,
 * game.deadline, is span seconds after now), who proves to be the player
 * by proof (crown_roster_required): added to mails under its Maildir
 * name, From the umpire, dated now, with the side's orders form for the
 * next turn (rules: NULL, none) and the public state attached; *sent
 * counts it.  0 or CROWN_ERROR; problems to d.
 */
int	crown_mail_reminder(struct crown_outputs *mails,
	    const struct crown_state *s, const struct crown_rules *rules,
	    const struct crown_side *sd, const char *addr,
	    enum crown_proof proof, long long now, long long span,
	    size_t *sent, struct crown_diags *d);

#endif
