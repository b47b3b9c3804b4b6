/*
 * play.c: one turn, from the orders' bytes to the files it writes
 * (play.h).  The engine (crown_resolve) is a pure function; this is the
 * shell every command that plays a turn goes through.
 */
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/engine.h"
#include "crown/play.h"
#include "crown/report.h"
#include "crown/yaml.h"

static void	mark(const struct crown_play_input *, const char *);
static void	buf_move(struct crown_buf *, struct crown_buf *);
static void	put(struct crown_outputs *, const char *, const char *,
		    const char *, size_t);
static int	render(struct crown_turn *, const struct crown_play_input *,
		    struct crown_diags *);

static void
mark(const struct crown_play_input *in, const char *step)
{
	if (in->mark != NULL)
		in->mark(in->mark_arg, step);
}

/* Move what *from holds into *to, leaving *from empty. */
static void
buf_move(struct crown_buf *to, struct crown_buf *from)
{
	crown_buf_release(to);
	*to = *from;
	memset(from, 0, sizeof(*from));
}

/* The reports and the map, from the templates, into t. */
static int
render(struct crown_turn *t, const struct crown_play_input *in,
    struct crown_diags *d)
{
	struct crown_report_input	 rin;
	struct crown_outputs		 o = { 0 };
	char				*found = NULL;
	size_t				 i, n = t->after->nsides;
	int				 error;

	memset(&rin, 0, sizeof(rin));
	rin.before = in->before;
	rin.after = t->after;
	rin.events = &t->ev;
	rin.orders = t->orders;
	rin.norders = t->norders;
	rin.rules = in->rules;
	rin.templates = in->templates;
	if (rin.templates == NULL)
		rin.templates = found = crown_templates_find();
	error = crown_report_render(&o, &rin, d);
	free(found);
	if (error != 0)
		goto cleanup;
	/* report.md, report-SIDE.md in the order of the sides, map.svg */
	if (o.n != n + 2) {
		crown_diag_add(d, "crown", 0, 0, NULL, "the reports of turn "
		    "%d are not one for the umpire, one a side and the map",
		    t->turn);
		error = CROWN_ERROR;
		goto cleanup;
	}
	buf_move(&t->umpire, &o.v[0].data);
	t->reports = xcalloc(n ? n : 1, sizeof(*t->reports));
	t->nreports = n;
	for (i = 0; i < n; i++)
		buf_move(&t->reports[i], &o.v[i + 1].data);
	buf_move(&t->map, &o.v[n + 1].data);
cleanup:
	crown_outputs_release(&o);
	return error;
}

int
crown_play_read(struct crown_turn *out, const struct crown_play_input *in,
    struct crown_diags *d)
{
	char	*odir;
	int	 error;

	memset(out, 0, sizeof(*out));
	out->turn = in->before->turn + 1;
	out->step = CROWN_PLAY_READ;
	if ((error = crown_campaign_orders(&out->orders, &out->norders,
	    in->orders, in->before, in->rules, d)) != 0)
		return error;
	/* what the turn commits of each file: its bytes when it is an
	 * orders file as it is, else its orders as one, so that no
	 * password, quotation or signature reaches the history */
	odir = crown_campaign_orders_dir(out->turn);
	error = crown_campaign_orders_kept(&out->orders_text, in->orders,
	    out->orders, out->norders, odir, d);
	free(odir);
	if (error != 0)
		return error;
	/* the dice depend on the orders as accepted, so that nobody knew
	 * them before (dice.c) */
	out->salted = !in->unsalted;
	if (in->salt != NULL)
		memcpy(out->salt, in->salt, sizeof(out->salt));
	else
		crown_campaign_salt(out->salt, out->turn, &out->orders_text,
		    out->orders, out->norders);
	mark(in, "load and check orders");
	return 0;
}

int
crown_play_resolve(struct crown_turn *t, const struct crown_play_input *in,
    struct crown_diags *d)
{
	struct crown_dice	*dice = in->dice, *mine = NULL;
	int			 error;

	t->step = CROWN_PLAY_RESOLVE;
	if ((t->keyed = in->key != NULL))
		memcpy(t->key, in->key, sizeof(t->key));
	if (dice == NULL && (dice = mine = crown_dice_campaign_salted(
	    t->keyed ? t->key : in->secret, t->salted ? t->salt : NULL)) ==
	    NULL) {
		crown_diag_add(d, "crown", 0, 0, NULL, "cannot initialise "
		    "the campaign dice (libsodium)");
		return CROWN_ERROR;
	}
	t->after = crown_state_clone(in->before);
	mark(in, "dice and copy");
	error = crown_resolve(t->after, t->orders, t->norders, in->rules,
	    dice, &t->ev, d);
	crown_dice_free(mine);
	if (error != 0)
		return error;
	if (in->deadline != NULL) {
		free(t->after->deadline);
		t->after->deadline = *in->deadline != '\0' ?
		    xstrdup(in->deadline) : NULL;
	}
	mark(in, "resolve");

	t->step = CROWN_PLAY_EMIT;
	if (crown_state_emit(&t->state_text, t->after) != 0) {
		crown_diag_add(d, CROWN_CAMPAIGN_STATE, 0, 0, NULL,
		    "cannot format the new state");
		return CROWN_ERROR;
	}
	if (crown_events_emit(&t->events_text, &t->ev) != 0) {
		crown_diag_add(d, CROWN_CAMPAIGN_EVENTS, 0, 0, NULL,
		    "cannot format the events");
		return CROWN_ERROR;
	}
	mark(in, "emit state and events");

	t->step = CROWN_PLAY_RENDER;
	if ((error = render(t, in, d)) != 0)
		return error;
	t->headline = crown_campaign_headline(in->before, t->after);
	mark(in, "reports and map");
	t->step = CROWN_PLAY_DONE;
	return 0;
}

int
crown_play(struct crown_turn *out, const struct crown_play_input *in,
    struct crown_diags *d)
{
	int	error;

	if ((error = crown_play_read(out, in, d)) != 0 ||
	    (in->dice == NULL && in->secret == NULL && in->key == NULL))
		return error;
	return crown_play_resolve(out, in, d);
}

void
crown_turn_release(struct crown_turn *t)
{
	size_t	i;

	crown_campaign_orders_free(t->orders, t->norders);
	crown_outputs_release(&t->orders_text);
	crown_state_free(t->after);
	crown_buf_release(&t->state_text);
	crown_events_release(&t->ev);
	crown_buf_release(&t->events_text);
	crown_buf_release(&t->umpire);
	for (i = 0; i < t->nreports; i++)
		crown_buf_release(&t->reports[i]);
	free(t->reports);
	crown_buf_release(&t->map);
	free(t->headline);
	memset(t, 0, sizeof(*t));
}

/* out += dir/name (dir NULL: name) holding a copy of data. */
static void
put(struct crown_outputs *out, const char *dir, const char *name,
    const char *data, size_t len)
{
	char	*path;

	path = dir != NULL ? xasprintf("%s/%s", dir, name) : xstrdup(name);
	crown_buf_add(crown_outputs_add(out, path), data, len);
	free(path);
}

void
crown_play_files(struct crown_outputs *out, const struct crown_turn *t,
    enum crown_play_layout layout)
{
	const struct crown_state	*s = t->after;
	char				*dir = NULL, *odir, *name, *hex;
	size_t				 i;

	if (layout == CROWN_PLAY_COMMIT) {
		/* each side's orders under its own name */
		odir = crown_campaign_orders_dir(t->turn);
		for (i = 0; i < t->norders; i++) {
			name = xasprintf("%s.yaml", t->orders[i]->side);
			put(out, odir, name, t->orders_text.v[i].data.data,
			    t->orders_text.v[i].data.len);
			free(name);
		}
		free(odir);
		put(out, NULL, CROWN_CAMPAIGN_STATE, t->state_text.data,
		    t->state_text.len);
		dir = crown_campaign_turn_dir(t->turn);
		put(out, dir, CROWN_CAMPAIGN_EVENTS, t->events_text.data,
		    t->events_text.len);
		if (t->salted) {
			hex = crown_campaign_secret_hex(t->salt);
			put(out, dir, CROWN_CAMPAIGN_DICE_SALT, hex,
			    strlen(hex));
			free(hex);
		}
		if (t->keyed) {
			hex = crown_campaign_secret_hex(t->key);
			put(out, dir, CROWN_CAMPAIGN_DICE_KEY, hex,
			    strlen(hex));
			free(hex);
		}
	}
	put(out, dir, "report.md", t->umpire.data, t->umpire.len);
	for (i = 0; i < t->nreports; i++) {
		name = xasprintf("report-%s.md", s->sides[i].id);
		put(out, dir, name, t->reports[i].data, t->reports[i].len);
		free(name);
	}
	put(out, dir, CROWN_CAMPAIGN_MAP, t->map.data, t->map.len);
	if (layout == CROWN_PLAY_FLAT) {
		/* all files or none (a full disk): the new state last */
		put(out, NULL, CROWN_CAMPAIGN_EVENTS, t->events_text.data,
		    t->events_text.len);
		put(out, NULL, CROWN_CAMPAIGN_STATE, t->state_text.data,
		    t->state_text.len);
	}
	free(dir);
}

int
crown_play_read_files(struct crown_outputs *files, const char *const *paths,
    size_t n, struct crown_diags *d)
{
	char	*text;
	size_t	 i, len;
	int	 e, error = 0;

	for (i = 0; i < n; i++) {
		e = crown_read_file(&text, &len, paths[i],
		    crown_ylimits_orders.max_bytes, d);
		if (e != 0) {
			if (error == 0 || e == CROWN_ENOTFOUND)
				error = e;
			continue;
		}
		crown_buf_add(crown_outputs_add(files, paths[i]), text, len);
		free(text);
	}
	return error;
}
