/* SPDX-License-Identifier: BSD-2-Clause */
/* The compile cache: a bounded LRU map in memory over one file per key on
 * disk. See cache.h for the contract and docs/cache.md for the layout.
 *
 * Locking: the mutex guards the memory layer and the counters only. Disk
 * I/O runs outside it; files are shared with other processes anyway, so
 * their safety comes from the write-to-temporary-then-rename protocol, not
 * from the lock. */
#include "cache.h"

#include "../abi/abi.h"
#include "../util/alloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/Core.h>

/* Bumped whenever the disk format or the key recipe changes. */
enum { CACHE_FORMAT = 1 };

/* ------------------------------------------------------------------------ */
/* Hashing                                                                   */
/* ------------------------------------------------------------------------ */

void kj_hash_init(kj_hasher *h)
{
    llvm_blake3_hasher_init(&h->b3);
}

void kj_hash_update(kj_hasher *h, const void *data, size_t len)
{
    llvm_blake3_hasher_update(&h->b3, data, len);
}

kj_hash kj_hash_final(const kj_hasher *h)
{
    kj_hash out;
    llvm_blake3_hasher_finalize(&h->b3, out.b, KJ_HASH_LEN);
    return out;
}

kj_hash kj_hash_bytes(const void *data, size_t len)
{
    kj_hasher h;
    kj_hash_init(&h);
    kj_hash_update(&h, data, len);
    return kj_hash_final(&h);
}

static void put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* part := len(label) label len(data) data, lengths as 8-byte little-endian:
 * the framing makes the sequence of parts recoverable from the byte stream,
 * so distinct sequences cannot collide by concatenation. */
static void frame(kj_hasher *h, const char *label, uint64_t len)
{
    uint8_t n[8];
    size_t ln = strlen(label);
    put_le64(n, ln);
    kj_hash_update(h, n, 8);
    kj_hash_update(h, label, ln);
    put_le64(n, len);
    kj_hash_update(h, n, 8);
}

void kj_hash_part(kj_hasher *h, const char *label, const void *data, size_t len)
{
    frame(h, label, len);
    kj_hash_update(h, data, len);
}

/* NULL is framed with a length no real string can have. */
void kj_hash_str(kj_hasher *h, const char *label, const char *s)
{
    if (s) kj_hash_part(h, label, s, strlen(s));
    else frame(h, label, UINT64_MAX);
}

void kj_hash_u64(kj_hasher *h, const char *label, uint64_t v)
{
    uint8_t b[8];
    put_le64(b, v);
    kj_hash_part(h, label, b, 8);
}

void kj_cache_key_init(kj_hasher *h, const char *version)
{
    unsigned major, minor, patch;
    LLVMGetVersion(&major, &minor, &patch);
    kj_hash_init(h);
    kj_hash_u64(h, "kjit-cache-format", CACHE_FORMAT);
    kj_hash_str(h, "kjit", version);
    kj_hash_u64(h, "kjit-abi", KJ_ABI_VERSION);
    kj_hash_u64(h, "llvm-major", major);
    kj_hash_u64(h, "llvm-minor", minor);
    kj_hash_u64(h, "llvm-patch", patch);
}

char *kj_hash_hex(kj_hash key, char out[2 * KJ_HASH_LEN + 1])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < KJ_HASH_LEN; i++) {
        out[2 * i] = digits[key.b[i] >> 4];
        out[2 * i + 1] = digits[key.b[i] & 15];
    }
    out[2 * KJ_HASH_LEN] = 0;
    return out;
}

/* ------------------------------------------------------------------------ */
/* The cache object and its memory layer                                     */
/* ------------------------------------------------------------------------ */

/* One memory entry: in a bucket chain and in the recency list. */
typedef struct entry {
    kj_hash key;
    struct entry *chain;        /* next in the bucket */
    struct entry *older, *newer; /* recency list */
    size_t len;
    uint8_t data[];
} entry;

struct kj_cache {
    pthread_mutex_t mu;
    char *dir; /* NULL: disk layer off (immutable after open) */
    char dir_error[512];
    bool fsync;
    size_t mem_limit;
    uint64_t disk_max;
    entry **buckets; /* power-of-two count */
    size_t nbuckets;
    entry *oldest, *newest;
    kj_cache_stats st;
};

/* Memory accounting counts the entry header too, so a flood of tiny
 * entries is bounded as well. */
static size_t entry_cost(size_t len)
{
    return sizeof(entry) + len;
}

/* Keys are BLAKE3 output, already uniform: any 8 bytes make a good hash. */
static entry **bucket_of(kj_cache *c, kj_hash key)
{
    return &c->buckets[get_le64(key.b) & (c->nbuckets - 1)];
}

static entry *mem_find(kj_cache *c, kj_hash key)
{
    for (entry *e = *bucket_of(c, key); e; e = e->chain)
        if (memcmp(e->key.b, key.b, KJ_HASH_LEN) == 0) return e;
    return NULL;
}

static void list_unlink(kj_cache *c, entry *e)
{
    if (e->older) e->older->newer = e->newer;
    else c->oldest = e->newer;
    if (e->newer) e->newer->older = e->older;
    else c->newest = e->older;
    e->older = e->newer = NULL;
}

static void list_push_newest(kj_cache *c, entry *e)
{
    e->older = c->newest;
    e->newer = NULL;
    if (c->newest) c->newest->newer = e;
    else c->oldest = e;
    c->newest = e;
}

static void mem_remove(kj_cache *c, entry *e)
{
    entry **pp = bucket_of(c, e->key);
    while (*pp != e) pp = &(*pp)->chain;
    *pp = e->chain;
    list_unlink(c, e);
    c->st.mem_entries--;
    c->st.mem_bytes -= entry_cost(e->len);
    free(e);
}

/* Double the bucket array once the chains average more than one entry. */
static void mem_grow(kj_cache *c)
{
    size_t old_n = c->nbuckets;
    entry **old = c->buckets;
    c->nbuckets = old_n * 2;
    c->buckets = xcalloc(c->nbuckets, sizeof *c->buckets);
    for (size_t i = 0; i < old_n; i++) {
        for (entry *e = old[i], *next; e; e = next) {
            next = e->chain;
            entry **b = bucket_of(c, e->key);
            e->chain = *b;
            *b = e;
        }
    }
    free(old);
}

/* Insert or replace key → data, evicting least recently used entries to
 * stay within the limit. An entry larger than the whole limit is not kept
 * (it still goes to disk). */
static void mem_insert(kj_cache *c, kj_hash key, const void *data, size_t len)
{
    entry *old = mem_find(c, key);
    if (old) mem_remove(c, old);
    size_t cost = entry_cost(len);
    if (cost > c->mem_limit) return;
    while (c->st.mem_bytes + cost > c->mem_limit) {
        mem_remove(c, c->oldest);
        c->st.evictions++;
    }
    entry *e = xmalloc(cost);
    e->key = key;
    e->len = len;
    if (len) memcpy(e->data, data, len);
    if (c->st.mem_entries >= c->nbuckets) mem_grow(c);
    entry **b = bucket_of(c, key);
    e->chain = *b;
    *b = e;
    list_push_newest(c, e);
    c->st.mem_entries++;
    c->st.mem_bytes += cost;
}

/* A hit makes the entry the most recently used and copies it out. */
static bool mem_get(kj_cache *c, kj_hash key, void **data, size_t *len)
{
    entry *e = mem_find(c, key);
    if (!e) return false;
    list_unlink(c, e);
    list_push_newest(c, e);
    *data = xmalloc(e->len);
    if (e->len) memcpy(*data, e->data, e->len);
    *len = e->len;
    return true;
}

static void mem_clear(kj_cache *c)
{
    while (c->oldest) mem_remove(c, c->oldest);
}

/* ------------------------------------------------------------------------ */
/* The cache directory                                                       */
/* ------------------------------------------------------------------------ */

static char *path_join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = xmalloc(na + nb + 2);
    memcpy(p, a, na);
    p[na] = '/';
    memcpy(p + na + 1, b, nb + 1);
    return p;
}

static const char *env_nonempty(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* $KJIT_CACHE_DIR | $NUMBA_CACHE_DIR (Numba's, of the same meaning) |
 * $XDG_CACHE_HOME/kjit | $HOME/.cache/kjit. The XDG base directory spec
 * says a relative XDG_CACHE_HOME is invalid and ignored. */
char *kj_cache_default_dir(void)
{
    const char *v = env_nonempty("KJIT_CACHE_DIR");
    if (!v) v = env_nonempty("NUMBA_CACHE_DIR");
    if (v) return xstrdup(v);
    v = env_nonempty("XDG_CACHE_HOME");
    if (v && v[0] == '/') return path_join(v, "kjit");
    v = env_nonempty("HOME");
    if (v) return path_join(v, ".cache/kjit");
    return NULL;
}

/* mkdir -p with mode 0700 for every directory it creates (the XDG spec's
 * mode for cache directories: entries may reveal what a user compiles). */
static int mkdir_p(const char *path)
{
    if (!*path) return ENOENT;
    char *p = xstrdup(path);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != 0) continue;
        char saved = *s;
        *s = 0;
        if (mkdir(p, 0700) != 0 && errno != EEXIST) rc = errno;
        *s = saved;
        if (rc || saved == 0) break;
    }
    free(p);
    return rc;
}

/* Make the directory usable or say why not (into c->dir_error). */
static bool dir_prepare(kj_cache *c, const char *dir)
{
    struct stat st;
    int e = mkdir_p(dir);
    if (e == 0 && stat(dir, &st) != 0) e = errno;
    if (e == 0 && !S_ISDIR(st.st_mode)) e = ENOTDIR;
    if (e == 0 && access(dir, W_OK | X_OK) != 0) e = errno;
    if (e == 0) return true;
    snprintf(c->dir_error, sizeof c->dir_error, "cache directory '%s' is not usable: %s", dir,
             strerror(e));
    return false;
}

kj_cache *kj_cache_open(const kj_cache_options *opt)
{
    kj_cache_options none = {0};
    if (!opt) opt = &none;
    kj_cache *c = xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    c->fsync = opt->fsync;
    c->mem_limit = opt->mem_limit ? opt->mem_limit : KJ_CACHE_MEM_LIMIT;
    c->disk_max = opt->disk_max ? opt->disk_max : KJ_CACHE_DISK_MAX;
    c->nbuckets = 64;
    c->buckets = xcalloc(c->nbuckets, sizeof *c->buckets);
    if (opt->memory_only) return c;
    char *dir = opt->dir ? xstrdup(opt->dir) : kj_cache_default_dir();
    if (!dir) {
        snprintf(c->dir_error, sizeof c->dir_error,
                 "no cache directory: none of KJIT_CACHE_DIR, XDG_CACHE_HOME, HOME is set");
    } else if (!dir_prepare(c, dir)) {
        free(dir);
    } else {
        c->dir = dir;
    }
    return c;
}

void kj_cache_close(kj_cache *c)
{
    if (!c) return;
    mem_clear(c);
    free(c->buckets);
    free(c->dir);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

const char *kj_cache_dir(const kj_cache *c)
{
    return c->dir;
}

const char *kj_cache_dir_error(const kj_cache *c)
{
    return c->dir_error;
}

/* ------------------------------------------------------------------------ */
/* Disk entries                                                              */
/* ------------------------------------------------------------------------ */

/* An entry file, all integers little-endian:
 *   0  magic "KJITCACH"      8  u32 format (CACHE_FORMAT)   12 u32 header size
 *   16 u64 payload length    24 key (32 bytes)              56 BLAKE3 of the payload
 *   88 payload */
#define MAGIC "KJITCACH"
enum { HDR_SIZE = 88, FANOUT_HEX = 2 };

/* dir/ab/cdef... (the key's hex split after FANOUT_HEX digits). */
static char *entry_path(const char *dir, kj_hash key)
{
    char hex[2 * KJ_HASH_LEN + 1];
    kj_hash_hex(key, hex);
    size_t n = strlen(dir) + sizeof hex + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%.*s/%s", dir, FANOUT_HEX, hex, hex + FANOUT_HEX);
    return p;
}

char *kj_cache_entry_path(const kj_cache *c, kj_hash key)
{
    return c->dir ? entry_path(c->dir, key) : NULL;
}

static void header_encode(uint8_t h[HDR_SIZE], kj_hash key, const void *data, size_t len)
{
    memcpy(h, MAGIC, 8);
    put_le32(h + 8, CACHE_FORMAT);
    put_le32(h + 12, HDR_SIZE);
    put_le64(h + 16, len);
    memcpy(h + 24, key.b, KJ_HASH_LEN);
    kj_hash sum = kj_hash_bytes(data, len);
    memcpy(h + 56, sum.b, KJ_HASH_LEN);
}

/* Everything in the header but the payload checksum, against the file. */
static bool header_valid(const uint8_t h[HDR_SIZE], kj_hash key, off_t file_size)
{
    return memcmp(h, MAGIC, 8) == 0 && get_le32(h + 8) == CACHE_FORMAT &&
           get_le32(h + 12) == HDR_SIZE && memcmp(h + 24, key.b, KJ_HASH_LEN) == 0 &&
           get_le64(h + 16) == (uint64_t)file_size - HDR_SIZE;
}

/* read(2) until n bytes or end of file; returns the count read, -1 on error. */
static ssize_t read_full(int fd, void *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = read(fd, (char *)buf + done, n - done);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        done += (size_t)r;
    }
    return (ssize_t)done;
}

static bool write_full(int fd, const void *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, (const char *)buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        done += (size_t)w;
    }
    return true;
}

/* Remove a damaged entry, unless another process has meanwhile renamed a
 * fresh one into its place (a different inode): deleting that would only
 * cost a recompile, but there is no reason to. */
static void remove_damaged(const char *path, const struct stat *seen)
{
    struct stat now;
    if (stat(path, &now) == 0 && now.st_dev == seen->st_dev && now.st_ino == seen->st_ino)
        unlink(path);
}

typedef enum { DISK_MISS, DISK_HIT, DISK_CORRUPT } disk_result;

/* Read and verify an open entry file (whose fstat is *st). */
static disk_result disk_read_fd(int fd, const struct stat *st, kj_hash key, void **data,
                                size_t *len)
{
    uint8_t h[HDR_SIZE];
    if (!S_ISREG(st->st_mode) || st->st_size < HDR_SIZE) return DISK_CORRUPT;
    ssize_t got = read_full(fd, h, HDR_SIZE);
    if (got < 0) return DISK_MISS; /* an I/O error says nothing about the contents */
    if (got != HDR_SIZE || !header_valid(h, key, st->st_size)) return DISK_CORRUPT;
    size_t n = (size_t)get_le64(h + 16);
    void *buf = malloc(n ? n : 1); /* a huge entry we cannot hold is a miss, not an abort */
    if (!buf) return DISK_MISS;
    /* One byte more than expected: detects a file that grew since fstat. */
    got = n ? read_full(fd, buf, n) : 0;
    uint8_t extra;
    disk_result r = DISK_CORRUPT;
    if (got < 0) r = DISK_MISS;
    else if ((size_t)got == n && read_full(fd, &extra, 1) == 0 &&
             memcmp(kj_hash_bytes(buf, n).b, h + 56, KJ_HASH_LEN) == 0)
        r = DISK_HIT;
    if (r != DISK_HIT) {
        free(buf);
        return r;
    }
    *data = buf;
    *len = n;
    return DISK_HIT;
}

static disk_result disk_read(const char *dir, kj_hash key, void **data, size_t *len)
{
    char *path = entry_path(dir, key);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    disk_result r = DISK_MISS;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0) {
        r = disk_read_fd(fd, &st, key, data, len);
        if (r == DISK_CORRUPT) remove_damaged(path, &st);
        /* a hit is a use: the modification time orders entries for eviction
         * (atime is unreliable: noatime/relatime mounts); failure (a
         * read-only directory) only makes the order coarser */
        if (r == DISK_HIT) (void)futimens(fd, NULL);
    }
    if (fd >= 0) close(fd);
    free(path);
    return r;
}

/* The fan-out directory of an entry path: create it, and the cache
 * directory again if someone removed it while we run. */
static bool make_parent(const char *path)
{
    char *parent = xstrdup(path);
    *strrchr(parent, '/') = 0;
    bool ok = mkdir(parent, 0700) == 0 || errno == EEXIST;
    if (!ok && errno == ENOENT) ok = mkdir_p(parent) == 0;
    free(parent);
    return ok;
}

/* Write the entry to a temporary file in the same directory and rename it
 * into place. rename(2) is atomic within a file system: readers see the
 * old file or the complete new one, and of concurrent writers the last
 * rename wins. Temporaries are named ".tmp-*" so kj_cache_clear finds the
 * leftovers of a writer that crashed. */
static bool disk_write(const char *dir, bool do_fsync, kj_hash key, const void *data, size_t len)
{
    char *path = entry_path(dir, key);
    if (!make_parent(path)) {
        free(path);
        return false;
    }
    char *slash = strrchr(path, '/');
    size_t n = strlen(path) + 16;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%.*s/.tmp-%s-XXXXXX", (int)(slash - path), path, slash + 1);
    uint8_t h[HDR_SIZE];
    header_encode(h, key, data, len);
    bool ok = false;
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd >= 0) {
        ok = write_full(fd, h, HDR_SIZE) && write_full(fd, data, len);
        if (ok && do_fsync) ok = fsync(fd) == 0;
        if (close(fd) != 0) ok = false;
        if (ok) ok = rename(tmp, path) == 0;
        if (!ok) unlink(tmp);
    }
    free(tmp);
    free(path);
    return ok;
}

static void usage_note_hit(const char *dir);
static uint64_t usage_note_write(const char *dir, uint64_t max, uint64_t size);

/* ------------------------------------------------------------------------ */
/* The API                                                                   */
/* ------------------------------------------------------------------------ */

bool kj_cache_get(kj_cache *c, kj_hash key, void **data, size_t *len)
{
    pthread_mutex_lock(&c->mu);
    bool hit = mem_get(c, key, data, len);
    if (hit) c->st.mem_hits++;
    pthread_mutex_unlock(&c->mu);
    if (hit) return true;

    disk_result r = c->dir ? disk_read(c->dir, key, data, len) : DISK_MISS;
    if (r == DISK_HIT) usage_note_hit(c->dir);
    pthread_mutex_lock(&c->mu);
    if (r == DISK_HIT) {
        c->st.disk_hits++;
        mem_insert(c, key, *data, *len);
    } else {
        c->st.misses++;
        if (r == DISK_CORRUPT) c->st.corrupt++;
    }
    pthread_mutex_unlock(&c->mu);
    return r == DISK_HIT;
}

bool kj_cache_put(kj_cache *c, kj_hash key, const void *data, size_t len)
{
    pthread_mutex_lock(&c->mu);
    c->st.puts++;
    mem_insert(c, key, data, len);
    pthread_mutex_unlock(&c->mu);
    if (!c->dir) return false;

    bool ok = disk_write(c->dir, c->fsync, key, data, len);
    uint64_t evicted = ok ? usage_note_write(c->dir, c->disk_max, HDR_SIZE + (uint64_t)len) : 0;
    pthread_mutex_lock(&c->mu);
    if (ok) c->st.disk_writes++;
    else c->st.write_errors++;
    c->st.disk_evictions += evicted;
    pthread_mutex_unlock(&c->mu);
    return ok;
}

static bool is_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return s[n] == 0;
}

void kj_cache_clear(kj_cache *c, bool disk)
{
    pthread_mutex_lock(&c->mu);
    mem_clear(c);
    pthread_mutex_unlock(&c->mu);
    if (disk && c->dir) kj_cache_dir_clear(c->dir);
}

kj_cache_stats kj_cache_get_stats(kj_cache *c)
{
    pthread_mutex_lock(&c->mu);
    kj_cache_stats s = c->st;
    pthread_mutex_unlock(&c->mu);
    return s;
}

/* ------------------------------------------------------------------------ */
/* The directory as a whole: usage, eviction, clearing                       */
/* ------------------------------------------------------------------------ */

/* One entry file found by a scan. */
typedef struct found {
    char *path;
    uint64_t size;
    struct timespec used; /* modification time: written or last hit */
} found;

typedef struct scan {
    found *v;
    size_t n, cap;
    uint64_t bytes;
    bool keep; /* collect the files (eviction), or only count them */
} scan;

static bool is_entry_name(const char *nm)
{
    return is_hex(nm, 2 * KJ_HASH_LEN - FANOUT_HEX);
}

/* visit(dir_of_fanout, name, arg) for every file of every fan-out directory. */
static void for_each_file(const char *dir, void (*visit)(int dfd, const char *sub, const char *nm, void *arg),
                          void *arg)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *de; (de = readdir(d));) {
        if (!is_hex(de->d_name, FANOUT_HEX)) continue;
        char *sub = path_join(dir, de->d_name);
        DIR *f = opendir(sub);
        for (struct dirent *fe; f && (fe = readdir(f));) visit(dirfd(f), sub, fe->d_name, arg);
        if (f) closedir(f);
        free(sub);
    }
    closedir(d);
}

static void scan_visit(int dfd, const char *sub, const char *nm, void *arg)
{
    scan *s = arg;
    struct stat st;
    if (!is_entry_name(nm) || fstatat(dfd, nm, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) return;
    s->bytes += (uint64_t)st.st_size;
    if (!s->keep) {
        s->n++;
        return;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = kj_oom_check(realloc(s->v, s->cap * sizeof *s->v));
    }
    s->v[s->n++] = (found){path_join(sub, nm), (uint64_t)st.st_size, st.st_mtim};
}

void kj_cache_dir_usage(const char *dir, uint64_t *entries, uint64_t *bytes)
{
    scan s = {0};
    for_each_file(dir, scan_visit, &s);
    *entries = s.n;
    *bytes = s.bytes;
}

static int older_first(const void *a, const void *b)
{
    const struct timespec *x = &((const found *)a)->used, *y = &((const found *)b)->used;
    if (x->tv_sec != y->tv_sec) return x->tv_sec < y->tv_sec ? -1 : 1;
    return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

/* The eviction itself: a full scan (the caller holds the usage lock). */
static uint64_t evict_scan(const char *dir, uint64_t max, uint64_t *left)
{
    scan s = {.keep = true};
    for_each_file(dir, scan_visit, &s);
    uint64_t removed = 0;
    if (s.bytes > max) qsort(s.v, s.n, sizeof *s.v, older_first);
    for (size_t k = 0; k < s.n; k++) {
        /* ENOENT: another process removed it first (a clear): as good */
        if (s.bytes > max && (unlink(s.v[k].path) == 0 || errno == ENOENT)) {
            s.bytes -= s.v[k].size;
            removed++;
        }
        free(s.v[k].path);
    }
    free(s.v);
    if (left) *left = s.bytes;
    return removed;
}

/* ---- DIR/usage: the entries' total size and the disk hits, shared ----
 *
 * Summing every entry file's size at each write costs a stat per entry
 * (tens of ms for a full cache), so the total is kept in DIR/usage, a line
 * "BYTES HITS", read and rewritten under flock(2) (released by the kernel
 * if a process dies). A write adds its entry's size; only when the sum
 * passes the bound is the directory scanned, entries evicted and the true
 * total written back, which also corrects any drift (an entry replaced,
 * removed as corrupt or by hand). A missing or unreadable usage file reads
 * as unknown and triggers a scan. Where it cannot be opened (a read-only
 * directory) every write scans. */

static int usage_lock(const char *dir)
{
    char *p = path_join(dir, "usage");
    int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    free(p);
    if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static void usage_unlock(int fd)
{
    close(fd); /* releases the lock */
}

static bool usage_read(int fd, uint64_t *bytes, uint64_t *hits)
{
    char buf[64];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return false;
    buf[n] = 0;
    unsigned long long b, h;
    char nl;
    if (sscanf(buf, "%llu %llu%c", &b, &h, &nl) != 3 || nl != '\n') return false;
    *bytes = b;
    *hits = h;
    return true;
}

static void usage_write(int fd, uint64_t bytes, uint64_t hits)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%llu %llu\n", (unsigned long long)bytes, (unsigned long long)hits);
    if (pwrite(fd, buf, (size_t)n, 0) == n) (void)ftruncate(fd, n);
}

static void usage_note_hit(const char *dir)
{
    int fd = usage_lock(dir);
    if (fd < 0) return;
    uint64_t bytes = 0, hits = 0;
    bool known = usage_read(fd, &bytes, &hits);
    /* unknown bytes: UINT64_MAX makes the next write scan */
    usage_write(fd, known ? bytes : UINT64_MAX, hits + 1);
    usage_unlock(fd);
}

/* Where a scan triggered by the bound evicts down to. Evicting only to the
 * bound itself left a full cache at the bound, so that every later write
 * passed it again and scanned the whole directory (a stat per entry, seconds
 * for 10^5 entries) while holding the usage lock that every other process
 * waits on. An eighth of slack makes a scan happen once per max/8 bytes
 * written. */
static uint64_t low_water(uint64_t max)
{
    return max - max / 8;
}

/* After writing an entry of `size` bytes: the entries evicted. */
static uint64_t usage_note_write(const char *dir, uint64_t max, uint64_t size)
{
    int fd = usage_lock(dir);
    if (fd < 0) return evict_scan(dir, low_water(max), NULL);
    uint64_t bytes = 0, hits = 0, evicted = 0;
    bool known = usage_read(fd, &bytes, &hits) && bytes != UINT64_MAX;
    if (known && bytes <= max && size <= max - bytes) bytes += size;
    else evicted = evict_scan(dir, low_water(max), &bytes);
    usage_write(fd, bytes, hits);
    usage_unlock(fd);
    return evicted;
}

uint64_t kj_cache_dir_evict(const char *dir, uint64_t max)
{
    int fd = usage_lock(dir);
    uint64_t bytes = 0, hits = 0;
    if (fd >= 0) usage_read(fd, &bytes, &hits);
    uint64_t evicted = evict_scan(dir, max, &bytes);
    if (fd >= 0) {
        usage_write(fd, bytes, hits);
        usage_unlock(fd);
    }
    return evicted;
}

uint64_t kj_cache_dir_hits(const char *dir)
{
    char *p = path_join(dir, "usage");
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    free(p);
    uint64_t bytes = 0, hits = 0;
    if (fd >= 0 && flock(fd, LOCK_SH) == 0 && !usage_read(fd, &bytes, &hits)) hits = 0;
    if (fd >= 0) close(fd);
    return hits;
}

/* Entry files and temporaries go; other files (not ours) stay, and so do
 * the fan-out directories: a concurrent writer may be about to create its
 * temporary in one. */
static void clear_visit(int dfd, const char *sub, const char *nm, void *arg)
{
    (void)sub;
    bool entry = is_entry_name(nm);
    if ((entry || strncmp(nm, ".tmp-", 5) == 0) && unlinkat(dfd, nm, 0) == 0 && entry) ++*(uint64_t *)arg;
}

/* Under the usage lock, so that no write's size is added between the
 * removal and the reset (the hits are kept: they count since creation). */
uint64_t kj_cache_dir_clear(const char *dir)
{
    uint64_t removed = 0, bytes = 0, hits = 0;
    int fd = usage_lock(dir);
    for_each_file(dir, clear_visit, &removed);
    if (fd >= 0) {
        usage_read(fd, &bytes, &hits);
        usage_write(fd, 0, hits);
        usage_unlock(fd);
    }
    return removed;
}
