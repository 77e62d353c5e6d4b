/* SPDX-License-Identifier: BSD-2-Clause */
/* `kjit bench`'s files (--plot, --json, --csv): checked before anything
 * runs, written at the end through a temporary file beside the file each
 * path names (symbolic links followed), renamed onto it once complete. So a
 * bench that stops early leaves an existing file as it was, a reader never
 * sees half a file, and no path can be the program: it is compiled again
 * per target after the paths are taken, and `--json prog.k` once replaced
 * the program with the report before it was read. A path naming something
 * that is not a regular file (a FIFO, /dev/full), or the file stdout or
 * stderr write to (/dev/stdout), is appended to directly: renaming onto it
 * would replace the device or pipe, or unlink the report's file. */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file `path` names, links followed (relative ones from the link's
 * directory; a dangling last link names its target), into out. False with
 * errno set. */
static bool resolve(const char *path, char *out, size_t cap)
{
    if ((size_t)snprintf(out, cap, "%s", path) >= cap) return errno = ENAMETOOLONG, false;
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode)) return true;
        char target[BENCH_PATH];
        ssize_t n = readlink(out, target, sizeof target - 1);
        if (n < 0) return false;
        if ((size_t)n >= sizeof target - 1) return errno = ENAMETOOLONG, false;
        target[n] = 0;
        char *slash = strrchr(out, '/');
        size_t dir = target[0] == '/' || !slash ? 0 : (size_t)(slash - out) + 1;
        if (dir + (size_t)n >= cap) return errno = ENAMETOOLONG, false;
        memcpy(out + dir, target, (size_t)n + 1);
    }
    return errno = ELOOP, false;
}

/* Which file o->file is: its device and inode, or, for one not made yet,
 * its directory's and its name (compared as such: paths are not, since
 * "out.json" and "./out.json" name one file). */
static bool identify(bench_out *o)
{
    struct stat st;
    o->name = NULL;
    if (stat(o->file, &st) == 0) {
        o->dev = st.st_dev, o->ino = st.st_ino, o->exists = true;
        o->regular = S_ISREG(st.st_mode);
        o->mode = st.st_mode & 07777;
        return true;
    }
    if (errno != ENOENT) return false;
    char dir[BENCH_PATH];
    const char *slash = strrchr(o->file, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - o->file) + 1 : 1, slash ? o->file : ".");
    if (stat(dir, &st) != 0) return false;
    o->dev = st.st_dev, o->ino = st.st_ino, o->exists = false, o->regular = true;
    o->name = slash ? slash + 1 : o->file;
    return true;
}

static bool same_file(const bench_out *a, const bench_out *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->exists == b->exists &&
           (a->exists || !strcmp(a->name, b->name));
}

/* Is st a device, FIFO or socket, or the file stdout or stderr is? */
static bool direct(const struct stat *st)
{
    struct stat fd;
    for (int k = 1; k <= 2; k++)
        if (fstat(k, &fd) == 0 && fd.st_dev == st->st_dev && fd.st_ino == st->st_ino) return true;
    return !S_ISREG(st->st_mode);
}

/* o's file: the path itself when it is to be written directly (the
 * kernel's stat follows /dev/stdout's links into /proc, which reading them
 * here cannot), else the file its links name. */
static bool find_file(bench_out *o)
{
    struct stat st;
    if (stat(o->path, &st) == 0 && direct(&st)) {
        snprintf(o->file, sizeof o->file, "%s", o->path);
        o->dev = st.st_dev, o->ino = st.st_ino, o->exists = true, o->regular = false;
        o->name = NULL;
        return true;
    }
    return resolve(o->path, o->file, sizeof o->file) && identify(o);
}

int bench_outs_check(bench_out *outs, int n, const char *program, char *why, size_t cap)
{
    struct stat prog;
    bool have_prog = stat(program, &prog) == 0;
    for (int k = 0; k < n; k++) {
        bench_out *o = &outs[k];
        if (!o->path) continue;
        if (!find_file(o)) {
            snprintf(why, cap, "cannot write %s file '%s': %s", o->opt, o->path, strerror(errno));
            return 1;
        }
        if (have_prog && o->exists && o->dev == prog.st_dev && o->ino == prog.st_ino) {
            snprintf(why, cap, "%s file '%s' is the program '%s': the report would replace it", o->opt, o->path,
                     program);
            return 2;
        }
        for (int j = 0; j < k && o->regular; j++) /* direct ones (/dev/stdout twice) append in turn */
            if (outs[j].path && same_file(&outs[j], o)) {
                snprintf(why, cap, "%s file '%s' is the same file as %s '%s'", o->opt, o->path, outs[j].opt,
                         outs[j].path);
                return 2;
            }
    }
    return 0;
}

/* The mode a new file gets from open(): 0666 less the umask. */
static mode_t new_file_mode(void)
{
    mode_t um = umask(0);
    umask(um);
    return 0666 & ~um;
}

bool bench_out_open(bench_out *o)
{
    if (!o->regular) {
        o->tmp[0] = 0; /* written directly at the end; only its permission now */
        return access(o->file, W_OK) == 0;
    }
    if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", o->file) >= sizeof o->tmp)
        return errno = ENAMETOOLONG, false;
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        o->tmp[0] = 0;
        return false;
    }
    (void)!fchmod(fd, o->exists ? o->mode : new_file_mode()); /* mkstemp's 0600 otherwise */
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        bench_out_discard(o);
        errno = e;
    }
    return o->f != NULL;
}

bool bench_out_commit(bench_out *o, bool (*write)(const bench_data *, FILE *), const bench_data *d)
{
    if (!o->f && !o->tmp[0] && !(o->f = fopen(o->file, "a"))) return false; /* after what stdout got */
    errno = 0;
    bool ok = write(d, o->f) && fflush(o->f) == 0 && !ferror(o->f);
    int e = errno;
    if (fclose(o->f) != 0 && ok) ok = false, e = errno;
    o->f = NULL;
    if (ok && o->tmp[0] && rename(o->tmp, o->file) != 0) ok = false, e = errno;
    if (!e) e = EIO;
    if (ok) o->tmp[0] = 0;
    else bench_out_discard(o);
    errno = e;
    return ok;
}

void bench_out_discard(bench_out *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = 0;
}
