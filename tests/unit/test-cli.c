/*
 * test-cli.c: golden command-line tests.  Each tests/golden/NAME.yaml
 * gives the arguments, the exit status and the expected standard output
 * and error (exact, or lines that must appear), and files the run must
 * write.  "$TMP" in an argument is a fresh temporary directory, where
 * `fixtures` can make edited copies of the project's files first, and
 * `before` (a list of argument lists) runs crown first, each run to
 * succeed.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "crown/xalloc.h"
#include "crown/yaml.h"

#define MAX_ARGS 64

struct golden {
	char	*path;
};

static char *
subst(const char *arg, const char *tmp)
{
	struct crown_buf	 b = { 0 };
	const char		*p;

	crown_buf_puts(&b, "");
	while ((p = strstr(arg, "$TMP")) != NULL) {
		crown_buf_add(&b, arg, (size_t)(p - arg));
		crown_buf_puts(&b, tmp);
		arg = p + 4;
	}
	crown_buf_puts(&b, arg);
	return b.data;
}

static int
run(char **argv, const char *out, const char *err)
{
	pid_t	pid;
	int	status, fd;

	pid = fork();
	if (pid == 0) {
		fd = open("/dev/null", O_RDONLY);
		dup2(fd, 0);
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 +
	    WTERMSIG(status);
}

static void
check_text(const char *what, const char *name, const char *got,
    const struct crown_ynode *want_exact, const struct crown_ynode *want_has)
{
	size_t	i;

	if (want_exact != NULL && strcmp(got, want_exact->str) != 0) {
		print_error("%s: %s differs.\n--- expected\n%s--- got\n%s",
		    name, what, want_exact->str, got);
		fail();
	}
	for (i = 0; want_has != NULL && i < want_has->n; i++) {
		if (strstr(got, want_has->item[i]->str) == NULL) {
			print_error("%s: %s lacks \"%s\"; got:\n%s", name,
			    what, want_has->item[i]->str, got);
			fail();
		}
	}
}

static void
rm_rf(const char *dir)
{
	DIR		*dp;
	struct dirent	*de;
	char		*p;
	struct stat	 st;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_rf(p);
		else
			unlink(p);
		free(p);
	}
	closedir(dp);
	rmdir(dir);
}

/* Replace every `from` by `to` in s; returns a new string. */
static char *
replace_all(const char *s, const char *from, const char *to)
{
	struct crown_buf	 b = { 0 };
	const char		*p;

	crown_buf_puts(&b, "");
	while (*from != '\0' && (p = strstr(s, from)) != NULL) {
		crown_buf_add(&b, s, (size_t)(p - s));
		crown_buf_puts(&b, to);
		s = p + strlen(from);
	}
	crown_buf_puts(&b, s);
	return b.data;
}

/*
 * fixtures: {"$TMP/name": {from: FILE, replace: [[old, new], ...]}}:
 * files made for the test from the project's own, so they follow changes
 * to those files (a house-ruled copy of the rules, say).
 */
static void
make_fixtures(const struct crown_ynode *fx, const char *tmp)
{
	const struct crown_ynode	*from, *rep;
	char				*path, *text, *next;
	size_t				 i, j;
	FILE				*fp;

	for (i = 0; fx != NULL && i < fx->n; i++) {
		path = subst(fx->key[i]->str, tmp);
		from = crown_ymap_get(fx->item[i], "from");
		rep = crown_ymap_get(fx->item[i], "replace");
		assert_non_null(from);
		text = tu_slurp(from->str);
		assert_non_null(text);
		for (j = 0; rep != NULL && j < rep->n; j++) {
			if (strstr(text, rep->item[j]->item[0]->str) == NULL) {
				print_error("fixture %s: '%s' not found in %s",
				    path, rep->item[j]->item[0]->str,
				    from->str);
				fail();
			}
			next = replace_all(text, rep->item[j]->item[0]->str,
			    rep->item[j]->item[1]->str);
			free(text);
			text = next;
		}
		assert_non_null(fp = fopen(path, "w"));
		fputs(text, fp);
		fclose(fp);
		free(text);
		free(path);
	}
}

/* The runs of `before`, each to exit 0. */
static void
run_before(const struct crown_ynode *before, const char *bin,
    const char *tmp)
{
	const struct crown_ynode	*args;
	char				*argv[MAX_ARGS + 2], *out, *err;
	size_t				 i, j, n;

	out = xasprintf("%s/.before-stdout", tmp);
	err = xasprintf("%s/.before-stderr", tmp);
	for (i = 0; before != NULL && i < before->n; i++) {
		args = before->item[i];
		n = 0;
		argv[n++] = xstrdup(bin);
		for (j = 0; j < args->n && n < MAX_ARGS; j++)
			argv[n++] = subst(args->item[j]->str, tmp);
		argv[n] = NULL;
		assert_int_equal(run(argv, out, err), 0);
		for (j = 0; j < n; j++)
			free(argv[j]);
	}
	unlink(out);
	unlink(err);
	free(out);
	free(err);
}

static void
test_golden(void **state)
{
	struct golden			*g = *state;
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*root, *args, *files, *v;
	const char			*bin = getenv("CROWN_BIN");
	char				 tmp[] = "/tmp/crown-cli-XXXXXX";
	char				*argv[MAX_ARGS + 2] = { 0 };
	char				*out, *err, *got_out, *got_err;
	char				*got, *want, *p;
	long				 status = 0;
	size_t				 i, argc = 0;
	int				 rc;

	if (bin == NULL)
		bin = "build/crown";
	assert_int_equal(crown_ydoc_load(&doc, g->path, NULL, &d), 0);
	root = crown_ydoc_root(doc);
	args = crown_ymap_get(root, "args");
	assert_non_null(args);
	assert_non_null(mkdtemp(tmp));
	make_fixtures(crown_ymap_get(root, "fixtures"), tmp);
	run_before(crown_ymap_get(root, "before"), bin, tmp);
	argv[argc++] = xstrdup(bin);
	for (i = 0; i < args->n && argc < MAX_ARGS; i++)
		argv[argc++] = subst(args->item[i]->str, tmp);
	out = xasprintf("%s/.stdout", tmp);
	err = xasprintf("%s/.stderr", tmp);
	rc = run(argv, out, err);
	got_out = tu_slurp(out);
	got_err = tu_slurp(err);
	/* the temporary directory's name varies: show it as $TMP */
	while ((p = strstr(got_err, tmp)) != NULL) {
		memcpy(p, "$TMP", 4);
		memmove(p + 4, p + strlen(tmp), strlen(p + strlen(tmp)) + 1);
	}
	v = crown_ymap_get(root, "status");
	if (v != NULL)
		status = strtol(v->str, NULL, 10);
	if (rc != status) {
		print_error("%s: exit status %d, expected %ld\nstderr:\n%s",
		    g->path, rc, status, got_err);
		fail();
	}
	check_text("stdout", g->path, got_out, crown_ymap_get(root, "stdout"),
	    crown_ymap_get(root, "stdout_has"));
	check_text("stderr", g->path, got_err, crown_ymap_get(root, "stderr"),
	    crown_ymap_get(root, "stderr_has"));
	/* files: {written path: expected file} */
	files = crown_ymap_get(root, "files");
	for (i = 0; files != NULL && i < files->n; i++) {
		p = subst(files->key[i]->str, tmp);
		got = tu_slurp(p);
		if (crown_yis_null(files->item[i])) {
			if (got != NULL) {
				print_error("%s: %s should not exist",
				    g->path, files->key[i]->str);
				fail();
			}
			free(p);
			continue;
		}
		want = tu_slurp(files->item[i]->str);
		if (got == NULL || want == NULL || strcmp(got, want) != 0) {
			print_error("%s: %s differs from %s:\n%s", g->path,
			    files->key[i]->str, files->item[i]->str,
			    got ? got : "(missing)");
			fail();
		}
		free(got);
		free(want);
		free(p);
	}
	rm_rf(tmp);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(out);
	free(err);
	free(got_out);
	free(got_err);
	crown_ydoc_free(doc);
}

/*
 * Every option of every command (as the bash completion, made from the
 * command table, lists them) is in the man page's synopsis of that
 * command (issue 20).
 */
/* Run crown with the arguments args (NULL-terminated; "$TMP" in one is a
 * fresh directory, removed after); its exit status must be status.  Its
 * standard output and error, read back, go to *out and *err. */
static void
run_crown_args(const char *const *args, int status, char **out, char **err)
{
	const char	*bin = getenv("CROWN_BIN");
	char		 tmp[] = "/tmp/crown-cli-XXXXXX", *argv[MAX_ARGS + 2];
	char		*outf, *errf;
	size_t		 n, i;

	assert_non_null(mkdtemp(tmp));
	argv[0] = xstrdup(bin != NULL ? bin : "build/crown");
	for (n = 0; args[n] != NULL; n++) {
		assert_true(n < MAX_ARGS);
		argv[n + 1] = subst(args[n], tmp);
	}
	argv[n + 1] = NULL;
	outf = xasprintf("%s/.stdout", tmp);
	errf = xasprintf("%s/.stderr", tmp);
	assert_int_equal(run(argv, outf, errf), status);
	*out = tu_slurp(outf);
	*err = tu_slurp(errf);
	assert_non_null(*out);
	assert_non_null(*err);
	rm_rf(tmp);
	free(outf);
	free(errf);
	for (i = 0; i <= n; i++)
		free(argv[i]);
}

/* The same with the one argument arg, and exit status 0. */
static void
run_crown(const char *arg, char **out, char **err)
{
	const char	*args[] = { arg, NULL };

	run_crown_args(args, 0, out, err);
}

static void
test_man_synopsis(void **state)
{
	char		*comp, *man, *syn, *end, *line, *next, *opts, *o;
	char		*want, *said;
	char		*entry, *cmd;
	size_t		 len;

	(void)state;
	run_crown("--bash-completion", &comp, &said);
	free(said);
	man = tu_slurp("doc/crown.1");
	assert_non_null(comp);
	assert_non_null(man);
	syn = strstr(man, ".Sh SYNOPSIS\n");
	end = strstr(man, ".Sh DESCRIPTION\n");
	assert_true(syn != NULL && end != NULL && syn < end);
	*end = '\0';
	for (line = comp; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (line[0] != '\t' || (opts = strstr(line,
		    ")\topts=\"")) == NULL)
			continue;
		cmd = xstrndup(line + 1, (size_t)(opts - line - 1));
		/* the command's synopsis: from ".Cm NAME" to the next .Nm */
		want = xasprintf(".Nm\n.Cm %s\n", cmd);
		entry = strstr(syn, want);
		if (entry == NULL) {
			print_error("no synopsis of %s in doc/crown.1\n", cmd);
			fail();
		}
		free(want);
		entry = xstrdup(entry + 4);
		if ((o = strstr(entry, ".Nm\n")) != NULL)
			*o = '\0';
		opts += strlen(")\topts=\"");
		while ((o = strstr(opts, "--")) != NULL) {
			len = strcspn(o + 2, " \"");
			want = xasprintf("Fl -%.*s", (int)len, o + 2);
			if (strncmp(o + 2, "help", len) != 0 &&
			    strstr(entry, want) == NULL) {
				print_error("doc/crown.1: the synopsis of %s "
				    "lacks --%.*s\n", cmd, (int)len, o + 2);
				fail();
			}
			free(want);
			opts = o + 2 + len;
		}
		free(entry);
		free(cmd);
	}
	free(comp);
	free(man);
}

/*
 * crown is linked with libgit2, GMime and GPGME the ordinary way
 * (doc/design.md, "Linked libraries"), so that ldd and packaging tools
 * see them: the loader, asked what it loads (LD_DEBUG=files), says each
 * is needed by crown itself, not by a library of its, even for a command
 * that calls none of them.  libyaml is checked the same way.
 */
static void
test_libraries(void **state)
{
	const char	*bin = getenv("CROWN_BIN");
	static const char *const linked[] = {
		"libyaml-0.so.", "libgit2.so.", "libgmime-3.0.so.",
		"libgpgme.so."
	};
	char		*out, *said, *want, *line, *end;
	size_t		 i;

	(void)state;
	if (bin == NULL)
		bin = "build/crown";
	assert_int_equal(setenv("LD_DEBUG", "files", 1), 0);
	run_crown("--version", &out, &said);
	assert_int_equal(unsetenv("LD_DEBUG"), 0);
	for (i = 0; i < CROWN_NELEM(linked); i++) {
		want = xasprintf("file=%s", linked[i]);
		line = strstr(said, want);
		if (line == NULL) {
			print_error("the loader loads no %s for crown\n",
			    linked[i]);
			fail();
		}
		free(want);
		if ((end = strchr(line, '\n')) != NULL)
			*end = '\0';
		want = xasprintf("needed by %s [", bin);
		if (strstr(line, want) == NULL) {
			print_error("%s is not crown's own: %s\n", linked[i],
			    line);
			fail();
		}
		free(want);
		if (end != NULL)
			*end = '\n';
	}
	free(out);
	free(said);
}

/* The environment test_libraries sets for crown, unset even when an
 * assertion ended it early, so that no later run inherits it. */
static int
unset_env(void **state)
{
	(void)state;
	unsetenv("LD_DEBUG");
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(void)
{
	struct CMUnitTest	*tests;
	struct golden		*g;
	DIR			*dp;
	struct dirent		*de;
	char			**names = NULL;
	size_t			 n = 0, cap = 0, i;
	size_t			 len;
	int			 rc;

	if ((dp = opendir("tests/golden")) == NULL) {
		perror("tests/golden");
		return 1;
	}
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		crown_grow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xasprintf("tests/golden/%s", de->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(*names), cmp_names);
	tests = xcalloc(n + 2, sizeof(*tests));	/* and the two below */
	g = xcalloc(n, sizeof(*g));
	for (i = 0; i < n; i++) {
		g[i].path = names[i];
		tests[i].name = names[i];
		tests[i].test_func = test_golden;
		tests[i].initial_state = &g[i];
	}
	tests[n].name = "man-synopsis";
	tests[n].test_func = test_man_synopsis;
	tests[n + 1].name = "libraries";
	tests[n + 1].test_func = test_libraries;
	tests[n + 1].teardown_func = unset_env;
	rc = _cmocka_run_group_tests("cli", tests, n + 2, NULL, NULL);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(tests);
	free(g);
	return rc;
}
