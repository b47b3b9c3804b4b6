/*
 * test-site.c: crown site (issue 22) on campaigns made under mkdtemp
 * directories, run in-process: the pages and what they hold, a side's
 * site, names escaped, the incremental run against a full one, and the
 * refusals, a disk that fills up; a unit's strength from its own part of
 * the state (story.h); and the HTML pieces (html.h): cmark's
 * safe rendering, the units linked, maps refused that could reach
 * outside.
 *
 * This program defines write() over the C library's (testdisk.h): a
 * write to a file fails with ENOSPC once disk_left bytes are written
 * (when it is not negative).
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>

#include "testdisk.h"
#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/html.h"
#include "crown/site.h"
#include "crown/state.h"
#include "crown/story.h"
#include "crown/xalloc.h"

#define DATA	"tests/data/campaign"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	DATA "/secret.hex"
#define EVIL	"<script>alert(1)</script> & \"x\""

static char	base[] = "/tmp/crown-site-XXXXXX";
static void
assert_lacks(const char *text, const char *what, const char *where)
{
	if (text != NULL && strstr(text, what) != NULL) {
		print_error("\"%s\" in %s\n", what, where);
		fail();
	}
}

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

static char *
page(const char *out, const char *name)
{
	char	*p = xasprintf("%s/%s", out, name), *text = tu_slurp(p);

	if (text == NULL) {
		print_error("no page %s\n", p);
		free(p);
		fail();
	}
	free(p);
	return text;
}

static bool
exists(const char *out, const char *name)
{
	char	*p = xasprintf("%s/%s", out, name);
	bool	 ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

static void
write_file(const char *name, const char *text)
{
	char	*p = path(name);
	FILE	*fp = fopen(p, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	free(p);
}

/* The scenario, with unit 2-militia named `name'. */
static char *
scenario(const char *name)
{
	char	*text = tu_slurp(SCEN), *p, *out, *file = path("scen.yaml");
	FILE	*fp;

	assert_non_null(text);
	p = strstr(text, "name: Militia of Veracruz");
	assert_non_null(p);
	*p = '\0';
	out = xasprintf("%sname: '%s'%s", text, name,
	    p + strlen("name: Militia of Veracruz"));
	assert_non_null(fp = fopen(file, "w"));
	fputs(out, fp);
	assert_int_equal(fclose(fp), 0);
	free(out);
	free(text);
	return file;
}

/* A campaign at dir with turns 1 and (when two) 2 played. */
static void
campaign(const char *dir, const char *scen, bool two)
{
	TU_CAMPAIGN(dir, scen, two);
}

/* The names of the files under dir (recursively, sorted), one a line. */
static void
list_files(struct crown_buf *b, const char *dir, const char *rel)
{
	struct dirent	**ents;
	struct stat	  st;
	char		 *p, *r;
	int		  n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' ||
		    strcmp(ents[i]->d_name, CROWN_SITE_MANIFEST) == 0) {
			p = xasprintf("%s/%s", dir, ents[i]->d_name);
			r = xasprintf("%s%s", rel, ents[i]->d_name);
			if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
				free(r);
				r = xasprintf("%s%s/", rel, ents[i]->d_name);
				list_files(b, p, r);
			} else
				crown_buf_printf(b, "%s\n", r);
			free(p);
			free(r);
		}
		free(ents[i]);
	}
	free(ents);
}

/* Is p inside a tag (after a '<' with no '>' between)?  Text holds
 * its '<' as "&lt;". */
static bool
in_tag(const char *text, const char *p)
{
	while (p > text && *p != '<' && *p != '>')
		p--;
	return *p == '<';
}

/*
 * The references of a page (src, href, xlink:href, url(), srcset) are to
 * files inside the site: relative, with no scheme, resolved from the
 * page's folder (depth folders below OUT) without leaving OUT.
 */
static void
refs_inside(const char *text, const char *name, int depth)
{
	static const char *const attrs[] = { " src=", " href=",
	    ":href=", "url(", " srcset=", " action=", " poster=",
	    " data=", NULL };
	const char	*p, *v, *e, *seg;
	char		 q, stop[4] = "", *val;
	size_t		 i;
	int		 d;

	for (i = 0; attrs[i] != NULL; i++)
		for (p = text; (p = strstr(p, attrs[i])) != NULL; p = e) {
			v = p + strlen(attrs[i]);
			e = v;
			if (!in_tag(text, p))
				continue;
			q = *v == '"' || *v == '\'' ? *v++ : 0;
			stop[0] = q != 0 ? q : ')';
			stop[1] = q != 0 ? '\0' : ' ';
			stop[2] = q != 0 ? '\0' : '>';
			e = v + strcspn(v, stop);
			val = xstrndup(v, (size_t)(e - v));
			if (val[0] != '#' && (strchr(val, ':') != NULL ||
			    val[0] == '/' || val[0] == '\0')) {
				print_error("%s refers outside the site: "
				    "%s%s\n", name, attrs[i], val);
				fail();
			}
			for (d = depth, seg = val; strncmp(seg, "../", 3) ==
			    0; seg += 3)
				if (--d < 0) {
					print_error("%s refers above the "
					    "site: %s\n", name, val);
					fail();
				}
			if (strstr(seg, "/../") != NULL) {
				print_error("%s: a path through ..: %s\n",
				    name, val);
				fail();
			}
			free(val);
		}
}

/* No page (.html) of the site at out holds any of the strings of bad,
 * and each refers only to files inside the site. */
static void
pages_lack(const char *out, const char *const *bad)
{
	struct crown_buf	 files = { 0 };
	char			*text, *line, *next;
	const char		*c;
	size_t			 i;
	int			 depth;

	crown_buf_puts(&files, "");
	list_files(&files, out, "");
	for (line = files.data; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		if (strstr(line, ".html") == NULL)
			continue;
		text = page(out, line);
		for (i = 0; bad[i] != NULL; i++)
			assert_lacks(text, bad[i], line);
		for (depth = 0, c = line; (c = strchr(c, '/')) != NULL; c++)
			depth++;
		refs_inside(text, line, depth);
		free(text);
	}
	crown_buf_release(&files);
}

static void
test_site_pages(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *text;

	campaign(dir, SCEN, true);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "written");
	run_release(&r);
	/* the index: name, sides, a row per turn linking its page, the
	 * losses, the chart */
	text = page(out, "index.html");
	assert_has(text, "<!DOCTYPE html>");
	assert_has(text, "<h1>Test Campaign</h1>");
	assert_has(text, "Foreign Legion");
	assert_has(text, "Mexican Republic");
	assert_has(text, "<a href=\"turn-000.html\">Turn 0</a>");
	assert_has(text, "<a href=\"turn-002.html\">Turn 2</a>");
	assert_has(text, "<td>2026-03-08</td>");
	assert_has(text, "<svg class=\"chart\"");
	assert_has(text, "<polyline class=\"c-0\" points=\"");
	assert_has(text, "<a href=\"units/2-militia.html\">Militia of "
	    "Veracruz</a>");
	assert_lacks(text, "<script", "index.html");
	free(text);
	/* a turn: map inline with its units linked, reports, orders,
	 * events.yaml, the turns around it */
	text = page(out, "turn-001.html");
	assert_has(text, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	assert_lacks(text, "<?xml", "turn-001.html");
	assert_has(text, "<a href=\"units/1-legion.html\"><g class=\"unit ");
	assert_has(text, "The umpire&apos;s report");
	assert_has(text, "Dispatch to Foreign Legion");
	assert_has(text, "Dispatch to Mexican Republic");
	assert_has(text, "<table>");	/* the strength table, by cmark */
	assert_has(text, "<a href=\"units/2-militia.html\">Militia of "
	    "Veracruz</a>");
	assert_has(text, "orders/turn-001/french.yaml");
	assert_has(text, "orders/turn-001/republic.yaml");
	assert_has(text, "<a href=\"turn-001-events.yaml\">");
	assert_has(text, "<a href=\"turn-000.html\">");
	assert_has(text, "<a href=\"turn-002.html\">");
	free(text);
	text = page(out, "turn-001-events.yaml");
	assert_has(text, "kind: ");
	free(text);
	text = page(out, "turn-002.html");
	assert_lacks(text, "turn-003.html", "turn-002.html");
	free(text);
	/* turn 0: the briefing */
	text = page(out, "turn-000.html");
	assert_has(text, "The briefing");
	free(text);
	/* a unit: its story as crown blame tells it */
	text = page(out, "units/2-militia.html");
	assert_has(text, "<h1>Militia of Veracruz</h1>");
	assert_has(text, "<a href=\"../turn-001.html\">Turn 1</a>");
	assert_has(text, "After the turn: ");
	assert_has(text, "<a href=\"../index.html\">");
	/* identifiers of the rules and of the events as words (issue 32):
	 * not one with an underscore on the page */
	assert_has(text, "<li>5 morale (morale, R7.2): ");
	assert_lacks(text, "_", "units/2-militia.html");
	free(text);
	text = page(out, "units/gun-1.html");
	assert_has(text, "<code>gun-1</code>: regular foot artillery, "
	    "howitzer, of Foreign Legion.");
	free(text);
	text = page(out, "units/1-legion.html");
	assert_has(text, "<code>1-legion</code>: veteran infantry, rifled "
	    "musket, of Foreign Legion.");
	free(text);
	text = page(out, "turn-000.html");
	assert_has(text, "Mountain Gun</a>: regular foot artillery, howitzer;");
	assert_lacks(text, "rifled_musket", "turn-000.html");
	free(text);
	assert_true(exists(out, CROWN_SITE_MANIFEST));
	free(dir);
	free(out);
}

/*
 * Issue 34: the site marks a turn an adopted rerun played again, with the
 * reasons, and the later turns it replayed; a site made before the
 * adoption is brought up to date.
 */
static void
test_site_rerun(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *text;

	(void)state;
	campaign(dir, SCEN, true);
	EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
	text = page(out, "turn-001.html");
	assert_lacks(text, "rerun", "turn-001.html");
	free(text);
	EXPECT(0, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL, "--date",
	    "2026-03-20", "--reason", "orders <misfiled> & lost");
	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-1", "--date",
	    "2026-03-21", "--reason", "agreed");
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	text = page(out, "turn-001.html");
	assert_has(text, "<p class=\"note rerun\">This turn was rerun: "
	    "played again with amended orders, in place of the first play "
	    "(orders &lt;misfiled&gt; &amp; lost). Adopted: agreed.</p>");
	free(text);
	text = page(out, "turn-002.html");
	assert_has(text, "<p class=\"note rerun\">Played again after turn 1 "
	    "was rerun, with the orders first given.</p>");
	free(text);
	text = page(out, "index.html");
	assert_has(text, " <em class=\"rerun\">(rerun: orders &lt;misfiled&gt; "
	    "&amp; lost)</em></td>");
	assert_has(text, " <em class=\"rerun\">(replayed)</em></td>");
	free(text);
	text = page(out, "turn-000.html");
	assert_lacks(text, "rerun", "turn-000.html");
	free(text);
	free(dir);
	free(out);
}

/* A name with markup is text everywhere: no page holds a script. */
static void
test_site_escapes(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *scen, *text;

	scen = scenario(EVIL);
	campaign(dir, scen, false);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	pages_lack(out, (const char *[]){ "<script", "alert(1)</", NULL });
	text = page(out, "units/2-militia.html");
	assert_has(text, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; "
	    "&quot;x&quot;");
	free(text);
	text = page(out, "turn-001.html");
	assert_has(text, "&lt;script&gt;alert(1)&lt;/script&gt; &amp;");
	free(text);
	free(scen);
	free(dir);
	free(out);
}

#define HOSTILE	"![b](http://host/beacon.png) [l](http://host/l) " \
	"<img src=http://host/i> <http://host/a>"

/*
 * A scenario whose names (a side's, a player's, units', a leader's) carries Markdown and HTML that would fetch from
 * outside: every page of its site refers only to files inside the site,
 * and the briefing shows the names as text.
 */
static void
test_site_hostile_names(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *text, *t;
	char		*file = path("hostile.yaml"), *p;
	static const char *const names[] = { "Mexican Republic", "Francisco Milan", "Militia of Veracruz",
	    "Lancers of Jalapa", NULL };
	size_t		 i;
	FILE		*fp;

	(void)state;
	text = tu_slurp(SCEN);
	assert_non_null(text);
	for (i = 0; names[i] != NULL; i++) {
		assert_non_null(p = strstr(text, names[i]));
		*p = '\0';
		t = xasprintf("%s%s " HOSTILE "%s", text, names[i],
		    p + strlen(names[i]));
		free(text);
		text = t;
	}
	assert_non_null(p = strstr(text, "{id: milan, side: republic,"));
	*p = '\0';
	/* a heading's mark inside a name (a line break, which would begin
	 * one, is refused in any name: test_names_plain) */
	t = xasprintf("%s{id: milan, name: \"Milan " HOSTILE " # "
	    "Injected\", side: republic,%s", text,
	    p + strlen("{id: milan, side: republic,"));
	free(text);
	assert_non_null(fp = fopen(file, "w"));
	fputs(t, fp);
	assert_int_equal(fclose(fp), 0);
	free(t);
	campaign(dir, file, true);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	pages_lack(out, (const char *[]){ "<img", NULL });
	text = page(out, "turn-000.html");
	assert_has(text, "Mexican Republic ![b](http://host/beacon.png)");
	assert_has(text, "Milan ![b](http://host/beacon.png)");
	assert_has(text, "Francisco Milan ![b](http://host/beacon.png)");
	assert_has(text, "&lt;img src=http://host/i&gt;");
	assert_has(text, "# Injected");
	assert_lacks(text, "<h1>Injected", "turn-000.html");
	free(text);
	free(file);
	free(dir);
	free(out);
}

/*
 * A unit whose name reads like script or CSS keeps its map on every turn
 * page, the name shown as text; a map template that adds a script, event
 * attributes, animation and outside references (the umpire's own
 * templates, committed with the turn) stands in the page without them.
 */
static void
test_site_map_filter(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *scen, *text;
	char		*tmpl = path("tmpl"), *cmd, *map;
	const char	*evil = "<script>alert(1)</script>"
	    "<rect x=\"0\" onload=\"alert(2)\"/>"
	    "<image href=\"http://host/i.png\"/>"
	    "<set attributeName=\"onclick\" to=\"alert(3)\"/>"
	    "<use href=\"http://host/u.svg#a\"/>"
	    "<foreignObject><img src=\"http://host/f.png\"/></foreignObject>";
	FILE		*fp;

	(void)state;
	scen = scenario("javascript: url(x) @import");
	cmd = xasprintf("cp -r %s '%s'", TMPL, tmpl);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	map = xasprintf("%s/map.svg.tmpl", tmpl);
	text = tu_slurp(map);
	assert_non_null(text);
	assert_non_null(fp = fopen(map, "w"));
	/* after the <title>: the template's own, then the hostile bits */
	fprintf(fp, "%.*s%s%s", (int)(strstr(text, "</title>") - text + 8),
	    text, evil, strstr(text, "</title>") + 8);
	assert_int_equal(fclose(fp), 0);
	free(text);
	EXPECT(0, crown_cmd_new, dir, "--scenario", scen, "--rules", RULES,
	    "--secret-file", "tests/data/campaign/secret.hex", "--templates",
	    tmpl, "--date", "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_turn, dir, "tests/data/campaign/french-1.yaml",
	    "tests/data/campaign/republic-1.yaml", "--templates", tmpl,
	    "--date", "2026-03-08");
	/* the committed map holds them all */
	cmd = xasprintf("git -C '%s' show HEAD:turns/turn-001/map.svg > "
	    "'%s/map.svg'", dir, base);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	cmd = path("map.svg");
	text = tu_slurp(cmd);
	assert_has(text, "onload=\"alert(2)\"");
	free(text);
	free(cmd);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	pages_lack(out, (const char *[]){ "<script", "onload", "<image",
	    "<set", "foreignObject", "alert(", "left out", NULL });
	text = page(out, "turn-001.html");
	assert_has(text, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	assert_has(text, "<title>javascript: url(x) @import (");
	assert_has(text, "<rect x=\"0\"/>");
	free(text);
	free(map);
	free(tmpl);
	free(scen);
	free(dir);
	free(out);
}

/* A side's site: its own reports, orders and units, and nothing else. */
static void
test_site_side(void **state)
{
	struct run	 r;
	struct crown_buf files = { 0 };
	char		*dir = path("c"), *out = path("site"), *text;

	campaign(dir, SCEN, true);
	RUN(&r, crown_cmd_site, dir, out, "--side", "french", "--templates",
	    TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	crown_buf_puts(&files, "");
	list_files(&files, out, "");
	assert_lacks(files.data, "events.yaml", "a side's site");
	assert_lacks(files.data, "units/2-militia.html", "a side's site");
	assert_lacks(files.data, "units/3-cav.html", "a side's site");
	assert_has(files.data, "units/1-legion.html\n");
	assert_has(files.data, "units/gun-1.html\n");
	crown_buf_release(&files);
	pages_lack(out, (const char *[]){ "umpire&apos;s report",
	    "dispatch to Mexican Republic", "republic.yaml",
	    "units/2-militia.html", NULL });
	text = page(out, "turn-001.html");
	assert_has(text, "Your dispatch");
	assert_has(text, "dispatch to Foreign Legion");
	assert_has(text, "orders/turn-001/french.yaml");
	assert_has(text, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	assert_has(text, "the site of Foreign Legion");
	free(text);
	/* an unknown side: bad input, nothing written */
	text = path("other");
	RUN(&r, crown_cmd_site, dir, text, "--side", "prussia",
	    "--templates", TMPL);
	free(text);
	assert_int_equal(r.status, 65);
	assert_has(r.err, "no side 'prussia'");
	run_release(&r);
	free(dir);
	free(out);
}

/*
 * On a side's unit page, a loss by the enemy's order names the order but
 * does not quote it.  The secret and seed of test-history's blame test
 * make the Legion's second volley hit the militia.
 */
static void
test_site_side_enemy_order(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *sec, *orders;
	char		*text, *hex;

	hex = xcalloc(66, 1);
	memset(hex, '1', 64);
	hex[64] = '\n';
	write_file("secret.hex", hex);
	free(hex);
	write_file("french-1.yaml", "game: Test Campaign\nturn: 1\n"
	    "side: french\norders:\n  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, reload, fire: 2-militia]\n"
	    "seed: \"19\"\n");
	sec = path("secret.hex");
	orders = path("french-1.yaml");
	EXPECT(0, crown_cmd_new, dir, "--scenario", SCEN, "--rules", RULES,
	    "--secret-file", sec, "--templates", TMPL, "--date",
	    "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_turn, dir, orders, DATA "/republic-1.yaml",
	    "--templates", TMPL, "--date", "2026-03-08");
	RUN(&r, crown_cmd_site, dir, out, "--side", "republic",
	    "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	text = page(out, "units/2-militia.html");
	assert_has(text, "lost 3 figures (fire, R5.1)");
	assert_has(text, "order: 1-legion&apos;s, of side french (not shown "
	    "here)");
	assert_lacks(text, "french.yaml", "units/2-militia.html");
	free(text);
	/* the umpire's site quotes it */
	free(out);
	out = path("umpire");
	EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
	text = page(out, "units/2-militia.html");
	assert_has(text, "order: 1-legion fire 2-militia "
	    "(orders/turn-001/french.yaml:");
	free(text);
	free(sec);
	free(orders);
	free(dir);
	free(out);
}

struct stamp {
	ino_t	ino;
	time_t	mtime;
	long	nsec;
};

static struct stamp
stamp_of(const char *out, const char *name)
{
	struct stamp	s = { 0 };
	struct stat	st;
	char		*p = xasprintf("%s/%s", out, name);

	if (stat(p, &st) == 0) {
		s.ino = st.st_ino;
		s.mtime = st.st_mtim.tv_sec;
		s.nsec = st.st_mtim.tv_nsec;
	}
	free(p);
	return s;
}

static bool
same_stamp(struct stamp a, struct stamp b)
{
	return a.ino == b.ino && a.mtime == b.mtime && a.nsec == b.nsec;
}

/*
 * After one more turn: the new turn's pages, the one before it (its link
 * to the next), the index and the units the turn touched are written, no
 * other; and the site is the one a full run makes.
 */
static void
test_site_incremental(void **state)
{
	struct run	 r;
	struct crown_buf a = { 0 }, b = { 0 };
	struct stamp	 t0, t1, gun, legion, militia, cav;
	char		*dir = path("c"), *out = path("site"), *full;
	char		*line, *next, *x, *y;

	full = path("full");
	campaign(dir, SCEN, false);
	EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
	/* a second run writes nothing: nothing is new */
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_has(r.out, ", 0 written, 0 removed");
	run_release(&r);
	t0 = stamp_of(out, "turn-000.html");
	t1 = stamp_of(out, "turn-001.html");
	gun = stamp_of(out, "units/gun-1.html");
	legion = stamp_of(out, "units/1-legion.html");
	militia = stamp_of(out, "units/2-militia.html");
	cav = stamp_of(out, "units/3-cav.html");
	/* turn 2: a reload and a hold; the gun and the militia have no
	 * orders and nothing befalls them */
	write_file("f2.yaml", "game: Test Campaign\nturn: 2\nside: french\n"
	    "orders:\n  - unit: 1-legion\n    actions: [reload]\n");
	write_file("r2.yaml", "game: Test Campaign\nturn: 2\nside: "
	    "republic\norders:\n  - unit: 3-cav\n    actions: [hold]\n");
	x = path("f2.yaml");
	y = path("r2.yaml");
	EXPECT(0, crown_cmd_turn, dir, x, y, "--templates", TMPL, "--date",
	    "2026-03-15");
	free(x);
	free(y);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	/* turn 2 and its events, turn 1 (its link to turn 2), the two
	 * units the turn touched, the index */
	assert_has(r.out, ", 6 written, 0 removed");
	run_release(&r);
	assert_true(exists(out, "turn-002.html"));
	assert_true(same_stamp(t0, stamp_of(out, "turn-000.html")));
	assert_false(same_stamp(t1, stamp_of(out, "turn-001.html")));
	assert_true(same_stamp(gun, stamp_of(out, "units/gun-1.html")));
	assert_true(same_stamp(militia, stamp_of(out,
	    "units/2-militia.html")));
	assert_false(same_stamp(legion, stamp_of(out,
	    "units/1-legion.html")));
	assert_false(same_stamp(cav, stamp_of(out, "units/3-cav.html")));
	/* the same as a full run, file for file and byte for byte */
	EXPECT(0, crown_cmd_site, dir, full, "--templates", TMPL);
	crown_buf_puts(&a, "");
	crown_buf_puts(&b, "");
	list_files(&a, out, "");
	list_files(&b, full, "");
	assert_string_equal(a.data, b.data);
	for (line = a.data; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		x = page(out, line);
		y = page(full, line);
		if (strcmp(x, y) != 0) {
			print_error("%s differs from a full run's\n", line);
			fail();
		}
		free(x);
		free(y);
	}
	crown_buf_release(&a);
	crown_buf_release(&b);
	/* a page removed by hand is made again */
	x = xasprintf("%s/turn-000.html", out);
	assert_int_equal(unlink(x), 0);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_has(r.out, ", 1 written");
	run_release(&r);
	assert_int_equal(access(x, F_OK), 0);
	free(x);
	/* another side's site in the same place: the umpire's files go */
	RUN(&r, crown_cmd_site, dir, out, "--side", "republic",
	    "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_false(exists(out, "turn-001-events.yaml"));
	assert_false(exists(out, "units/1-legion.html"));
	run_release(&r);
	free(full);
	free(dir);
	free(out);
}

/*
 * The disk fills up while the site of a new turn is written: exit 73,
 * and every file is whole, as the run before left it or as a full run
 * makes it, with no temporary file left; the next run finishes it.
 */
static void
test_site_disk_full(void **state)
{
	/* of the bytes a run that succeeds writes, in tenths */
	static const long long	 tenths[] = { 0, 1, 5, 9 };
	const long long		 lots = 1LL << 40;
	long long		 written, lefts[CROWN_NELEM(tenths)];
	struct crown_buf	 files = { 0 };
	struct run		 r;
	char			*dir = path("c"), *out = path("site");
	char			*full = path("full"), *old = path("old");
	char			*line, *next, *x, *y, *z, *cmd;
	size_t			 i;

	campaign(dir, SCEN, false);
	EXPECT(0, crown_cmd_site, dir, old, "--templates", TMPL);
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml",
	    "--templates", TMPL, "--date", "2026-03-15", "--allow-missing");
	EXPECT(0, crown_cmd_site, dir, full, "--templates", TMPL);
	/* how much the run writes, whatever the reports' size */
	cmd = xasprintf("cp -a '%s' '%s'", old, out);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	disk_left = lots;
	EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
	written = lots - disk_left;
	disk_left = -1;
	assert_true(written > 1000);
	for (i = 0; i < CROWN_NELEM(lefts); i++)
		lefts[i] = written * tenths[i] / 10;
	for (i = 0; i < CROWN_NELEM(lefts); i++) {
		crown_campaign_remove_tree(out, false);
		cmd = xasprintf("cp -a '%s' '%s'", old, out);
		assert_int_equal(system(cmd), 0);
		free(cmd);
		disk_left = lefts[i];
		RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
		disk_left = -1;
		if (r.status != 73)
			print_error("with %lld bytes left: %s", lefts[i], r.out);
		assert_int_equal(r.status, 73);
		assert_has(r.err, "cannot write");
		run_release(&r);
		crown_buf_puts(&files, "");
		list_files(&files, out, "");
		assert_lacks(files.data, ".tmp.", "the site");
		for (line = files.data; *line != '\0'; line = next) {
			next = strchr(line, '\n');
			*next++ = '\0';
			x = page(out, line);
			z = xasprintf("%s/%s", old, line);
			y = tu_slurp(z);
			free(z);
			z = xasprintf("%s/%s", full, line);
			if (y == NULL || strcmp(x, y) != 0) {
				free(y);
				y = tu_slurp(z);
				if (y == NULL || strcmp(x, y) != 0) {
					print_error("%s is neither the old nor "
					    "the new page\n", line);
					fail();
				}
			}
			free(z);
			free(y);
			free(x);
		}
		crown_buf_release(&files);
		/* the next run makes the whole site */
		EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
		x = xasprintf("diff -r '%s' '%s' >/dev/null", out, full);
		assert_int_equal(system(x), 0);
		free(x);
	}
	free(old);
	free(full);
	free(dir);
	free(out);
}

/*
 * A first run into a new OUT killed at each of its writes in turn, or
 * stopped by a full disk at a tenth, half and nine tenths of what it
 * writes: the next run is not refused, and finishes the site, the same
 * as a whole run's.
 */
static void
test_site_first_interrupted(void **state)
{
	static const long long	 tenths[] = { 0, 1, 5, 9 };
	const long long		 lots = 1LL << 40;
	struct run		 r;
	char			*dir = path("c"), *out = path("site");
	char			*full = path("full"), *cmd;
	unsigned long		 w, k;
	long long		 written;
	pid_t			 pid;
	size_t			 i;
	int			 ws;

	(void)state;
	campaign(dir, SCEN, false);
	w = disk_writes;
	disk_left = lots;
	EXPECT(0, crown_cmd_site, dir, full, "--templates", TMPL);
	written = lots - disk_left;
	disk_left = -1;
	w = disk_writes - w;
	assert_true(w > 5);
	cmd = xasprintf("diff -r -x '.*.tmp.*' '%s' '%s' >/dev/null", out,
	    full);
	for (k = 1; k <= w; k++) {
		crown_campaign_remove_tree(out, false);
		fflush(stdout);
		fflush(stderr);
		if ((pid = fork()) == 0) {
			disk_kill_at = disk_writes + k;
			RUN(&r, crown_cmd_site, dir, out, "--templates",
			    TMPL);
			_exit(r.status);
		}
		assert_int_equal(waitpid(pid, &ws, 0), pid);
		if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 137) {
			print_error("write %lu of %lu: not killed\n", k, w);
			fail();
		}
		RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
		if (r.status != 0)
			print_error("after a kill at write %lu of %lu:\n%s", k,
			    w, r.err);
		assert_int_equal(r.status, 0);
		run_release(&r);
		if (system(cmd) != 0) {
			print_error("after a kill at write %lu, the site "
			    "differs from a whole run's\n", k);
			fail();
		}
	}
	for (i = 0; i < CROWN_NELEM(tenths); i++) {
		crown_campaign_remove_tree(out, false);
		disk_left = written * tenths[i] / 10;
		RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
		disk_left = -1;
		assert_int_equal(r.status, 73);
		assert_has(r.err, "cannot write");
		run_release(&r);
		EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
		assert_int_equal(system(cmd), 0);
	}
	free(cmd);
	free(full);
	free(dir);
	free(out);
}

static void
test_site_refusals(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *p;
	char		*tout = path("t-out");
	FILE		*fp;

	campaign(dir, SCEN, false);
	/* not a campaign: missing input */
	p = path("none");
	RUN(&r, crown_cmd_site, p, out, "--templates", TMPL);
	free(p);
	assert_int_equal(r.status, 66);
	run_release(&r);
	/* OUT a file, or a directory of other things: cannot write */
	p = path("file");
	assert_non_null(fp = fopen(p, "w"));
	fputs("x\n", fp);
	assert_int_equal(fclose(fp), 0);
	RUN(&r, crown_cmd_site, dir, p, "--templates", TMPL);
	assert_int_equal(r.status, 73);
	assert_has(r.err, "not a directory");
	run_release(&r);
	RUN(&r, crown_cmd_site, dir, base, "--templates", TMPL);
	assert_int_equal(r.status, 73);
	assert_has(r.err, "holds files but no site");
	run_release(&r);
	free(p);
	/* units/ cannot be made: cannot write, and no manifest */
	assert_int_equal(mkdir(out, 0777), 0);
	p = xasprintf("%s/units", out);
	assert_non_null(fp = fopen(p, "w"));
	assert_int_equal(fclose(fp), 0);
	free(p);
	p = xasprintf("%s/" CROWN_SITE_MANIFEST, out);
	assert_non_null(fp = fopen(p, "w"));
	assert_int_equal(fclose(fp), 0);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 73);
	run_release(&r);
	free(p);
	/* broken templates: every problem at FILE:LINE:COLUMN, exit 65 */
	p = path("tmpl");
	assert_int_equal(mkdir(p, 0777), 0);
	free(p);
	write_file("tmpl/site-index.html.tmpl", "<html>\n{{#turns}}\n");
	write_file("tmpl/site-turn.html.tmpl", "x {{/y}}\n");
	write_file("tmpl/site-unit.html.tmpl", "ok\n");
	p = path("tmpl");
	RUN(&r, crown_cmd_site, dir, tout, "--templates", p);
	assert_int_equal(r.status, 65);
	assert_has(r.err, "site-index.html.tmpl:2:");
	assert_has(r.err, "site-turn.html.tmpl:1:3: error:");
	run_release(&r);
	free(p);
	/* a missing template: missing input, named */
	p = path("tmpl/site-unit.html.tmpl");
	assert_int_equal(unlink(p), 0);
	free(p);
	write_file("tmpl/site-index.html.tmpl", "{{> site-absent.html}}\n");
	write_file("tmpl/site-turn.html.tmpl", "ok\n");
	p = path("tmpl");
	RUN(&r, crown_cmd_site, dir, tout, "--templates", p);
	assert_int_equal(r.status, 66);
	assert_has(r.err, "site-absent.html");
	assert_has(r.err, "site-unit.html");
	run_release(&r);
	free(p);
	/* a page template that cannot be read (a directory): named,
	 * missing input */
	write_file("tmpl/site-unit.html.tmpl", "ok\n");
	write_file("tmpl/site-index.html.tmpl", "ok\n");
	p = path("tmpl/site-extra.html.tmpl");
	assert_int_equal(mkdir(p, 0777), 0);
	free(p);
	p = path("tmpl");
	RUN(&r, crown_cmd_site, dir, tout, "--templates", p);
	assert_int_equal(r.status, 66);
	assert_has(r.err, "site-extra.html.tmpl: error: cannot read");
	run_release(&r);
	free(p);
	/* a manifest that cannot be read (a directory): named, and OUT
	 * cannot be written */
	p = path("m-out");
	assert_int_equal(mkdir(p, 0777), 0);
	free(p);
	p = path("m-out/" CROWN_SITE_MANIFEST);
	assert_int_equal(mkdir(p, 0777), 0);
	free(p);
	p = path("m-out");
	RUN(&r, crown_cmd_site, dir, p, "--templates", TMPL);
	assert_int_equal(r.status, 73);
	assert_has(r.err, CROWN_SITE_MANIFEST ": error: cannot read");
	run_release(&r);
	free(p);
	free(tout);
	free(dir);
	free(out);
}

/* cmark in safe mode: raw HTML and script URLs are left out. */
static void
test_html_markdown(void **state)
{
	static const struct crown_html_link links[] = {
		{ "Militia", "units/m.html" },
		{ "Militia of Veracruz", "units/mv.html" },
		{ "gun-1", "units/gun-1.html" },
	};
	static const char md[] =
	    "# Report\n\n<script>alert(1)</script>\n\n"
	    "[click](javascript:alert(1)) <b onclick=\"x()\">b</b>\n\n"
	    "The Militia of Veracruz fired; the Militia held; gun-10 and "
	    "gun-1.\n\n| a | b |\n|---|---|\n| Militia | 2 |\n";
	struct crown_buf	 b = { 0 };

	crown_buf_puts(&b, "");
	crown_html_markdown(&b, md, strlen(md), links, CROWN_NELEM(links));
	assert_lacks(b.data, "<script", "html");
	assert_lacks(b.data, "javascript:", "html");
	assert_lacks(b.data, "onclick", "html");
	assert_has(b.data, "<h1>Report</h1>");
	assert_has(b.data, "The <a href=\"units/mv.html\">Militia of "
	    "Veracruz</a> fired; the <a href=\"units/m.html\">Militia</a> "
	    "held; gun-10 and <a href=\"units/gun-1.html\">gun-1</a>.");
	assert_has(b.data, "<td><a href=\"units/m.html\">Militia</a></td>");
	crown_buf_release(&b);
}

/* Links and images to outside the site are kept as their text; those
 * inside it stay. */
static void
test_html_markdown_outside(void **state)
{
	static const char md[] =
	    "![beacon](http://host/b.png) [away](https://host/) "
	    "<http://host/auto> [root](/etc/passwd) [up](../../x.html) "
	    "[![in](http://host/i.png)](//host/p) [here](turn-001.html) "
	    "[top](#top) ![map](units/m.png)\n";
	struct crown_buf	 b = { 0 };

	(void)state;
	crown_buf_puts(&b, "");
	crown_html_markdown(&b, md, strlen(md), NULL, 0);
	refs_inside(b.data, "html", 0);
	assert_lacks(b.data, "<img src=\"http", "html");
	assert_has(b.data, "beacon away http://host/auto root up in ");
	assert_has(b.data, "<a href=\"turn-001.html\">here</a>");
	assert_has(b.data, "<a href=\"#top\">top</a>");
	assert_has(b.data, "<img src=\"units/m.png\" alt=\"map\" />");
	crown_buf_release(&b);
}

static void
test_html_svg(void **state)
{
	static const struct crown_html_link links[] = {
		{ "A & B", "units/ab.html" },
		{ "A", "units/a.html" },
		{ "Milán's horse", "units/h.html" },
	};
	static const char svg[] = "<?xml version=\"1.0\"?>\n<svg>"
	    "<g class=\"unit side-0\">\n<title>A &amp; B (ok)</title>"
	    "<polygon/></g><g class=\"unit side-1\"><title>C (ok)</title>"
	    "</g><g class=\"unit routing\"><rect/></g>"
	    "<g class=\"unit side-1\"><title>Milán&apos;s horse (ok)</title>"
	    "</g></svg>";
	struct crown_buf	 b = { 0 };

	crown_buf_puts(&b, "");
	crown_html_svg(&b, svg, strlen(svg), links, CROWN_NELEM(links));
	assert_string_equal(b.data, "<svg><a href=\"units/ab.html\">"
	    "<g class=\"unit side-0\">\n<title>A &amp; B (ok)</title>"
	    "<polygon/></g></a><g class=\"unit side-1\"><title>C (ok)"
	    "</title></g><g class=\"unit routing\"><rect/></g>"
	    "<a href=\"units/h.html\"><g class=\"unit side-1\"><title>Milán"
	    "&apos;s horse (ok)</title></g></a></svg>");
	crown_buf_release(&b);
	crown_buf_puts(&b, "");
	assert_int_equal(crown_html_svg_clean(&b, svg, strlen(svg)), 0);
	assert_string_equal(b.data, "<svg><g class=\"unit side-0\">\n"
	    "<title>A &amp; B (ok)</title><polygon/></g><g class=\"unit "
	    "side-1\"><title>C (ok)</title></g><g class=\"unit routing\">"
	    "<rect/></g><g class=\"unit side-1\"><title>Milán&apos;s horse "
	    "(ok)</title></g></svg>");
	crown_buf_release(&b);
}

/* What a map may not hold is taken out of it, the rest kept; text is
 * text, whatever it says. */
static void
test_html_svg_clean(void **state)
{
	static const struct {
		const char	*in, *out;
	} cases[] = {
		{ "<svg><rect onclick='x()' x=\"1\"/></svg>",
		    "<svg><rect x=\"1\"/></svg>" },
		{ "<svg><set attributeName=\"href\" to=\"javascript:x()\"/>"
		    "<animate attributeName=\"onload\"/></svg>",
		    "<svg></svg>" },
		{ "<svg><set onbegin=\"alert(1)\"/><rect/></svg>",
		    "<svg><rect/></svg>" },
		{ "<svg><filter><feImage href=\"http://h/x.png\"/></filter>"
		    "</svg>", "<svg></svg>" },
		{ "<svg><script>alert(1)</script><title>t</title></svg>",
		    "<svg><title>t</title></svg>" },
		{ "<svg><foreignObject><p>x</p></foreignObject><image "
		    "href=\"#a\"/></svg>", "<svg></svg>" },
		{ "<svg><a href=\"http://example.org/\">x</a></svg>",
		    "<svg></svg>" },
		{ "<svg><use xlink:href='other.svg#a'/><use href=\"#u\"/>"
		    "</svg>", "<svg><use/><use href=\"#u\"/></svg>" },
		{ "<svg><style>@import 'x.css';</style></svg>",
		    "<svg><style/></svg>" },
		{ "<svg><style>.a { fill: url(http://x/y); }</style></svg>",
		    "<svg><style/></svg>" },
		{ "<svg><style>.a { fill: u\\72l(//x/y); }</style></svg>",
		    "<svg><style/></svg>" },
		{ "<svg><style>.a { fill: url(#g); }</style></svg>",
		    "<svg><style>.a { fill: url(#g); }</style></svg>" },
		{ "<svg><rect style=\"fill:url(http://x/y)\" fill=\"url("
		    "#a)\"/></svg>", "<svg><rect fill=\"url(#a)\"/></svg>" },
		{ "<svg><line marker-end=\"url(#a)\"/></svg>",
		    "<svg><line marker-end=\"url(#a)\"/></svg>" },
		{ "<svg><text>javascript:alert(1) url(x) @import "
		    "&lt;script&gt;</text></svg>", "<svg><text>javascript:"
		    "alert(1) url(x) @import &lt;script&gt;</text></svg>" },
		{ "<svg><text><![CDATA[</svg><img src=x onerror=alert(1)>]]>"
		    "</text></svg>", "<svg><text>&lt;/svg&gt;&lt;img src=x "
		    "onerror=alert(1)&gt;</text></svg>" },
		{ "<?xml version=\"1.0\"?><!-- c --><svg><rect/></svg>",
		    "<svg><rect/></svg>" },
	};
	/* not XML (what an HTML parser would take as attributes after a
	 * '/'), so left out whole */
	static const char *const bad[] = {
		"<svg/onload=\"alert(1)\"><rect/></svg>",
		"<svg><set/onbegin=\"alert(1)\"/></svg>",
		"<svg><feImage/href=\"http://h/x.png\"/></svg>",
		"<svg><rect></svg>", "<svg>&xxe;</svg>",
		"<!DOCTYPE svg [<!ENTITY x \"y\">]><svg>&x;</svg>",
		"<svg>\xff</svg>",
	};
	static const char *const maps[] = {
		"tests/golden/expected/reports/synthetic/map.svg",
		"tests/golden/expected/reports/R2.1-report-turn-dispatch/"
		"map.svg",
	};
	struct crown_buf	 b = { 0 };
	size_t			 i;

	(void)state;
	for (i = 0; i < CROWN_NELEM(cases); i++) {
		if (crown_html_svg_clean(&b, cases[i].in,
		    strlen(cases[i].in)) != 0) {
			print_error("refused: %s\n", cases[i].in);
			fail();
		}
		if (strcmp(b.data, cases[i].out) != 0) {
			print_error("%s\ngave %s\nnot  %s\n", cases[i].in,
			    b.data, cases[i].out);
			fail();
		}
		crown_buf_release(&b);
	}
	/* crown's own maps keep every element, attribute and text: the
	 * same bytes, less the XML declaration and with "/>" for empty
	 * elements, as these are written */
	for (i = 0; i < CROWN_NELEM(maps); i++) {
		char	*svg = tu_slurp(maps[i]), *want;

		assert_non_null(svg);
		assert_int_equal(crown_html_svg_clean(&b, svg, strlen(svg)),
		    0);
		want = strstr(svg, "<svg");
		assert_non_null(want);
		*strrchr(want, '>') = '\0';
		if (strncmp(b.data, want, strlen(want)) != 0) {
			print_error("%s changed by the filter\n", maps[i]);
			fail();
		}
		crown_buf_release(&b);
		free(svg);
	}
	for (i = 0; i < CROWN_NELEM(bad); i++) {
		if (crown_html_svg_clean(&b, bad[i], strlen(bad[i])) != -1) {
			print_error("taken: %s\n", bad[i]);
			fail();
		}
		crown_buf_release(&b);
	}
}

/* Every unit's line from the part of main's state is the whole one's;
 * an id of no unit gives none. */
static void
same_lines(const char *dir)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	struct crown_state	*s = NULL;
	char			 id[41], *whole, *part;
	size_t			 i;

	assert_int_equal(crown_history_open(&h, dir, false, &d), 0);
	assert_int_equal(crown_history_ref_get(id, h, CROWN_MAIN_REF, &d),
	    0);
	assert_int_equal(crown_history_read(&b, h, id, CROWN_CAMPAIGN_STATE,
	    &d), 0);
	assert_int_equal(crown_state_parse(&s, "state.yaml", b.data, b.len,
	    &d), 0);
	assert_true(s->nunits > 2);
	for (i = 0; i < s->nunits; i++) {
		whole = crown_story_strength(s, s->units[i].id);
		assert_int_equal(crown_story_strength_read(&part, h, id,
		    "turn-1", s->units[i].id, &d), 0);
		assert_non_null(part);
		assert_string_equal(part, whole);
		free(part);
		free(whole);
	}
	assert_int_equal(crown_story_strength_read(&part, h, id, "turn-1",
	    "no-such-unit", &d), 0);
	assert_null(part);
	assert_int_equal(d.n, 0);
	crown_state_free(s);
	crown_buf_release(&b);
	crown_history_close(h);
}

/*
 * A unit's strength after a turn from its own part of the committed
 * state (crown blame's, story.h) is the whole state's, for every unit;
 * and the same when the state is laid out otherwise than crown writes
 * it, where the whole file is read.
 */
static void
test_story_strength_read(void **state)
{
	char	*dir = path("c"), *cmd;

	TU_CAMPAIGN(dir, "tests/data/scenario-small.yaml", false);
	same_lines(dir);
	/* the units indented below "units:": no line "- id: ID" at the
	 * start, so the whole file is read, with the same lines */
	cmd = xasprintf("cd '%s' && awk '/^[a-z]/ { u = ($0 == \"units:\") "
	    "} { print (u && !/^units:/ ? \"  \" : \"\") $0 }' state.yaml "
	    "> s && mv s state.yaml && grep -q '^  - id: ' state.yaml && "
	    "git -c user.name=t -c user.email=t@example.org commit -q "
	    "-m 'Turn 1: by hand' state.yaml", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	same_lines(dir);
	free(dir);
}

static int
setup(void **state)
{
	memcpy(base, "/tmp/crown-site-XXXXXX", sizeof(base));
	return mkdtemp(base) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	crown_campaign_remove_tree(base, false);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_markdown),
		cmocka_unit_test(test_html_markdown_outside),
		cmocka_unit_test(test_html_svg),
		cmocka_unit_test(test_html_svg_clean),
		cmocka_unit_test_setup_teardown(test_site_rerun, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_site_pages, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_site_hostile_names,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_site_map_filter, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_site_escapes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_site_side, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_site_side_enemy_order,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_site_incremental, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_site_disk_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_story_strength_read,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_site_first_interrupted,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_site_refusals, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("site", tests, NULL, NULL);
}
