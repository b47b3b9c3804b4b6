/*
 * testdisk.h: the seam of the tests of a full disk (history, site):
 * write() to a file fails with ENOSPC once disk_left bytes are written
 * (when it is not negative), and counts what it writes: disk_used in all,
 * disk_at[] the count before each write; and, when disk_kill_at is not
 * 0, the process ends (_exit, a kill -9 at that moment: nothing flushed)
 * at the disk_kill_at-th write counted in disk_writes.  Standard output
 * and error are
 * never cut; a file may be fd 0 when standard input is closed.  The
 * includer defines _GNU_SOURCE before any header, for RTLD_NEXT.
 */
#ifndef CROWN_TESTDISK_H
#define CROWN_TESTDISK_H

#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>

static long long	disk_left = -1;
static long long	disk_used;
static long long	disk_at[4096];	/* disk_used before each write */
static size_t		disk_nat;
static unsigned long	disk_writes;
static unsigned long	disk_kill_at;

ssize_t
write(int fd, const void *buf, size_t n)
{
	static ssize_t	(*real)(int, const void *, size_t);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "write");
	if (fd != 1 && fd != 2 && n > 0) {
		if (++disk_writes == disk_kill_at)
			_exit(137);
		if (disk_nat < sizeof(disk_at) / sizeof(disk_at[0]))
			disk_at[disk_nat++] = disk_used;
		disk_used += (long long)n;
		if (disk_left >= 0) {
			if (disk_left == 0) {
				errno = ENOSPC;
				return -1;
			}
			if ((long long)n > disk_left)
				n = (size_t)disk_left;
			disk_left -= (long long)n;
		}
	}
	return real(fd, buf, n);
}

#endif
