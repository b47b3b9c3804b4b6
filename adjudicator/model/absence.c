/*
 * absence.c: who is away, and when a side is in civil disorder
 * (absence.h).  The facts are the state's; the history's share, the
 * turns a side missed, is history/attendance.c's.
 */
#include "crown/absence.h"
#include "crown/calendar.h"

bool
crown_side_away(const struct crown_side *sd, long long now,
    long long *until)
{
	long long	t, first = 0;
	size_t		j;

	if (sd->nplayers == 0)
		return false;
	for (j = 0; j < sd->nplayers; j++) {
		if (sd->players[j].away_until == NULL ||
		    crown_cal_parse_time(&t, sd->players[j].away_until) != 0 ||
		    t <= now)
			return false;
		if (j == 0 || t < first)
			first = t;
	}
	if (until != NULL)
		*until = first;
	return true;
}

long long
crown_state_max_absence(const struct crown_state *s)
{
	long long	span;

	if (s->max_absence != NULL &&
	    crown_cal_duration_parse(&span, s->max_absence) == 0)
		return span;
	(void)crown_cal_duration_parse(&span, CROWN_MAX_ABSENCE_DEFAULT);
	return span;
}

bool
crown_state_disorder(const struct crown_state *s, int missed)
{
	return s->missed_limit > 0 && missed >= s->missed_limit;
}
