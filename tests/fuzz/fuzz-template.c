/*
 * fuzz-template.c: libFuzzer target for the report template renderer
 * (template.c) and its escaping.
 *
 * The input is a template, "main".  If it holds a NUL byte, what follows
 * is a second template, the partial "q"; a fixed partial "p" is there
 * too.  Each is rendered with a fixed data tree (values full of Markdown
 * and XML specials) in every escape mode; the input is also escaped as a
 * value.  Any template must render or be refused with a reason.
 */
#include <string.h>

#include "fuzz.h"

#include "crown/template.h"
#include "crown/xalloc.h"

static struct crown_tval *
fuzz_template_data(const char *value)
{
	struct crown_tval	*ctx, *list, *m;
	int			 i;

	ctx = crown_tval_map();
	m = crown_tmap_map(ctx, "game");
	crown_tmap_str(m, "name", "Camerone <1863> & *\"the\"* _crown_");
	crown_tmap_int(m, "turn", 3);
	crown_tmap_bool(ctx, "yes", true);
	crown_tmap_bool(ctx, "no", false);
	crown_tmap_str(ctx, "empty", "");
	crown_tmap_str(ctx, "input", value);
	crown_tmap_num2(ctx, "x", -0.004);
	list = crown_tmap_list(ctx, "units");
	for (i = 0; i < 3; i++) {
		m = crown_tlist_map(list);
		crown_tmap_printf(m, "name", "%d. Unit #%d | [x](y) ]]> \n- a",
		    i + 1, i);
		crown_tmap_int(m, "figures", 12 - i);
		crown_tlist_str(crown_tmap_list(m, "stands"), "4");
	}
	crown_tmap_list(ctx, "none");
	return ctx;
}

static int
fuzz_template(const uint8_t *data, size_t size)
{
	static const enum crown_escape esc[] = {
		CROWN_ESC_NONE, CROWN_ESC_MARKDOWN, CROWN_ESC_XML
	};
	static const char partial[] =
	    "{{#units}}[{{name}}{{^_last}}, {{/_last}}]{{/units}}\n";
	struct crown_diags	 d = { 0 };
	struct crown_tmpl_set	*set;
	struct crown_tval	*ctx;
	struct crown_buf	 out = { 0 };
	const char		*text = (const char *)data, *nul;
	char			*value;
	size_t			 len = size, i;
	int			 error;

	set = crown_tmpl_set_new(NULL);
	crown_tmpl_set_add(set, "p", partial, sizeof(partial) - 1, &d);
	if ((nul = memchr(text, '\0', size)) != NULL) {
		len = (size_t)(nul - text);
		crown_tmpl_set_add(set, "q", nul + 1, size - len - 1, &d);
	}
	crown_tmpl_set_add(set, "main", text, len, &d);
	value = xstrndup(text, len);
	ctx = fuzz_template_data(value);
	for (i = 0; i < CROWN_NELEM(esc); i++) {
		error = crown_tmpl_render(&out, set, "main", esc[i], ctx, &d);
		if (error != 0 && d.n == 0)
			crown_fuzz_fail("a template refused without a reason",
			    &d);
		crown_buf_release(&out);
		crown_diags_release(&d);
	}
	crown_escape_markdown(&out, value, true);
	crown_escape_markdown(&out, value, false);
	crown_escape_xml(&out, value);
	crown_buf_release(&out);
	crown_tval_free(ctx);
	free(value);
	crown_tmpl_set_free(set);
	crown_diags_release(&d);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_template)
