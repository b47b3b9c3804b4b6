/*
 * rulebook.h: the reference of the rules crown plays by (crown rules):
 * every table and number of a loaded rules file under its rule id, with
 * the rules' titles from rules/index.yaml when it is installed.
 */
#ifndef CROWN_RULEBOOK_H
#define CROWN_RULEBOOK_H

#include <stdbool.h>
#include <stdio.h>

#include "crown/rules.h"

/* Print the rule tables of rules onto fp, as aligned text or, with
 * markdown, as Markdown ready for a players' handbook. */
void	crown_rulebook_print(FILE *fp, const struct crown_rules *rules,
	    bool markdown);

#endif
