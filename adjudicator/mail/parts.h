/*
 * parts.h: the walk of a parsed message's parts (parts.c), for mail.c's
 * crown_mail_parse only; nothing outside mail/ includes it.
 */
#ifndef CROWN_MAIL_PARTS_H
#define CROWN_MAIL_PARTS_H

#include <gmime/gmime.h>

#include "crown/mail.h"

/* Fill m's text, html, yaml, forwarded, ignored and nparts from msg. */
void	crown_mail_walk(struct crown_mail *m, GMimeMessage *msg);

#endif
