/*
 * test-template.c: the mustache subset of the report templates, the data
 * tree and escaping (template.h).
 */
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "crown/template.h"
#include "crown/xalloc.h"

/* Render text as template "t" (with partials added before) and return the
 * output; *error gets the result. */
static char *
render_with(struct crown_tmpl_set *set, const char *text,
    enum crown_escape esc, const struct crown_tval *ctx, int *error,
    struct crown_diags *d)
{
	struct crown_buf	b = { 0 };

	*error = crown_tmpl_set_add(set, "t", text, strlen(text), d);
	if (*error == 0)
		*error = crown_tmpl_render(&b, set, "t", esc, ctx, d);
	crown_buf_puts(&b, "");
	return b.data;
}

static char *
render(const char *text, enum crown_escape esc, const struct crown_tval *ctx,
    int *error, struct crown_diags *d)
{
	struct crown_tmpl_set	*set = crown_tmpl_set_new(NULL);
	char			*out;

	out = render_with(set, text, esc, ctx, error, d);
	crown_tmpl_set_free(set);
	return out;
}

#define assert_renders(text, esc, ctx, want) do {			\
	struct crown_diags d_ = { 0 };					\
	int e_;								\
	char *o_ = render((text), (esc), (ctx), &e_, &d_);		\
	assert_no_diags(&d_);						\
	assert_int_equal(e_, 0);					\
	assert_string_equal(o_, (want));				\
	free(o_);							\
} while (0)

/* Render text expecting failure with code and a diagnostic. */
#define assert_fails(text, code, want) do {				\
	struct crown_diags d_ = { 0 };					\
	struct crown_tval *c_ = crown_tval_map();			\
	int e_;								\
	char *o_ = render((text), CROWN_ESC_NONE, c_, &e_, &d_);	\
	assert_int_equal(e_, (code));					\
	assert_diag(&d_, (want));					\
	free(o_);							\
	crown_tval_free(c_);						\
	crown_diags_release(&d_);					\
} while (0)

static struct crown_tval *
sample(void)
{
	struct crown_tval	*root, *list, *m, *g;

	root = crown_tval_map();
	crown_tmap_str(root, "name", "Camerone");
	crown_tmap_str(root, "odd", "a*b_c [x] <y> |z| `q` \\");
	crown_tmap_str(root, "empty", "");
	crown_tmap_bool(root, "yes", true);
	crown_tmap_bool(root, "no", false);
	crown_tmap_int(root, "turn", 3);
	g = crown_tmap_map(root, "game");
	crown_tmap_str(g, "name", "Puebla");
	crown_tmap_map(g, "inner");
	list = crown_tmap_list(root, "units");
	m = crown_tlist_map(list);
	crown_tmap_str(m, "name", "Legion");
	crown_tmap_int(m, "figures", 12);
	m = crown_tlist_map(list);
	crown_tmap_str(m, "name", "Militia");
	m = crown_tlist_map(list);
	crown_tmap_str(m, "name", "Lancers");
	crown_tmap_bool(m, "routing", true);
	list = crown_tmap_list(root, "words");
	crown_tlist_str(list, "one");
	crown_tlist_str(list, "two");
	crown_tmap_list(root, "nothing");
	return root;
}

static void
test_variables(void **state)
{
	struct crown_tval	*c = sample();

	assert_renders("Battle of {{name}}, turn {{turn}}.", CROWN_ESC_NONE,
	    c, "Battle of Camerone, turn 3.");
	assert_renders("{{ game.name }}|{{game.missing}}|{{missing}}|"
	    "{{game.name.x}}", CROWN_ESC_NONE, c, "Puebla|||");
	assert_renders("{{yes}} {{no}} {{units}} {{game}}", CROWN_ESC_NONE, c,
	    "true false  ");
	/* escaped by default, raw with {{{ }}} and {{& }} */
	assert_renders("{{odd}}", CROWN_ESC_MARKDOWN, c,
	    "a\\*b\\_c \\[x\\] \\<y\\> \\|z\\| \\`q\\` \\\\");
	assert_renders("{{{odd}}}={{& odd}}", CROWN_ESC_MARKDOWN, c,
	    "a*b_c [x] <y> |z| `q` \\=a*b_c [x] <y> |z| `q` \\");
	assert_renders("<t a=\"{{odd}}\"/>", CROWN_ESC_XML, c,
	    "<t a=\"a*b_c [x] &lt;y&gt; |z| `q` \\\"/>");
	crown_tval_free(c);
}

static void
test_sections(void **state)
{
	struct crown_tval	*c = sample();

	assert_renders("{{#units}}{{name}}{{#figures}} ({{figures}})"
	    "{{/figures}}{{^_last}}, {{/_last}}{{/units}}", CROWN_ESC_NONE, c,
	    "Legion (12), Militia, Lancers");
	assert_renders("{{#units}}{{_index}}{{#_first}}F{{/_first}}"
	    "{{#routing}}R{{/routing}} {{/units}}", CROWN_ESC_NONE, c,
	    "1F 2 3R ");
	assert_renders("{{#words}}<{{.}}>{{/words}}", CROWN_ESC_NONE, c,
	    "<one><two>");
	assert_renders("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}n{{/no}}"
	    "{{^yes}}y{{/yes}}", CROWN_ESC_NONE, c, "Yn");
	assert_renders("{{#empty}}E{{/empty}}{{^empty}}e{{/empty}}"
	    "{{#nothing}}L{{/nothing}}{{^nothing}}l{{/nothing}}"
	    "{{#missing}}M{{/missing}}{{^missing}}m{{/missing}}",
	    CROWN_ESC_NONE, c, "elm");
	/* a map is entered once; names not in it are found outside */
	assert_renders("{{#game}}{{name}} at turn {{turn}}{{/game}}",
	    CROWN_ESC_NONE, c, "Puebla at turn 3");
	assert_renders("{{#game}}{{#inner}}[{{name}}]{{/inner}}{{/game}}"
	    "{{#game.inner}}[{{name}}]{{/game.inner}}", CROWN_ESC_NONE, c,
	    "[Puebla][Camerone]");
	/* a string section: "." is the string */
	assert_renders("{{#name}}({{.}}){{/name}}", CROWN_ESC_NONE, c,
	    "(Camerone)");
	crown_tval_free(c);
}

static void
test_standalone_and_comments(void **state)
{
	struct crown_tval	*c = sample();

	assert_renders("Units:\n{{#units}}\n  - {{name}}\n{{/units}}\nEnd\n",
	    CROWN_ESC_NONE, c,
	    "Units:\n  - Legion\n  - Militia\n  - Lancers\nEnd\n");
	assert_renders("a\n  {{! a comment\n  over lines }}  \nb\r\n"
	    "{{#no}}\r\nx\r\n{{/no}}\r\nc", CROWN_ESC_NONE, c, "a\nb\r\nc");
	/* not alone on its line: the line stays */
	assert_renders("a {{#yes}}b{{/yes}}\n", CROWN_ESC_NONE, c, "a b\n");
	assert_renders("{{#yes}}\n{{/yes}}", CROWN_ESC_NONE, c, "");
	/* "}}" alone is text; a value's own braces are not tags */
	assert_renders("}} {{name}} }", CROWN_ESC_NONE, c, "}} Camerone }");
	crown_tval_free(c);
}

static void
test_markdown_escape(void **state)
{
	struct crown_buf	b = { 0 };

	crown_buf_puts(&b, "");
	crown_escape_markdown(&b, "# Head - 1. item\nline", true);
	assert_string_equal(b.data, "\\# Head - 1. item line");
	b.len = 0;
	crown_escape_markdown(&b, "12. and 3) and + - =", true);
	assert_string_equal(b.data, "12\\. and 3) and + - =");
	b.len = 0;
	crown_escape_markdown(&b, "  -x", true);
	assert_string_equal(b.data, "  \\-x");
	b.len = 0;
	crown_escape_markdown(&b, "# mid-line", false);
	assert_string_equal(b.data, "# mid-line");
	b.len = 0;
	crown_escape_markdown(&b, "42", true);
	assert_string_equal(b.data, "42");
	b.len = 0;
	crown_escape_markdown(&b, "a\r\nb", false);
	assert_string_equal(b.data, "a b");
	/* an entity would be read as the character it names: "A &copy; B"
	 * must not become "A (c) B"; a lone & stays as it is */
	b.len = 0;
	crown_escape_markdown(&b, "A &copy; B &#169; & C&D", false);
	assert_string_equal(b.data, "A \\&copy; B \\&#169; & C\\&D");
	crown_buf_release(&b);
}

static void
test_markdown_line_start(void **state)
{
	struct crown_tval	*c = crown_tval_map();

	/* a value that opens a line is escaped as a line start */
	crown_tmap_str(c, "h", "#1 company");
	assert_renders("{{h}}\n  {{h}}\n- {{h}}", CROWN_ESC_MARKDOWN, c,
	    "\\#1 company\n  \\#1 company\n- #1 company");
	crown_tval_free(c);
}

static void
test_xml_escape(void **state)
{
	struct crown_buf	b = { 0 };

	crown_buf_puts(&b, "");
	crown_escape_xml(&b, "Fish & <chips> \"'\x01\t\n");
	assert_string_equal(b.data,
	    "Fish &amp; &lt;chips&gt; &quot;&apos;\t\n");
	crown_buf_release(&b);
	assert_int_equal(crown_escape_for("report.md"), CROWN_ESC_MARKDOWN);
	assert_int_equal(crown_escape_for("report-french.md"),
	    CROWN_ESC_MARKDOWN);
	assert_int_equal(crown_escape_for("map.svg"), CROWN_ESC_XML);
	assert_int_equal(crown_escape_for("notes.txt"), CROWN_ESC_NONE);
	assert_int_equal(crown_escape_for("md"), CROWN_ESC_NONE);
}

static void
test_syntax_errors(void **state)
{
	assert_fails("ab\n  {{#units}}\nx", CROWN_EINVALID,
	    "t.tmpl:2:3: error: '{{#units}}' is never closed");
	assert_fails("{{#a}}\n{{#b}}{{/a}}{{/b}}", CROWN_EINVALID,
	    "t.tmpl:2:7: error: '{{/a}}' does not close '{{#b}}' (opened at "
	    "line 2, column 1)");
	assert_fails("x {{/a}}", CROWN_EINVALID,
	    "t.tmpl:1:3: error: '{{/a}}' closes no section");
	assert_fails("one\ntwo {{name\n}}", CROWN_EINVALID,
	    "t.tmpl:2:5: error: '{{' is not closed by '}}' on its line");
	assert_fails("{{{name}}", CROWN_EINVALID,
	    "t.tmpl:1:1: error: '{{{' is not closed by '}}}'");
	assert_fails("é {{bad name}}", CROWN_EINVALID,
	    "t.tmpl:1:3: error: bad name 'bad name' in '{{'");
	assert_fails("{{#}}", CROWN_EINVALID,
	    "t.tmpl:1:1: error: a tag without a name: '{{#}}'");
	assert_fails("{{=<% %>=}}", CROWN_EINVALID,
	    "t.tmpl:1:1: error: changing the delimiters");
	assert_fails("{{> ../etc/passwd}}", CROWN_EINVALID,
	    "bad name '../etc/passwd' in '{{>'");
	/* a name is "." or words of A-Z a-z 0-9 _ - joined by single dots */
	assert_fails("{{a..b}}", CROWN_EINVALID, "bad name 'a..b' in '{{'");
	assert_fails("{{#.a}}{{/.a}}", CROWN_EINVALID,
	    "bad name '.a' in '{{#'");
	assert_fails("{{a.}}", CROWN_EINVALID, "bad name 'a.' in '{{'");
	assert_fails("{{..}}", CROWN_EINVALID, "bad name '..' in '{{'");
	assert_fails("{{a\xc3\xa9}}", CROWN_EINVALID,
	    "bad name 'a\xc3\xa9' in '{{'");
}

static void
test_names(void **state)
{
	struct crown_tval	*c = crown_tval_map(), *m;

	m = crown_tmap_map(c, "a-b_C9");
	crown_tmap_str(m, "x-1", "one");
	crown_tmap_str(c, "_", "two");
	assert_renders("{{a-b_C9.x-1}} {{_}} {{#_}}{{.}}{{/_}}",
	    CROWN_ESC_NONE, c, "one two two");
	crown_tval_free(c);
}

static void
test_every_error_reported(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_tval	*c = crown_tval_map();
	char			*o;
	int			 e;

	o = render("{{/x}}\n{{bad!}}\n{{#open}}", CROWN_ESC_NONE, c, &e, &d);
	assert_int_equal(e, CROWN_EINVALID);
	assert_int_equal(d.n, 3);
	assert_diag(&d, "t.tmpl:1:1:");
	assert_diag(&d, "t.tmpl:2:1:");
	assert_diag(&d, "t.tmpl:3:1:");
	free(o);
	crown_tval_free(c);
	crown_diags_release(&d);
}

static void
write_file(const char *dir, const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, name);
	FILE	*fp = fopen(p, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	free(p);
}

static void
rm_dir(const char *dir, const char *const *names)
{
	char	*p;

	for (; *names != NULL; names++) {
		p = xasprintf("%s/%s", dir, *names);
		unlink(p);
		free(p);
	}
	rmdir(dir);
}

static void
test_partials(void **state)
{
	static const char *const files[] = {
		"main.md.tmpl", "row.md.tmpl", "self.tmpl", "broken.tmpl",
		"usesmissing.tmpl", "never.tmpl", NULL
	};
	char			 dir[] = "/tmp/crown-tmpl-XXXXXX";
	struct crown_diags	 d = { 0 };
	struct crown_tmpl_set	*set;
	struct crown_tval	*c = sample();
	struct crown_buf	 b = { 0 };
	int			 e;

	assert_non_null(mkdtemp(dir));
	write_file(dir, "main.md.tmpl", "# {{name}}\n{{#units}}\n"
	    "{{> row.md}}\n{{/units}}\n{{#no}}\n{{> never}}\n{{/no}}\n");
	write_file(dir, "row.md.tmpl", "- {{name}} [{{_index}}]\n");
	write_file(dir, "self.tmpl", "x{{> self}}");
	write_file(dir, "broken.tmpl", "ok\n{{#a}}\n");
	write_file(dir, "usesmissing.tmpl", "a\n  {{> nowhere}}\n"
	    "{{> nowhere}}\n");

	/* a partial named only under a false section is still required */
	set = crown_tmpl_set_new(dir);
	e = crown_tmpl_render(&b, set, "main.md", CROWN_ESC_MARKDOWN, c, &d);
	assert_int_equal(e, CROWN_ENOTFOUND);
	assert_diag(&d, "main.md.tmpl:6:1: error: no partial 'never' "
	    "(looked for ");
	crown_tmpl_set_free(set);
	crown_diags_release(&d);

	write_file(dir, "never.tmpl", "never\n");
	set = crown_tmpl_set_new(dir);
	b.len = 0;
	e = crown_tmpl_render(&b, set, "main.md", CROWN_ESC_MARKDOWN, c, &d);
	assert_no_diags(&d);
	assert_int_equal(e, 0);
	/* the template's own text is not escaped, values are */
	assert_string_equal(b.data, "# Camerone\n- Legion [1]\n"
	    "- Militia [2]\n- Lancers [3]\n");

	/* recursion stops at a depth, with a diagnostic */
	b.len = 0;
	e = crown_tmpl_render(&b, set, "self", CROWN_ESC_NONE, c, &d);
	assert_int_equal(e, CROWN_EINVALID);
	assert_diag(&d, "self.tmpl:1:2: error: partials nest deeper than 32");
	crown_diags_release(&d);

	/* a template with a syntax error: 65; a missing one: 66 */
	e = crown_tmpl_load(set, "broken", &d);
	assert_int_equal(e, CROWN_EINVALID);
	assert_diag(&d, "broken.tmpl:2:1: error: '{{#a}}' is never closed");
	crown_diags_release(&d);
	/* asked again: refused again, with a reason */
	e = crown_tmpl_render(&b, set, "broken", CROWN_ESC_NONE, c, &d);
	assert_int_equal(e, CROWN_EINVALID);
	assert_diag(&d, "broken.tmpl: error: template 'broken' cannot be "
	    "used: its problems were reported when it was read");
	crown_diags_release(&d);
	e = crown_tmpl_load(set, "usesmissing", &d);
	assert_int_equal(e, CROWN_ENOTFOUND);
	assert_diag(&d, "usesmissing.tmpl:2:3: error: no partial 'nowhere'");
	assert_diag(&d, "usesmissing.tmpl:3:1: error: no partial 'nowhere'");
	crown_diags_release(&d);
	e = crown_tmpl_load(set, "absent", &d);
	assert_int_equal(e, CROWN_ENOTFOUND);
	assert_diag(&d, "absent.tmpl: error: no template 'absent'");
	crown_diags_release(&d);
	crown_tmpl_set_free(set);

	crown_buf_release(&b);
	crown_tval_free(c);
	rm_dir(dir, files);
}

static void
test_data(void **state)
{
	struct crown_tval	*m = crown_tval_map();

	crown_tmap_str(m, "a", "1");
	crown_tmap_str(m, "a", "2");
	crown_tmap_str(m, "b", NULL);
	crown_tmap_num2(m, "z", -0.001);
	crown_tmap_num2(m, "p", 12.346);
	crown_tmap_printf(m, "f", "%+d", 2);
	/* a key put again hides the older value */
	assert_int_equal(crown_tval_count(m), 5);
	assert_string_equal(crown_tmap_get(m, "a")->str, "2");
	assert_null(crown_tmap_get(m, "b"));
	assert_string_equal(crown_tmap_get(m, "z")->str, "0.00");
	assert_string_equal(crown_tmap_get(m, "p")->str, "12.35");
	assert_string_equal(crown_tmap_get(m, "f")->str, "+2");
	assert_true(crown_tval_truthy(m));
	assert_false(crown_tval_truthy(NULL));
	crown_tval_free(m);
}

/* A value shared by two lists (crown_tlist_ref): rendered in both, and a
 * side's extra keys on one do not show in the other. */
static void
test_shared_values(void **state)
{
	struct crown_tval	*root = crown_tval_map(), *base, *a, *b, *r;
	struct crown_tval	*made, *items;
	int			 error;
	char			*out;
	struct crown_diags	 d = { 0 };

	made = crown_tmap_list(root, "made");
	base = crown_tlist_map(made);
	crown_tmap_str(base, "name", "Legion");
	items = crown_tmap_list(base, "items");
	crown_tlist_str(items, "x");
	crown_tlist_str(items, "y");
	a = crown_tmap_map(root, "a");
	b = crown_tmap_map(root, "b");
	crown_tlist_ref(crown_tmap_list(a, "units"), base);
	r = crown_tlist_ref(crown_tmap_list(b, "units"), base);
	crown_tmap_bool(r, "own", true);
	crown_tmap_str(r, "name", "3rd Company");
	crown_tmap_ref(b, "first", r);

	out = render("{{#a.units}}{{name}}{{#own}} (own){{/own}}:"
	    "{{#items}}{{.}}{{/items}};{{/a.units}}"
	    "{{#b.units}}{{name}}{{#own}} (own){{/own}}:"
	    "{{#items}}{{.}}{{/items}};{{/b.units}}{{b.first.name}}"
	    "{{#b.first.items}}{{_index}}{{/b.first.items}}",
	    CROWN_ESC_NONE, root, &error, &d);
	assert_int_equal(error, 0);
	assert_string_equal(out, "Legion:xy;3rd Company (own):xy;"
	    "3rd Company12");
	/* lists shared, then grown on both sides: each keeps its own */
	{
		struct crown_tval	*l1, *l2;
		char			*o2;

		l1 = crown_tmap_list(root, "l1");
		crown_tlist_str(l1, "1");
		crown_tlist_str(l1, "2");
		l2 = crown_tmap_ref(root, "l2", l1);
		crown_tlist_str(l1, "4");	/* the original first */
		crown_tlist_str(l2, "3");
		crown_tlist_str(l1, "5");
		o2 = render("{{#l1}}{{.}}{{/l1}} {{#l2}}{{.}}{{/l2}}",
		    CROWN_ESC_NONE, root, &error, &d);
		assert_int_equal(error, 0);
		assert_string_equal(o2, "1245 123");
		free(o2);
	}
	/* the original is as it was */
	assert_string_equal(crown_tmap_get(base, "name")->str, "Legion");
	assert_null(crown_tmap_get(base, "own"));
	assert_int_equal(crown_tval_count(base), 2);
	assert_int_equal(crown_tval_count(r), 4);
	free(out);
	crown_diags_release(&d);
	crown_tval_free(root);
}

/* A render that would go on too long, or grow too large, stops with a
 * diagnostic; just under the limits it renders. */
static void
test_render_limits(void **state)
{
	struct crown_tval	*root = crown_tval_map(), *list;
	struct crown_tmpl_set	*set;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	const char		*nest = "{{#l}}{{#l}}{{#l}}{{#l}}x{{/l}}{{/l}}"
				    "{{/l}}{{/l}}";
	int			 i;

	list = crown_tmap_list(root, "l");
	for (i = 0; i < 3; i++)
		crown_tlist_str(list, "a");
	/* the outer section, then 3, 9 and 27 inner ones and 81 "x": 121 */
	set = crown_tmpl_set_new(NULL);
	crown_tmpl_set_limits(set, 121, 81);
	assert_int_equal(crown_tmpl_set_add(set, "t", nest, strlen(nest), &d),
	    0);
	assert_int_equal(crown_tmpl_render(&b, set, "t", CROWN_ESC_NONE, root,
	    &d), 0);
	assert_int_equal(b.len, 81);
	crown_buf_release(&b);
	crown_tmpl_set_limits(set, 120, 81);
	assert_int_equal(crown_tmpl_render(&b, set, "t", CROWN_ESC_NONE, root,
	    &d), CROWN_EINVALID);
	assert_diag(&d, "t.tmpl:1:");
	assert_diag(&d, "renders more than 120 tags and pieces of text");
	crown_diags_release(&d);
	crown_buf_release(&b);
	crown_tmpl_set_limits(set, 1000, 80);
	assert_int_equal(crown_tmpl_render(&b, set, "t", CROWN_ESC_NONE, root,
	    &d), CROWN_EINVALID);
	assert_diag(&d, "renders more than 80 bytes");
	crown_diags_release(&d);
	crown_buf_release(&b);
	crown_tmpl_set_free(set);
	crown_tval_free(root);
}

/* Many keys, many values: every one found, the missing not (the bloom
 * bits let most misses skip the walk, never a hit). */
static void
test_many_keys(void **state)
{
	struct crown_tval	*m = crown_tval_map();
	char			 key[32], want[32];
	int			 i;

	for (i = 0; i < 2000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		crown_tmap_int(m, key, i * 7);
	}
	for (i = 0; i < 2000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		snprintf(want, sizeof(want), "%d", i * 7);
		assert_non_null(crown_tmap_get(m, key));
		assert_string_equal(crown_tmap_get(m, key)->str, want);
		snprintf(key, sizeof(key), "x%d", i);
		assert_null(crown_tmap_get(m, key));
	}
	crown_tmap_int(m, "long", -1234567890L);
	assert_string_equal(crown_tmap_get(m, "long")->str, "-1234567890");
	crown_tval_free(m);
}

/* A getter's keys: "name" from its argument, "n" counted, "list" a list
 * of two; it counts its calls in *calls. */
struct getter_arg {
	const char	*name;
	int		 calls;
};

static bool
test_get(struct crown_tval *m, const char *key, size_t len, const void *arg)
{
	struct getter_arg	*g = (struct getter_arg *)arg;
	struct crown_tval	*l;

	g->calls++;
	if (len == 4 && memcmp(key, "name", 4) == 0)
		crown_tmap_str(m, "name", g->name);
	else if (len == 4 && memcmp(key, "list", 4) == 0) {
		l = crown_tmap_list(m, "list");
		crown_tlist_str(l, "a");
		crown_tlist_str(l, "b");
	} else if (len == 5 && memcmp(key, "inner", 5) == 0)
		crown_tmap_str(crown_tmap_map(m, "inner"), "x", "deep");
	else
		return false;
	return true;
}

/*
 * A map made as it is asked for (crown_tmap_getter) reads as one whose
 * values were all put at once: in templates (dotted paths too, whose
 * parts are not NUL-terminated), through crown_tmap_get, through a
 * reference; a value is made once; a key it has not is absent and the
 * names of outer contexts are still found; a value put on a reference
 * hides the getter's.
 */
static void
test_getter_map(void **state)
{
	struct getter_arg	 g = { "Danjou", 0 };
	struct crown_tval	*root = crown_tval_map(), *m, *list, *r;

	(void)state;
	crown_tmap_str(root, "outer", "o");
	m = crown_tmap_map(root, "m");
	crown_tmap_getter(m, test_get, &g);
	assert_renders("{{m.name}} {{#m}}{{name}}{{outer}}[{{missing}}]"
	    "{{#list}}{{.}}{{/list}}{{inner.x}}{{/m}}", CROWN_ESC_NONE, root,
	    "Danjou Danjouo[]abdeep");
	/* made once each: name, then missing, outer (asked of m on the
	 * way out), list and inner, each once */
	assert_int_equal(g.calls, 5);
	assert_string_equal(crown_tmap_get(m, "name")->str, "Danjou");
	assert_null(crown_tmap_get(m, "nothing"));
	assert_int_equal(g.calls, 6);
	/* a reference shares what the getter made and what it has not; its
	 * own values hide the getter's */
	list = crown_tmap_list(root, "refs");
	r = crown_tlist_ref(list, m);
	crown_tmap_str(r, "name", "Milán");
	assert_renders("{{#refs}}{{name}} {{#list}}{{.}}{{/list}}{{missing}}"
	    "{{nothing}}{{/refs}}", CROWN_ESC_NONE, root, "Milán ab");
	assert_int_equal(g.calls, 6);
	assert_renders("{{m.name}}", CROWN_ESC_NONE, root, "Danjou");
	/* a value put on the map later is found, the getter's still */
	crown_tmap_str(m, "missing", "found");
	assert_renders("{{m.missing}} {{m.inner.x}}", CROWN_ESC_NONE, root,
	    "found deep");
	assert_int_equal(g.calls, 6);
	crown_tval_free(root);
}

/*
 * A template's names are bound to the tree they were looked up in, and
 * bound again for another tree (one freed and one made where it was, too)
 * and for a key the tree did not have when last looked for.
 */
static void
test_names_rebound(void **state)
{
	struct crown_tmpl_set	*set = crown_tmpl_set_new(NULL);
	struct crown_diags	 d = { 0 };
	struct crown_tval	*a, *b;
	struct crown_buf	 out = { 0 };
	const char		*text = "{{x}}|{{#m}}{{y}}{{x}}{{/m}}";
	int			 i;

	(void)state;
	assert_int_equal(crown_tmpl_set_add(set, "t", text, strlen(text), &d),
	    0);
#define RENDERS(ctx, want) do {							out.len = 0;								crown_buf_puts(&out, "");						assert_int_equal(crown_tmpl_render(&out, set, "t",			    CROWN_ESC_NONE, (ctx), &d), 0);					assert_string_equal(out.data, (want));				} while (0)
	a = crown_tval_map();
	crown_tmap_map(a, "m");
	RENDERS(a, "|");
	crown_tmap_str(a, "x", "ax");
	RENDERS(a, "ax|ax");
	crown_tmap_str((struct crown_tval *)crown_tmap_get(a, "m"), "y",
	    "ay");
	RENDERS(a, "ax|ayax");
	for (i = 0; i < 3; i++) {
		b = crown_tval_map();
		crown_tmap_str(crown_tmap_map(b, "m"), "x", "bx");
		RENDERS(b, "|bx");
		crown_tval_free(b);
	}
	RENDERS(a, "ax|ayax");
	crown_tval_free(a);
	b = crown_tval_map();
	crown_tmap_str(b, "y", "by");
	RENDERS(b, "|");
	crown_tmap_map(b, "m");
	RENDERS(b, "|by");
#undef RENDERS
	crown_tval_free(b);
	crown_buf_release(&out);
	assert_no_diags(&d);
	crown_tmpl_set_free(set);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variables),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_standalone_and_comments),
		cmocka_unit_test(test_markdown_escape),
		cmocka_unit_test(test_markdown_line_start),
		cmocka_unit_test(test_xml_escape),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_every_error_reported),
		cmocka_unit_test(test_partials),
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_shared_values),
		cmocka_unit_test(test_getter_map),
		cmocka_unit_test(test_names_rebound),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_render_limits),
	};

	return cmocka_run_group_tests_name("template", tests, NULL, NULL);
}
