/*
 * svgread.h: what a test needs to know of a drawn map.svg (header-only):
 * every text with the box it takes, every unit's group with the stands
 * drawn in it, the fire lines and the table's rectangle.
 *
 * The box of a text is estimated, as crown's layout estimates it: each
 * character (code point) is SVGREAD_CHAR_EM of the font size wide, the
 * same for every glyph (DejaVu Sans averages about 0.55 em for mixed
 * text), and the line runs from 0.8 of the font size above the baseline
 * to 0.2 below.  The font size is the text's font-size attribute, else
 * that of the CSS rule `.CLASS { font-size: N }` of its first class in
 * the <style>, else the root's; its text-anchor its own or that of the
 * nearest enclosing group.  Translations of enclosing groups are added.
 * A text with markup inside is refused.  Fire lines are the <line
 * class="fire ..."> inside <g class="fire-lines">.  And a small XML
 * checker (svgread_xml_check), for the map must be well-formed.
 */
#ifndef CROWN_SVGREAD_H
#define CROWN_SVGREAD_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/svg.h"
#include "crown/xalloc.h"

#define SVGREAD_CHAR_EM	CROWN_SVG_CHAR_EM

struct svgread_text {
	double	 x0, y0, x1, y1;	/* the estimated box */
	char	*text;
};

struct svgread_unit {
	char	*id;			/* "u-ID" of <g class="unit ..."> */
	int	 stands;		/* shapes of class "stand" inside */
};

struct svgread_line {
	double	x1, y1, x2, y2;
};

struct svgread {
	struct svgread_text	*texts;
	size_t			 ntexts, captexts;
	struct svgread_unit	*units;
	size_t			 nunits, capunits;
	struct svgread_line	*fire;
	size_t			 nfire, capfire;
	double			 table_x, table_y, table_w, table_h;
	const char		*error;		/* why it could not be read */
};

struct svgread_css {
	char	name[64];
	double	size;
};

static inline char *
svgread_attr(const char *tag, const char *end, const char *name)
{
	size_t		 n = strlen(name);
	const char	*p, *q;

	for (p = tag; p != NULL && p + n + 2 < end; p++) {
		p = strstr(p, name);
		if (p == NULL || p + n + 2 >= end)
			return NULL;
		if ((p[-1] == ' ' || p[-1] == '\n') && p[n] == '=' &&
		    p[n + 1] == '"') {
			q = strchr(p + n + 2, '"');
			if (q == NULL || q > end)
				return NULL;
			return xstrndup(p + n + 2, (size_t)(q - p - n - 2));
		}
	}
	return NULL;
}

static inline double
svgread_num(const char *tag, const char *end, const char *name, double def)
{
	char	*v = svgread_attr(tag, end, name);
	double	 d = def;

	if (v != NULL) {
		d = strtod(v, NULL);
		free(v);
	}
	return d;
}

/* class="a b c" has the token want. */
static inline bool
svgread_has_class(const char *cls, const char *want)
{
	size_t		 n = strlen(want);
	const char	*p;

	for (p = cls; p != NULL && (p = strstr(p, want)) != NULL; p += n)
		if ((p == cls || p[-1] == ' ') && (p[n] == '\0' ||
		    p[n] == ' '))
			return true;
	return false;
}

/* Code points of XML text, entities counted as one. */
static inline char *
svgread_unescape(const char *s, size_t len)
{
	struct crown_buf	b = { 0 };
	const char		*e;
	size_t			 i;

	crown_buf_puts(&b, "");
	for (i = 0; i < len; i++) {
		if (s[i] == '&' && (e = memchr(s + i, ';', len - i)) != NULL) {
			if (strncmp(s + i, "&amp;", 5) == 0)
				crown_buf_puts(&b, "&");
			else if (strncmp(s + i, "&lt;", 4) == 0)
				crown_buf_puts(&b, "<");
			else if (strncmp(s + i, "&gt;", 4) == 0)
				crown_buf_puts(&b, ">");
			else
				crown_buf_puts(&b, "?");
			i = (size_t)(e - s);
			continue;
		}
		crown_buf_add(&b, s + i, 1);
	}
	return b.data;
}

static inline size_t
svgread_chars(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* The .CLASS { font-size: N } rules of a <style>. */
static inline size_t
svgread_css(struct svgread_css *v, size_t max, const char *s,
    const char *end)
{
	const char	*open, *close, *sel, *fs;
	size_t		 n = 0, len;

	for (sel = s; n < max && (open = strchr(sel, '{')) != NULL &&
	    open < end; sel = close + 1) {
		if ((close = strchr(open, '}')) == NULL)
			break;
		while (sel < open && strchr(" \n\t", *sel) != NULL)
			sel++;
		len = (size_t)(open - sel);
		while (len > 0 && strchr(" \n\t", sel[len - 1]) != NULL)
			len--;
		if (*sel != '.' || len < 2 || len >= sizeof(v[n].name) ||
		    memchr(sel, ' ', len) != NULL ||
		    memchr(sel, ',', len) != NULL)
			continue;
		fs = strstr(open, "font-size:");
		if (fs == NULL || fs > close)
			continue;
		memcpy(v[n].name, sel + 1, len - 1);
		v[n].name[len - 1] = '\0';
		v[n++].size = strtod(fs + 10, NULL);
	}
	return n;
}

/* Read svg into r; false with r->error set when it cannot be. */
static inline bool
svgread_parse(struct svgread *r, const char *svg)
{
	struct svgread_css	 css[64];
	double			 gx[64], gy[64], root = 16, size, w, x;
	int			 ga[64], a;
	const char		*p, *end, *close;
	char			*cls, *tr, *id, *anchor, *text;
	size_t			 ncss = 0, depth = 0, unit_depth = 0, i;
	size_t			 fire_depth = 0;
	bool			 in_unit = false, in_fire = false;

	memset(r, 0, sizeof(*r));
	gx[0] = gy[0] = 0;
	ga[0] = 0;
	for (p = svg; (p = strchr(p, '<')) != NULL; p = end + 1) {
		if (strncmp(p, "<!--", 4) == 0) {
			if ((end = strstr(p, "-->")) == NULL)
				break;
			end += 2;
			continue;
		}
		if ((end = strchr(p, '>')) == NULL)
			break;
		if (strncmp(p, "</g>", 4) == 0) {
			if (depth == 0) {
				r->error = "</g> without <g>";
				return false;
			}
			if (in_unit && depth == unit_depth)
				in_unit = false;
			if (in_fire && depth == fire_depth)
				in_fire = false;
			depth--;
			continue;
		}
		if (p[1] == '/' || p[1] == '?' || p[1] == '!')
			continue;
		cls = svgread_attr(p, end, "class");
		if (strncmp(p, "<svg ", 5) == 0)
			root = svgread_num(p, end, "font-size", root);
		else if (strncmp(p, "<style", 6) == 0) {
			close = strstr(end, "</style>");
			if (close != NULL)
				ncss = svgread_css(css, CROWN_NELEM(css), end,
				    close);
		} else if (strncmp(p, "<g", 2) == 0 && (p[2] == ' ' ||
		    p[2] == '>') && end[-1] != '/') {
			if (depth + 1 >= CROWN_NELEM(gx)) {
				r->error = "groups nest too deep";
				free(cls);
				return false;
			}
			gx[depth + 1] = gx[depth];
			gy[depth + 1] = gy[depth];
			ga[depth + 1] = ga[depth];
			if ((anchor = svgread_attr(p, end, "text-anchor")) !=
			    NULL) {
				ga[depth + 1] = strcmp(anchor, "middle") == 0 ?
				    1 : strcmp(anchor, "end") == 0 ? 2 : 0;
				free(anchor);
			}
			if ((tr = svgread_attr(p, end, "transform")) != NULL) {
				char *q;

				if (strncmp(tr, "translate(", 10) == 0) {
					gx[depth + 1] += strtod(tr + 10, &q);
					while (*q == ',' || *q == ' ')
						q++;
					gy[depth + 1] += strtod(q, NULL);
				}
				free(tr);
			}
			depth++;
			if (cls != NULL && strcmp(cls, "fire-lines") == 0) {
				in_fire = true;
				fire_depth = depth;
			}
			if (cls != NULL && svgread_has_class(cls, "unit") &&
			    (id = svgread_attr(p, end, "id")) != NULL) {
				crown_grow(&r->units, &r->capunits,
				    r->nunits + 1, sizeof(*r->units));
				r->units[r->nunits].id = id;
				r->units[r->nunits++].stands = 0;
				in_unit = true;
				unit_depth = depth;
			}
		} else if (strncmp(p, "<text", 5) == 0 && (p[5] == ' ' ||
		    p[5] == '>')) {
			close = strstr(end, "</text>");
			if (close == NULL || memchr(end + 1, '<',
			    (size_t)(close - end - 1)) != NULL) {
				r->error = "a text with markup inside";
				free(cls);
				return false;
			}
			size = svgread_num(p, end, "font-size", -1);
			for (i = 0; size < 0 && cls != NULL && i < ncss; i++) {
				char *sp = strchr(cls, ' ');
				size_t n = sp != NULL ? (size_t)(sp - cls) :
				    strlen(cls);

				if (strlen(css[i].name) == n &&
				    strncmp(css[i].name, cls, n) == 0)
					size = css[i].size;
			}
			if (size < 0)
				size = root;
			text = svgread_unescape(end + 1,
			    (size_t)(close - end - 1));
			w = (double)svgread_chars(text) * size *
			    SVGREAD_CHAR_EM;
			x = svgread_num(p, end, "x", 0) + gx[depth];
			a = ga[depth];
			if ((anchor = svgread_attr(p, end, "text-anchor")) !=
			    NULL) {
				a = strcmp(anchor, "middle") == 0 ? 1 :
				    strcmp(anchor, "end") == 0 ? 2 : 0;
				free(anchor);
			}
			x -= a == 1 ? w / 2 : a == 2 ? w : 0;
			crown_grow(&r->texts, &r->captexts, r->ntexts + 1,
			    sizeof(*r->texts));
			r->texts[r->ntexts].x0 = x;
			r->texts[r->ntexts].x1 = x + w;
			r->texts[r->ntexts].y0 = svgread_num(p, end, "y", 0) +
			    svgread_num(p, end, "dy", 0) + gy[depth] -
			    0.8 * size;
			r->texts[r->ntexts].y1 = r->texts[r->ntexts].y0 + size;
			r->texts[r->ntexts++].text = text;
			end = close + 6;
		} else if (strncmp(p, "<line", 5) == 0 && in_fire &&
		    cls != NULL && svgread_has_class(cls, "fire")) {
			crown_grow(&r->fire, &r->capfire, r->nfire + 1,
			    sizeof(*r->fire));
			r->fire[r->nfire].x1 = svgread_num(p, end, "x1", 0) +
			    gx[depth];
			r->fire[r->nfire].y1 = svgread_num(p, end, "y1", 0) +
			    gy[depth];
			r->fire[r->nfire].x2 = svgread_num(p, end, "x2", 0) +
			    gx[depth];
			r->fire[r->nfire++].y2 = svgread_num(p, end, "y2", 0) +
			    gy[depth];
		} else if (strncmp(p, "<rect", 5) == 0 && cls != NULL &&
		    strcmp(cls, "table") == 0) {
			r->table_x = svgread_num(p, end, "x", 0);
			r->table_y = svgread_num(p, end, "y", 0);
			r->table_w = svgread_num(p, end, "width", 0);
			r->table_h = svgread_num(p, end, "height", 0);
		}
		if (in_unit && cls != NULL &&
		    svgread_has_class(cls, "stand") && strncmp(p, "<g", 2) != 0)
			r->units[r->nunits - 1].stands++;
		free(cls);
	}
	return true;
}

/* Texts a and b overlap by more than half a pixel each way. */
static inline bool
svgread_overlap(const struct svgread_text *a, const struct svgread_text *b)
{
	double	w, h;

	w = (a->x1 < b->x1 ? a->x1 : b->x1) - (a->x0 > b->x0 ? a->x0 : b->x0);
	h = (a->y1 < b->y1 ? a->y1 : b->y1) - (a->y0 > b->y0 ? a->y0 : b->y0);
	return w > 0.5 && h > 0.5;
}

static inline void
svgread_release(struct svgread *r)
{
	size_t	i;

	for (i = 0; i < r->ntexts; i++)
		free(r->texts[i].text);
	for (i = 0; i < r->nunits; i++)
		free(r->units[i].id);
	free(r->texts);
	free(r->units);
	free(r->fire);
	memset(r, 0, sizeof(*r));
}

/*
 * A small XML checker: one root element, balanced tags, quoted
 * attributes, only the five entities and character references.  Returns
 * NULL or what is wrong (static).
 */
static inline const char *
svgread_xml_check(const char *s)
{
	static char	 msg[128];
	const char	*stack[64], *p = s, *q;
	size_t		 lens[64], depth = 0, n;
	int		 roots = 0;

	if (strncmp(p, "<?xml ", 6) == 0 && (p = strstr(p, "?>")) != NULL)
		p += 2;
	if (p == NULL)
		return "bad XML declaration";
	while (*p != '\0') {
		if (*p == '&') {
			if (strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) &&
			    strncmp(p, "&gt;", 4) && strncmp(p, "&quot;", 6) &&
			    strncmp(p, "&apos;", 6) && strncmp(p, "&#", 2))
				return "a bare '&'";
			p++;
			continue;
		}
		if (*p == '>')
			return "a bare '>' in text";
		if (*p != '<') {
			if (depth == 0 && !strchr(" \t\r\n", *p))
				return "text outside the root element";
			p++;
			continue;
		}
		if (strncmp(p, "<!--", 4) == 0) {
			if ((p = strstr(p, "-->")) == NULL)
				return "unclosed comment";
			p += 3;
			continue;
		}
		if (p[1] == '/') {
			q = p + 2;
			n = strcspn(q, " \t\r\n>");
			if (depth == 0 || n != lens[depth - 1] ||
			    strncmp(q, stack[depth - 1], n) != 0) {
				snprintf(msg, sizeof(msg), "</%.*s> closes "
				    "nothing open", (int)n, q);
				return msg;
			}
			depth--;
			if ((p = strchr(q, '>')) == NULL)
				return "unclosed end tag";
			p++;
			continue;
		}
		q = p + 1;
		n = strcspn(q, " \t\r\n/>");
		if (n == 0)
			return "a tag without a name";
		p = q + n;
		/* attributes: name="value" */
		for (;;) {
			while (*p == ' ' || *p == '\n' || *p == '\t')
				p++;
			if (*p == '>' || strncmp(p, "/>", 2) == 0)
				break;
			p += strcspn(p, "= \t\n>");
			if (*p != '=' || p[1] != '"')
				return "an attribute without a quoted value";
			p += 2;
			for (; *p != '"'; p++) {
				if (*p == '\0' || *p == '<')
					return "a '<' or the end in a value";
				if (*p == '&' && strncmp(p, "&amp;", 5) &&
				    strncmp(p, "&lt;", 4) &&
				    strncmp(p, "&gt;", 4) &&
				    strncmp(p, "&quot;", 6) &&
				    strncmp(p, "&apos;", 6) &&
				    strncmp(p, "&#", 2))
					return "a bare '&' in a value";
			}
			p++;
		}
		if (depth == 0 && roots++ > 0)
			return "more than one root element";
		if (*p == '>') {
			if (depth == CROWN_NELEM(stack))
				return "too deep";
			stack[depth] = q;
			lens[depth++] = n;
			p++;
		} else
			p += 2;
	}
	if (depth != 0)
		return "unclosed elements at the end";
	return roots == 1 ? NULL : "no root element";
}

#endif
