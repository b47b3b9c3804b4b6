/*
 * bench.c: crown's benchmarks (make bench, issue 10).
 *
 *   bench gen N DIR     write DIR/state.yaml and DIR/{a,b}.yaml: a battle
 *                       of N units a side with terrain, every unit ordered
 *                       to move and fire
 *   bench run N [RUNS]  generate, then print one row of figures: the
 *                       whole `crown resolve` (wall time and peak
 *                       memory), the YAML it reads and writes alone, the
 *                       engine alone and the libyaml floor
 *   bench steps N [RUNS]
 *                       generate, then print where the whole command's
 *                       time goes: each step `crown resolve --timings`
 *                       names
 *   bench floor DIR     libyaml alone parsing DIR/state.yaml and
 *                       DIR/{a,b}.yaml, event by event, nothing kept:
 *                       the floor of `crown resolve`'s load, for
 *                       contrib/bench.sh to count under callgrind
 *
 * Times are medians over RUNS runs (default 5) of CLOCK_MONOTONIC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <yaml.h>

#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define SPACING_X	6.0	/* inches between unit centres in a row */
#define SPACING_Y	4.0	/* between rows */
#define GAP		10.0	/* between the two front lines */

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

static void
gen(long n, const char *dir)
{
	long	 cols, rows, i, r, c, k;
	double	 width, height, side_depth, x, y, ty;
	char	*path;
	FILE	*fp, *fa, *fb;

	cols = 1;
	while (cols * cols < n)
		cols++;
	rows = (n + cols - 1) / cols;
	side_depth = (double)rows * SPACING_Y;
	width = (double)cols * SPACING_X + 12;
	height = 2 * side_depth + GAP + 24;
	mkdir(dir, 0777);
	path = xasprintf("%s/state.yaml", dir);
	if ((fp = fopen(path, "w")) == NULL)
		die(path);
	free(path);
	fprintf(fp, "game: {name: Bench, turn: 0, attacker: a}\n"
	    "table: {width: %.2f, height: %.2f}\n"
	    "sides:\n  - {id: a, name: South, home_edge: south}\n"
	    "  - {id: b, name: North, home_edge: north}\nterrain:\n",
	    width, height);
	/* a feature for every ten units a side, away from the lines */
	for (k = 0; k < n / 10; k++) {
		x = 6 + (double)((k * 7919) % (long)(width - 12));
		ty = 2 + (double)((k * 104729) % (long)(height - 8));
		fprintf(fp, "  - {id: t%ld, type: %s, polygon: [[%.2f, %.2f], "
		    "[%.2f, %.2f], [%.2f, %.2f], [%.2f, %.2f]]}\n", k,
		    k % 3 == 0 ? "hill" : k % 3 == 1 ? "scrub" : "light_woods",
		    x, ty, x + 3, ty, x + 3, ty + 2, x, ty + 2);
	}
	fputs("units:\n", fp);
	path = xasprintf("%s/a.yaml", dir);
	if ((fa = fopen(path, "w")) == NULL)
		die(path);
	free(path);
	path = xasprintf("%s/b.yaml", dir);
	if ((fb = fopen(path, "w")) == NULL)
		die(path);
	free(path);
	fputs("game: Bench\nturn: 1\nside: a\norders:\n", fa);
	fputs("game: Bench\nturn: 1\nside: b\norders:\n", fb);
	for (i = 0; i < 2 * n; i++) {
		bool south = i < n;

		k = south ? i : i - n;
		r = k / cols;
		c = k % cols;
		x = 6 + (double)c * SPACING_X + SPACING_X / 2;
		/* row 0 is each side's front line, GAP inches apart */
		y = south ? 12 + side_depth - (double)r * SPACING_Y :
		    12 + side_depth + GAP + (double)r * SPACING_Y;
		fprintf(fp, "  - {id: %c%ld, side: %c, type: infantry, "
		    "class: regular, weapon: rifled_musket, stands: [4, 4, 4, "
		    "4], x: %.2f, y: %.2f, facing: %d}\n", south ? 'a' : 'b',
		    k, south ? 'a' : 'b', x, y, south ? 0 : 180);
		/* move two inches towards the enemy, then fire at the enemy
		 * unit straight ahead */
		fprintf(south ? fa : fb, "  - unit: %c%ld\n    actions:\n"
		    "      - move: {to: [%.2f, %.2f]}\n      - fire: %c%ld\n",
		    south ? 'a' : 'b', k, x, south ? y + 2 : y - 2,
		    south ? 'b' : 'a', k);
	}
	fclose(fp);
	fclose(fa);
	fclose(fb);
}

static void
load(const char *dir, struct crown_state **s, struct crown_rules **rules,
    struct crown_orders **o)
{
	struct crown_diags	 d = { 0 };
	char			*p;
	int			 bad = 0;

	p = xasprintf("%s/state.yaml", dir);
	bad |= crown_state_load(s, p, &d);
	free(p);
	bad |= crown_rules_load(rules, "rules/maximilian.yaml", &d);
	p = xasprintf("%s/a.yaml", dir);
	bad |= crown_orders_load(&o[0], p, &d);
	free(p);
	p = xasprintf("%s/b.yaml", dir);
	bad |= crown_orders_load(&o[1], p, &d);
	free(p);
	if (!bad)
		bad |= crown_orders_validate_set(o, 2, *s, *rules, &d);
	if (bad) {
		crown_diags_print(stderr, &d);
		exit(1);
	}
}

/* The engine alone: resolve a fresh copy of the state, no I/O. */
static double
time_engine(struct crown_state *s, struct crown_rules *rules,
    struct crown_orders **o)
{
	static const unsigned char secret[CROWN_SECRET_BYTES];
	struct crown_diags	 d = { 0 };
	struct crown_events	 ev = { 0 };
	struct crown_state	*c = crown_state_clone(s);
	struct crown_dice	*dice = crown_dice_campaign(secret);
	double			 t;

	t = now();
	if (crown_resolve(c, o, 2, rules, dice, &ev, &d) != 0) {
		crown_diags_print(stderr, &d);
		exit(1);
	}
	t = now() - t;
	crown_events_release(&ev);
	crown_dice_free(dice);
	crown_state_free(c);
	return t;
}

/* The floor: libyaml's parse and emit of the same state, nothing else. */
static double
time_floor(const char *dir)
{
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc;
	struct crown_buf	 out = { 0 };
	char			*p, *buf;
	size_t			 len;
	double			 t;

	p = xasprintf("%s/state.yaml", dir);
	if (crown_read_file(&buf, &len, p, 0, &d) != 0)
		exit(1);
	t = now();
	if (crown_ydoc_parse(&doc, p, buf, len, NULL, &d) != 0)
		exit(1);
	crown_ynode_emit(&out, crown_ydoc_root(doc));
	t = now() - t;
	crown_ydoc_free(doc);
	crown_buf_release(&out);
	free(buf);
	free(p);
	return t;
}

/* Parse path (into *doc if doc is not NULL, else freed); the time. */
static double
parse_time(const char *path, struct crown_ydoc **doc)
{
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*y;
	char			*buf;
	size_t			 len;
	double			 t;

	if (crown_read_file(&buf, &len, path, 0, &d) != 0)
		exit(1);
	t = now();
	if (crown_ydoc_parse(&y, path, buf, len, NULL, &d) != 0)
		exit(1);
	t = now() - t;
	free(buf);
	if (doc != NULL)
		*doc = y;
	else
		crown_ydoc_free(y);
	return t;
}

/*
 * The YAML a whole turn cannot do without, through the same layer: parse
 * the state and both orders files, emit the new state and the events
 * (as the command wrote them in DIR/out).  The whole command's floor.
 */
static double
time_yaml_io(const char *dir)
{
	static const char *const in[] = { "state.yaml", "a.yaml", "b.yaml" };
	static const char *const out[] = { "out/state.yaml",
	    "out/events.yaml" };
	struct crown_ydoc	*doc;
	struct crown_buf	 b = { 0 };
	double			 t = 0, t0;
	char			*p;
	size_t			 i;

	for (i = 0; i < CROWN_NELEM(in); i++) {
		p = xasprintf("%s/%s", dir, in[i]);
		t += parse_time(p, NULL);
		free(p);
	}
	for (i = 0; i < CROWN_NELEM(out); i++) {
		p = xasprintf("%s/%s", dir, out[i]);
		parse_time(p, &doc);
		t0 = now();
		crown_ynode_emit(&b, crown_ydoc_root(doc));
		t += now() - t0;
		crown_buf_release(&b);
		crown_ydoc_free(doc);
		free(p);
	}
	return t;
}

/* The whole command, as a child: wall time and its peak memory; with
 * timings, its --timings lines go to DIR/timings. */
static double
time_command(const char *crown, const char *dir, long *maxrss_kib,
    bool timings)
{
	struct rusage	ru;
	pid_t		pid;
	int		status;
	double		t;
	char		*state, *a, *b, *out, *secret;
	FILE		*fp;

	state = xasprintf("%s/state.yaml", dir);
	a = xasprintf("%s/a.yaml", dir);
	b = xasprintf("%s/b.yaml", dir);
	out = xasprintf("%s/out", dir);
	secret = xasprintf("%s/secret", dir);
	if ((fp = fopen(secret, "w")) == NULL)
		die(secret);
	fputs("000102030405060708090a0b0c0d0e0f"
	    "101112131415161718191a1b1c1d1e1f\n", fp);
	fclose(fp);
	t = now();
	if ((pid = fork()) == 0) {
		char *tpath = xasprintf("%s/timings", dir);

		if (freopen("/dev/null", "w", stdout) == NULL ||
		    (timings && freopen(tpath, "w", stderr) == NULL))
			_exit(127);
		execl(crown, crown, "resolve", "--state", state, "--orders", a,
		    "--orders", b, "--secret-file", secret, "--out", out,
		    timings ? "--timings" : (char *)NULL, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench: crown resolve failed\n");
		exit(1);
	}
	t = now() - t;
	*maxrss_kib = ru.ru_maxrss;
	free(state);
	free(a);
	free(b);
	free(out);
	free(secret);
	return t;
}

static void
run(long n, int runs)
{
	struct crown_state	*s;
	struct crown_rules	*rules;
	struct crown_orders	*o[2];
	char			 dir[] = "/tmp/crown-bench-XXXXXX";
	double			*te, *tf, *tc, *ti;
	long			 rss = 0, r1;
	int			 i;

	if (mkdtemp(dir) == NULL)
		die("mkdtemp");
	gen(n, dir);
	load(dir, &s, &rules, o);
	te = xcalloc((size_t)runs, sizeof(*te));
	tf = xcalloc((size_t)runs, sizeof(*tf));
	tc = xcalloc((size_t)runs, sizeof(*tc));
	ti = xcalloc((size_t)runs, sizeof(*ti));
	for (i = 0; i < runs; i++) {
		te[i] = time_engine(s, rules, o);
		tf[i] = time_floor(dir);
		tc[i] = time_command("build/crown", dir, &r1, false);
		ti[i] = time_yaml_io(dir);
		if (r1 > rss)
			rss = r1;
	}
	printf("| %6ld | %9.1f | %9.1f | %9.1f | %9.1f | %8.1f |\n", n,
	    median(tc, runs) * 1e3, median(ti, runs) * 1e3,
	    median(te, runs) * 1e3, median(tf, runs) * 1e3,
	    (double)rss / 1024.0);
	fflush(stdout);
	free(te);
	free(tf);
	free(tc);
	free(ti);
	crown_orders_free(o[0]);
	crown_orders_free(o[1]);
	crown_rules_free(rules);
	crown_state_free(s);
	if (fork() == 0) {
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
		_exit(127);
	}
	wait(NULL);
}

#define MAX_STEPS	16

/* Where the time of `crown resolve` goes: the median of each step. */
static void
steps(long n, int runs)
{
	char	 dir[] = "/tmp/crown-bench-XXXXXX", line[256], *p, *end;
	char	*names[MAX_STEPS] = { NULL }, *tpath;
	double	*t[MAX_STEPS], v;
	long	 rss;
	size_t	 nsteps = 0, k;
	int	 i;
	FILE	*fp;

	if (mkdtemp(dir) == NULL)
		die("mkdtemp");
	gen(n, dir);
	tpath = xasprintf("%s/timings", dir);
	for (k = 0; k < MAX_STEPS; k++)
		t[k] = xcalloc((size_t)runs, sizeof(*t[k]));
	for (i = 0; i < runs; i++) {
		time_command("build/crown", dir, &rss, true);
		if ((fp = fopen(tpath, "r")) == NULL)
			die(tpath);
		/* "crown resolve: timing: STEP N.N ms", in the same order
		 * every run */
		for (k = 0; fgets(line, sizeof(line), fp) != NULL &&
		    k < MAX_STEPS;) {
			if ((p = strstr(line, "timing: ")) == NULL ||
			    (end = strrchr(line, ' ')) == NULL)
				continue;
			p += strlen("timing: ");
			while (end > p && end[-1] != ' ')
				end--;
			v = strtod(end, NULL);
			if (end > p)
				end[-1] = '\0';
			if (names[k] == NULL)
				names[k] = xstrdup(p);
			t[k++][i] = v;
			nsteps = k > nsteps ? k : nsteps;
		}
		fclose(fp);
	}
	printf("| step of `crown resolve`, %ld units a side | ms |\n"
	    "|---|---:|\n", n);
	for (k = 0; k < nsteps; k++)
		printf("| %s | %.1f |\n", names[k], median(t[k], runs));
	for (k = 0; k < MAX_STEPS; k++) {
		free(names[k]);
		free(t[k]);
	}
	free(tpath);
	if (fork() == 0) {
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
		_exit(127);
	}
	wait(NULL);
}

/*
 * libyaml's parser alone over the files a turn reads: every event
 * produced and deleted, no tree, no crown layer.  What crown's loading
 * cannot go below.
 */
static void
floor_parse(const char *dir)
{
	static const char *const in[] = { "state.yaml", "a.yaml", "b.yaml" };
	struct crown_diags	 d = { 0 };
	yaml_parser_t		 parser;
	yaml_event_t		 ev;
	char			*p, *buf;
	size_t			 i, len, nevents = 0;
	bool			 done;

	for (i = 0; i < CROWN_NELEM(in); i++) {
		p = xasprintf("%s/%s", dir, in[i]);
		if (crown_read_file(&buf, &len, p, 0, &d) != 0)
			exit(1);
		if (!yaml_parser_initialize(&parser))
			die("yaml_parser_initialize");
		yaml_parser_set_input_string(&parser,
		    (const unsigned char *)buf, len);
		for (done = false; !done; nevents++) {
			if (!yaml_parser_parse(&parser, &ev)) {
				fprintf(stderr, "bench: %s: %s\n", p,
				    parser.problem);
				exit(1);
			}
			done = ev.type == YAML_STREAM_END_EVENT;
			yaml_event_delete(&ev);
		}
		yaml_parser_delete(&parser);
		free(buf);
		free(p);
	}
	printf("%zu events\n", nevents);
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "floor") == 0) {
		floor_parse(argv[2]);
		return 0;
	}
	if (argc >= 4 && strcmp(argv[1], "gen") == 0) {
		gen(strtol(argv[2], NULL, 10), argv[3]);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "run") == 0) {
		run(strtol(argv[2], NULL, 10),
		    argc > 3 ? (int)strtol(argv[3], NULL, 10) : 5);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "steps") == 0) {
		steps(strtol(argv[2], NULL, 10),
		    argc > 3 ? (int)strtol(argv[3], NULL, 10) : 5);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "header") == 0) {
		printf("| units/side | turn, whole command (ms) | the turn's "
		    "YAML in and out alone (ms) | engine only (ms) | libyaml "
		    "parse+emit floor (ms) | peak memory (MiB) |\n"
		    "|---:|---:|---:|---:|---:|---:|\n");
		return 0;
	}
	fprintf(stderr, "usage: bench gen N DIR | run N [RUNS] | "
	    "steps N [RUNS] | floor DIR | header\n");
	return 2;
}
