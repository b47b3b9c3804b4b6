/*
 * report.c: reports and map of a turn (issue 7 fills this in).
 */
#include <stdlib.h>
#include <string.h>

#include "crown/report.h"

struct crown_buf *
crown_outputs_add(struct crown_outputs *o, const char *name)
{
	struct crown_output	*out;

	crown_grow(&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	out = &o->v[o->n++];
	memset(out, 0, sizeof(*out));
	out->name = xstrdup(name);
	crown_buf_puts(&out->data, "");
	return &out->data;
}

void
crown_outputs_release(struct crown_outputs *o)
{
	size_t	i;

	for (i = 0; i < o->n; i++) {
		free(o->v[i].name);
		crown_buf_release(&o->v[i].data);
	}
	free(o->v);
	memset(o, 0, sizeof(*o));
}

char *
crown_templates_find(void)
{
	return crown_data_find("templates");
}

int
crown_report_render(struct crown_outputs *out,
    const struct crown_report_input *in, struct crown_diags *d)
{
	return 0;
}
