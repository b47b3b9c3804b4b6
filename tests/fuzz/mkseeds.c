/*
 * mkseeds.c: the seed corpus of the fuzz targets, cut from the
 * conformance cases and the test data, so every run starts from inputs
 * that reach deep into the loaders and the engine.
 *
 *	mkseeds case OUTDIR CASE.yaml...
 *		for each case: OUTDIR/state/NAME.yaml (its state),
 *		OUTDIR/orders/NAME-N.yaml (each orders file),
 *		OUTDIR/dice/NAME.txt (its dice) and OUTDIR/turn/NAME.yaml
 *		(the case itself)
 *	mkseeds turn OUT STATE ORDERS...
 *		one turn input from a state file and orders files
 *
 * OUTDIR/{state,orders,dice,turn} must exist.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	write_out(const char *, const char *, size_t);
static char	*base_name(const char *);
static int	cut_case(const char *, const char *);
static void	indent(struct crown_buf *, const char *, const char *);
static int	join_turn(const char *, char **, int);

static int
write_out(const char *path, const char *data, size_t len)
{
	FILE	*fp;

	if ((fp = fopen(path, "wb")) == NULL ||
	    fwrite(data, 1, len, fp) != len || fclose(fp) != 0) {
		fprintf(stderr, "mkseeds: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

/* "tests/cases/R3.7-reform.yaml" -> "R3.7-reform" */
static char *
base_name(const char *path)
{
	const char	*b = strrchr(path, '/');
	const char	*dot;

	b = b != NULL ? b + 1 : path;
	dot = strrchr(b, '.');
	return xstrndup(b, dot != NULL ? (size_t)(dot - b) : strlen(b));
}

static int
cut_case(const char *outdir, const char *path)
{
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc;
	const struct crown_ynode	*root, *v;
	struct crown_buf		 b = { 0 };
	char				*name, *out, *text;
	size_t				 i, len;
	int				 bad = 0;

	if (crown_read_file(&text, &len, path, 0, &d) != 0 ||
	    crown_ydoc_parse(&doc, path, text, len, NULL, &d) != 0) {
		crown_diags_print(stderr, &d);
		crown_diags_release(&d);
		return 1;
	}
	name = base_name(path);
	out = xasprintf("%s/turn/%s.yaml", outdir, name);
	bad |= write_out(out, text, len);
	free(out);
	free(text);
	root = crown_ydoc_root(doc);
	if ((v = crown_ymap_get(root, "state")) != NULL &&
	    crown_ynode_emit(&b, v) == 0) {
		out = xasprintf("%s/state/%s.yaml", outdir, name);
		bad |= write_out(out, b.data, b.len);
		free(out);
	}
	crown_buf_release(&b);
	v = crown_ymap_get(root, "orders");
	for (i = 0; v != NULL && v->kind == CROWN_Y_SEQ && i < v->n; i++) {
		if (crown_ynode_emit(&b, v->item[i]) == 0) {
			out = xasprintf("%s/orders/%s-%zu.yaml", outdir, name,
			    i + 1);
			bad |= write_out(out, b.data, b.len);
			free(out);
		}
		crown_buf_release(&b);
	}
	v = crown_ymap_get(root, "dice");
	if (v != NULL && v->kind == CROWN_Y_SEQ) {
		crown_buf_puts(&b, "");
		for (i = 0; i < v->n; i++)
			if (v->item[i]->kind == CROWN_Y_SCALAR)
				crown_buf_printf(&b, "%s%s", i ? ", " : "",
				    v->item[i]->str);
		crown_buf_puts(&b, "\n");
		out = xasprintf("%s/dice/%s.txt", outdir, name);
		bad |= write_out(out, b.data, b.len);
		free(out);
		crown_buf_release(&b);
	}
	free(name);
	crown_ydoc_free(doc);
	crown_diags_release(&d);
	return bad;
}

/* Append text with every line indented; first starts the first line. */
static void
indent(struct crown_buf *b, const char *first, const char *text)
{
	const char	*p, *eol;

	crown_buf_puts(b, first);
	for (p = text; *p != '\0'; p = eol + 1) {
		if ((eol = strchr(p, '\n')) == NULL)
			eol = p + strlen(p);
		if (p != text)
			crown_buf_puts(b, "    ");
		crown_buf_add(b, p, (size_t)(eol - p));
		crown_buf_puts(b, "\n");
		if (*eol == '\0')
			break;
	}
}

static int
join_turn(const char *out, char **files, int n)
{
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	char			*text;
	size_t			 len;
	int			 i, bad;

	for (i = 0; i < n; i++) {
		if (crown_read_file(&text, &len, files[i], 0, &d) != 0) {
			crown_diags_print(stderr, &d);
			crown_diags_release(&d);
			crown_buf_release(&b);
			return 1;
		}
		if (i == 0)
			indent(&b, "state:\n    ", text);
		else
			indent(&b, i == 1 ? "orders:\n  - " : "  - ", text);
		free(text);
	}
	bad = write_out(out, b.data, b.len);
	crown_buf_release(&b);
	return bad;
}

int
main(int argc, char **argv)
{
	int	i, bad = 0;

	if (argc >= 3 && strcmp(argv[1], "case") == 0) {
		for (i = 3; i < argc; i++)
			bad |= cut_case(argv[2], argv[i]);
		return bad;
	}
	if (argc >= 4 && strcmp(argv[1], "turn") == 0)
		return join_turn(argv[2], argv + 3, argc - 3);
	fputs("usage: mkseeds case OUTDIR CASE...\n"
	    "       mkseeds turn OUT STATE ORDERS...\n", stderr);
	return 2;
}
