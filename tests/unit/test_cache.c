/* SPDX-License-Identifier: BSD-2-Clause */
/* The compile cache: BLAKE3 keys, memory and disk hits, misses, damaged
 * entries of every kind, unusable directories, environment variables,
 * LRU eviction, clearing, four threads on one cache and two processes
 * writing one directory at once.
 *
 * Every test gets a fresh directory from mkdtemp (the cmocka state) and
 * removes it afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache.h"

/* --- helpers ------------------------------------------------------------ */

/* The compiler version the keys are made for (kjit_version() in the library). */
#define VERSION "9.8.7"

typedef struct {
    char dir[64];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f) return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/kjit-cache-test-XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    *state = f;
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void rm_rf(const char *path)
{
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int teardown(void **state)
{
    fixture *f = *state;
    chmod(f->dir, 0700); /* in case a test made it read-only */
    rm_rf(f->dir);
    free(f);
    return 0;
}

static const char *tdir(void **state)
{
    return ((fixture *)*state)->dir;
}

/* "<test dir>/<rel>" in a static buffer (tests are single-threaded here). */
static const char *sub(void **state, const char *rel)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", tdir(state), rel);
    return p;
}

static kj_cache *open_dir(const char *dir, size_t mem_limit)
{
    kj_cache_options o = {.dir = dir, .mem_limit = mem_limit};
    kj_cache *c = kj_cache_open(&o);
    assert_non_null(c);
    return c;
}

static kj_hash key_of(uint64_t i)
{
    kj_hasher h;
    kj_cache_key_init(&h, VERSION);
    kj_hash_u64(&h, "test-key", i);
    return kj_hash_final(&h);
}

/* Deterministic pseudo-random bytes (xorshift64*) from a seed. */
static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        p[i] = (uint8_t)((x * 0x2545F4914F6CDD1Du) >> 56);
    }
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* --- hashing ------------------------------------------------------------ */

/* The official BLAKE3 test vectors (test_vectors.json: the input is the
 * byte sequence 0, 1, ..., 250, 0, 1, ... of the given length). */
static void test_blake3_vectors(void **state)
{
    (void)state;
    static const struct {
        size_t len;
        const char *hash;
    } v[] = {
        {0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
        {1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"},
        {1023, "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11"},
        {1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7"},
        {1025, "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"},
    };
    uint8_t in[1025];
    for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i % 251);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char hex[65];
        kj_hash_hex(kj_hash_bytes(in, v[i].len), hex);
        assert_string_equal(hex, v[i].hash);
    }
}

static void test_hash_incremental_equals_one_shot(void **state)
{
    (void)state;
    uint8_t buf[5000];
    fill(buf, sizeof buf, 7);
    kj_hasher h;
    kj_hash_init(&h);
    kj_hash_update(&h, buf, 1);
    kj_hash_update(&h, buf + 1, 2999);
    kj_hash_update(&h, buf + 3000, 2000);
    kj_hash a = kj_hash_final(&h), b = kj_hash_bytes(buf, sizeof buf);
    assert_memory_equal(a.b, b.b, 32);
    b = kj_hash_bytes(buf, sizeof buf - 1);
    assert_memory_not_equal(a.b, b.b, 32);
}

static kj_hash two_parts(const char *l1, const char *s1, const char *l2, const char *s2)
{
    kj_hasher h;
    kj_cache_key_init(&h, VERSION);
    kj_hash_str(&h, l1, s1);
    kj_hash_str(&h, l2, s2);
    return kj_hash_final(&h);
}

/* Distinct sequences of parts never hash alike by concatenation. */
static void test_key_parts_are_framed(void **state)
{
    (void)state;
    kj_hash a = two_parts("x", "ab", "y", "c"), b = two_parts("x", "a", "y", "bc");
    assert_memory_not_equal(a.b, b.b, 32);
    a = two_parts("x", "", "y", "c"), b = two_parts("x", NULL, "y", "c");
    assert_memory_not_equal(a.b, b.b, 32);
    a = two_parts("xa", "b", "y", "c"), b = two_parts("x", "ab", "y", "c");
    assert_memory_not_equal(a.b, b.b, 32);
    a = two_parts("x", "ab", "y", "c"), b = two_parts("x", "ab", "y", "c");
    assert_memory_equal(a.b, b.b, 32);

    /* kj_hash_str is kj_hash_part of the string's bytes. */
    kj_hasher h1, h2;
    kj_hash_init(&h1), kj_hash_init(&h2);
    kj_hash_str(&h1, "src", "def f(): pass");
    kj_hash_part(&h2, "src", "def f(): pass", 13);
    a = kj_hash_final(&h1), b = kj_hash_final(&h2);
    assert_memory_equal(a.b, b.b, 32);

    /* A key starts from the versions: it differs from a plain hash, and
     * from the key of another compiler version. */
    kj_cache_key_init(&h1, VERSION), kj_hash_init(&h2);
    a = kj_hash_final(&h1), b = kj_hash_final(&h2);
    assert_memory_not_equal(a.b, b.b, 32);
    kj_hasher h3;
    kj_cache_key_init(&h3, "0.0.1");
    kj_hash c = kj_hash_final(&h3);
    assert_memory_not_equal(a.b, c.b, 32);
    char hex[65];
    assert_int_equal(strlen(kj_hash_hex(b, hex)), 64);
    assert_string_equal(hex, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
}

/* --- hits and misses ---------------------------------------------------- */

static void test_put_get_round_trip(void **state)
{
    kj_cache *c = open_dir(tdir(state), 0);
    assert_string_equal(kj_cache_dir(c), tdir(state));
    assert_string_equal(kj_cache_dir_error(c), "");
    uint8_t buf[10000];
    fill(buf, sizeof buf, 1);
    kj_hash k = key_of(1);
    assert_true(kj_cache_put(c, k, buf, sizeof buf));

    void *data = NULL;
    size_t len = 0;
    assert_true(kj_cache_get(c, k, &data, &len));
    assert_int_equal(len, sizeof buf);
    assert_memory_equal(data, buf, sizeof buf);
    free(data);

    /* The file: dir/ab/cdef..., header + payload, private modes. */
    char hex[65], want[256];
    kj_hash_hex(k, hex);
    snprintf(want, sizeof want, "%s/%.2s/%s", tdir(state), hex, hex + 2);
    char *path = kj_cache_entry_path(c, k);
    assert_string_equal(path, want);
    assert_int_equal(file_size(path), 88 + sizeof buf);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    *strrchr(path, '/') = 0;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    free(path);

    kj_cache_stats s = kj_cache_get_stats(c);
    assert_int_equal(s.mem_hits, 1);
    assert_int_equal(s.disk_hits, 0);
    assert_int_equal(s.misses, 0);
    assert_int_equal(s.puts, 1);
    assert_int_equal(s.disk_writes, 1);
    assert_int_equal(s.mem_entries, 1);
    assert_true(s.mem_bytes >= sizeof buf);
    kj_cache_close(c);
}

static void test_miss(void **state)
{
    kj_cache *c = open_dir(tdir(state), 0);
    void *data = (void *)&data;
    size_t len = 77;
    assert_false(kj_cache_get(c, key_of(42), &data, &len));
    assert_ptr_equal(data, (void *)&data); /* untouched on a miss */
    assert_int_equal(len, 77);
    kj_cache_put(c, key_of(1), "x", 1);
    assert_false(kj_cache_get(c, key_of(2), &data, &len));
    kj_cache_stats s = kj_cache_get_stats(c);
    assert_int_equal(s.misses, 2);
    assert_int_equal(s.mem_hits + s.disk_hits + s.corrupt, 0);
    kj_cache_close(c);
}

/* A new cache object stands for a new process: the entry comes from disk,
 * then from memory. */
static void test_disk_hit_in_new_cache(void **state)
{
    uint8_t buf[3000];
    fill(buf, sizeof buf, 3);
    kj_cache *c = open_dir(tdir(state), 0);
    assert_true(kj_cache_put(c, key_of(5), buf, sizeof buf));
    assert_true(kj_cache_put(c, key_of(6), "", 0)); /* empty entries work too */
    kj_cache_close(c);

    c = open_dir(tdir(state), 0);
    void *data;
    size_t len;
    for (int round = 0; round < 2; round++) {
        assert_true(kj_cache_get(c, key_of(5), &data, &len));
        assert_int_equal(len, sizeof buf);
        assert_memory_equal(data, buf, sizeof buf);
        free(data);
    }
    assert_true(kj_cache_get(c, key_of(6), &data, &len));
    assert_non_null(data);
    assert_int_equal(len, 0);
    free(data);
    kj_cache_stats s = kj_cache_get_stats(c);
    assert_int_equal(s.disk_hits, 2);
    assert_int_equal(s.mem_hits, 1);
    assert_int_equal(s.misses, 0);
    assert_int_equal(s.mem_entries, 2);
    kj_cache_close(c);
}

static void test_put_replaces(void **state)
{
    kj_cache *c = open_dir(tdir(state), 0);
    kj_cache_put(c, key_of(1), "first", 5);
    kj_cache_put(c, key_of(1), "second!", 7);
    void *data;
    size_t len;
    assert_true(kj_cache_get(c, key_of(1), &data, &len));
    assert_int_equal(len, 7);
    assert_memory_equal(data, "second!", 7);
    free(data);
    assert_int_equal(kj_cache_get_stats(c).mem_entries, 1);
    kj_cache_close(c);

    c = open_dir(tdir(state), 0);
    assert_true(kj_cache_get(c, key_of(1), &data, &len));
    assert_int_equal(len, 7);
    assert_memory_equal(data, "second!", 7);
    free(data);
    kj_cache_close(c);
}

/* --- damaged entries ---------------------------------------------------- */

typedef enum {
    FLIP_PAYLOAD,
    FLIP_LAST_BYTE,
    FLIP_KEY,
    FLIP_CHECKSUM,
    FLIP_LENGTH,
    WRONG_MAGIC,
    WRONG_VERSION,
    TRUNCATE_HALF,
    TRUNCATE_TO_HEADER,
    TRUNCATE_IN_HEADER,
    ZERO_LENGTH,
    TRAILING_BYTE,
    OTHER_KEYS_FILE,
    DAMAGE__COUNT
} damage;

static const char *damage_names[] = {
    "flip payload byte", "flip last byte", "flip key byte",        "flip checksum byte",
    "flip length byte",  "wrong magic",    "wrong format version", "truncate to half",
    "truncate to header", "truncate in header", "zero length",     "trailing byte",
    "another key's file",
};

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n + 1);
    assert_int_equal(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static void spit(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

/* Damage the file at `path` (an intact entry of `other`'s size when the
 * damage is OTHER_KEYS_FILE: the file of entry `other_path`). */
static void apply_damage(damage d, const char *path, const char *other_path)
{
    size_t n;
    uint8_t *b = slurp(d == OTHER_KEYS_FILE ? other_path : path, &n);
    switch (d) {
    case FLIP_PAYLOAD: b[88 + 100] ^= 0x01; break;
    case FLIP_LAST_BYTE: b[n - 1] ^= 0x80; break;
    case FLIP_KEY: b[24 + 31] ^= 0x10; break;
    case FLIP_CHECKSUM: b[56] ^= 0xff; break;
    case FLIP_LENGTH: b[16] ^= 0x01; break;
    case WRONG_MAGIC: memcpy(b, "\x7f" "ELF\2\1\1\0", 8); break;
    case WRONG_VERSION: b[8] = 99; break;
    case TRUNCATE_HALF: n /= 2; break;
    case TRUNCATE_TO_HEADER: n = 88; break;
    case TRUNCATE_IN_HEADER: n = 40; break;
    case ZERO_LENGTH: n = 0; break;
    case TRAILING_BYTE: b[n++] = 0; break;
    case OTHER_KEYS_FILE: break;
    case DAMAGE__COUNT: fail();
    }
    spit(path, b, n);
    free(b);
}

/* Every kind of damage reads as a miss, is counted, and the file goes;
 * putting the entry again (after the "recompile") makes it a hit. */
static void test_damaged_entries(void **state)
{
    uint8_t buf[4096];
    fill(buf, sizeof buf, 11);
    for (int d = 0; d < DAMAGE__COUNT; d++) {
        print_message("damage: %s\n", damage_names[d]);
        kj_hash k = key_of(1000 + (uint64_t)d), other = key_of(2000);
        kj_cache *c = open_dir(tdir(state), 0);
        assert_true(kj_cache_put(c, k, buf, sizeof buf));
        assert_true(kj_cache_put(c, other, buf, sizeof buf));
        char *path = kj_cache_entry_path(c, k), *other_path = kj_cache_entry_path(c, other);
        kj_cache_close(c);
        apply_damage((damage)d, path, other_path);

        c = open_dir(tdir(state), 0);
        void *data = NULL;
        size_t len = 0;
        assert_false(kj_cache_get(c, k, &data, &len));
        assert_null(data);
        kj_cache_stats s = kj_cache_get_stats(c);
        assert_int_equal(s.corrupt, 1);
        assert_int_equal(s.misses, 1);
        assert_false(file_exists(path));
        assert_true(file_exists(other_path));

        assert_true(kj_cache_put(c, k, buf, sizeof buf));
        kj_cache_close(c);
        c = open_dir(tdir(state), 0);
        assert_true(kj_cache_get(c, k, &data, &len));
        assert_int_equal(len, sizeof buf);
        assert_memory_equal(data, buf, sizeof buf);
        free(data);
        assert_int_equal(kj_cache_get_stats(c).corrupt, 0);
        kj_cache_close(c);
        free(path);
        free(other_path);
    }
}

/* A directory where an entry file should be: damaged, but not removable
 * by unlink; still a miss, and no crash. */
static void test_entry_path_is_directory(void **state)
{
    kj_cache *c = open_dir(tdir(state), 0);
    char *path = kj_cache_entry_path(c, key_of(9));
    *strrchr(path, '/') = 0;
    assert_int_equal(mkdir(path, 0700), 0);
    free(path);
    path = kj_cache_entry_path(c, key_of(9));
    assert_int_equal(mkdir(path, 0700), 0);
    void *data;
    size_t len;
    assert_false(kj_cache_get(c, key_of(9), &data, &len));
    assert_false(kj_cache_put(c, key_of(9), "abc", 3)); /* rename over a directory fails */
    assert_int_equal(kj_cache_get_stats(c).write_errors, 1);
    assert_true(kj_cache_get(c, key_of(9), &data, &len)); /* memory still has it */
    free(data);
    free(path);
    kj_cache_close(c);
}

/* --- unusable directories ----------------------------------------------- */

static void check_memory_works(kj_cache *c)
{
    assert_false(kj_cache_put(c, key_of(1), "hello", 5));
    void *data;
    size_t len;
    assert_true(kj_cache_get(c, key_of(1), &data, &len));
    assert_int_equal(len, 5);
    assert_memory_equal(data, "hello", 5);
    free(data);
    assert_false(kj_cache_get(c, key_of(2), &data, &len));
    kj_cache_stats s = kj_cache_get_stats(c);
    assert_int_equal(s.mem_hits, 1);
    assert_int_equal(s.misses, 1);
    assert_int_equal(s.disk_writes + s.write_errors, 0);
    assert_null(kj_cache_entry_path(c, key_of(1)));
}

/* A path below a regular file can never be created, even by root. */
static void test_directory_under_a_file(void **state)
{
    spit(sub(state, "file"), (const uint8_t *)"x", 1);
    kj_cache *c = open_dir(sub(state, "file/kjit"), 0);
    assert_null(kj_cache_dir(c));
    assert_non_null(strstr(kj_cache_dir_error(c), "file/kjit"));
    assert_non_null(strstr(kj_cache_dir_error(c), "Not a directory"));
    check_memory_works(c);
    kj_cache_close(c);

    c = open_dir(sub(state, "file"), 0); /* the "directory" is a file */
    assert_null(kj_cache_dir(c));
    check_memory_works(c);
    kj_cache_close(c);
}

static void test_read_only_directory(void **state)
{
    if (geteuid() == 0) skip(); /* root writes anywhere */
    assert_int_equal(mkdir(sub(state, "ro"), 0500), 0);
    kj_cache *c = open_dir(sub(state, "ro"), 0);
    assert_null(kj_cache_dir(c));
    assert_non_null(strstr(kj_cache_dir_error(c), "Permission denied"));
    check_memory_works(c);
    kj_cache_close(c);
}

static void test_memory_only(void **state)
{
    kj_cache_options o = {.dir = tdir(state), .memory_only = true};
    kj_cache *c = kj_cache_open(&o);
    assert_null(kj_cache_dir(c));
    assert_string_equal(kj_cache_dir_error(c), "");
    check_memory_works(c);
    kj_cache_close(c);
    assert_int_equal(rmdir(tdir(state)), 0); /* nothing was written into it */
    assert_int_equal(mkdir(tdir(state), 0700), 0);
}

static void test_creates_missing_directories(void **state)
{
    kj_cache *c = open_dir(sub(state, "a/b/c"), 0);
    assert_non_null(kj_cache_dir(c));
    const char *dirs[] = {"a", "a/b", "a/b/c"};
    for (int i = 0; i < 3; i++) {
        struct stat st;
        assert_int_equal(stat(sub(state, dirs[i]), &st), 0);
        assert_true(S_ISDIR(st.st_mode));
        assert_int_equal(st.st_mode & 0777, 0700);
    }
    assert_true(kj_cache_put(c, key_of(1), "x", 1));

    /* Removed while in use: the next put makes it again. */
    rm_rf(sub(state, "a"));
    assert_true(kj_cache_put(c, key_of(2), "y", 1));
    kj_cache_close(c);
    c = open_dir(sub(state, "a/b/c"), 0);
    void *data;
    size_t len;
    assert_true(kj_cache_get(c, key_of(2), &data, &len));
    free(data);
    assert_false(kj_cache_get(c, key_of(1), &data, &len));
    kj_cache_close(c);
}

/* --- environment -------------------------------------------------------- */

typedef struct {
    char *v[3];
} saved_env;

static const char *env_names[3] = {"KJIT_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};

static saved_env env_save(void)
{
    saved_env s;
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(env_names[i]);
        s.v[i] = v ? strdup(v) : NULL;
    }
    return s;
}

static void env_restore(saved_env *s)
{
    for (int i = 0; i < 3; i++) {
        if (s->v[i]) setenv(env_names[i], s->v[i], 1);
        else unsetenv(env_names[i]);
        free(s->v[i]);
    }
}

static void assert_default_dir(const char *want)
{
    char *d = kj_cache_default_dir();
    if (!want) {
        assert_null(d);
        return;
    }
    assert_non_null(d);
    assert_string_equal(d, want);
    free(d);
}

static void test_env_resolution(void **state)
{
    saved_env saved = env_save();
    setenv("KJIT_CACHE_DIR", "/k/dir", 1);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    assert_default_dir("/k/dir");
    setenv("KJIT_CACHE_DIR", "", 1); /* empty = unset */
    assert_default_dir("/xdg/kjit");
    unsetenv("KJIT_CACHE_DIR");
    assert_default_dir("/xdg/kjit");
    setenv("XDG_CACHE_HOME", "relative/cache", 1); /* invalid per the XDG spec */
    assert_default_dir("/home/u/.cache/kjit");
    unsetenv("XDG_CACHE_HOME");
    assert_default_dir("/home/u/.cache/kjit");
    unsetenv("HOME");
    assert_default_dir(NULL);

    /* No directory at all: memory only, with the reason. */
    kj_cache *c = kj_cache_open(NULL);
    assert_null(kj_cache_dir(c));
    assert_non_null(strstr(kj_cache_dir_error(c), "KJIT_CACHE_DIR"));
    check_memory_works(c);
    kj_cache_close(c);

    /* kj_cache_open(NULL) follows the variables; an explicit dir wins. */
    setenv("XDG_CACHE_HOME", sub(state, "xdg"), 1);
    c = kj_cache_open(NULL);
    assert_string_equal(kj_cache_dir(c), sub(state, "xdg/kjit"));
    kj_cache_close(c);
    setenv("KJIT_CACHE_DIR", sub(state, "env"), 1);
    c = kj_cache_open(NULL);
    assert_string_equal(kj_cache_dir(c), sub(state, "env"));
    kj_cache_close(c);
    c = open_dir(sub(state, "explicit"), 0);
    assert_string_equal(kj_cache_dir(c), sub(state, "explicit"));
    kj_cache_close(c);
    env_restore(&saved);
}

/* --- memory bound ------------------------------------------------------- */

/* What one entry of n bytes costs in memory (header included). */
static size_t cost_of(size_t n)
{
    kj_cache_options o = {.memory_only = true};
    kj_cache *c = kj_cache_open(&o);
    uint8_t buf[4096] = {0};
    assert_true(n <= sizeof buf);
    kj_cache_put(c, key_of(0), buf, n);
    size_t cost = kj_cache_get_stats(c).mem_bytes;
    kj_cache_close(c);
    assert_true(cost >= n);
    return cost;
}

static bool has(kj_cache *c, uint64_t k)
{
    void *data;
    size_t len;
    bool hit = kj_cache_get(c, key_of(k), &data, &len);
    if (hit) free(data);
    return hit;
}

static void test_lru_eviction(void **state)
{
    (void)state;
    uint8_t buf[1000];
    fill(buf, sizeof buf, 5);
    size_t cost = cost_of(sizeof buf);
    kj_cache_options o = {.memory_only = true, .mem_limit = 2 * cost + cost / 2};
    kj_cache *c = kj_cache_open(&o);
    kj_cache_put(c, key_of(1), buf, sizeof buf);
    kj_cache_put(c, key_of(2), buf, sizeof buf);
    assert_true(has(c, 1)); /* 1 is now more recent than 2 */
    kj_cache_put(c, key_of(3), buf, sizeof buf);
    kj_cache_stats s = kj_cache_get_stats(c);
    assert_int_equal(s.evictions, 1);
    assert_int_equal(s.mem_entries, 2);
    assert_int_equal(s.mem_bytes, 2 * cost);
    assert_true(has(c, 1));
    assert_false(has(c, 2));
    assert_true(has(c, 3));

    /* Larger than the whole bound: not kept, nothing evicted. */
    static uint8_t big[8192];
    kj_cache_put(c, key_of(4), big, sizeof big);
    assert_false(has(c, 4));
    assert_int_equal(kj_cache_get_stats(c).mem_entries, 2);
    assert_int_equal(kj_cache_get_stats(c).evictions, 1);

    /* Many entries: the bound holds and the table grows. */
    for (uint64_t k = 100; k < 1100; k++) kj_cache_put(c, key_of(k), buf, k % 7);
    s = kj_cache_get_stats(c);
    assert_true(s.mem_bytes <= o.mem_limit);
    assert_true(has(c, 1099));
    kj_cache_close(c);
}

/* Too big for memory, but the disk has it. */
/* Set an entry's modification time to `ago` seconds in the past. */
static void age(kj_cache *c, uint64_t k, int ago)
{
    char *p = kj_cache_entry_path(c, key_of(k));
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= ago;
    t[1] = t[0];
    assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
    free(p);
}

static bool on_disk(kj_cache *c, uint64_t k)
{
    char *p = kj_cache_entry_path(c, key_of(k));
    bool e = file_exists(p);
    free(p);
    return e;
}

/* The disk bound: past disk_max, the least recently used entry files go
 * (by modification time; a disk hit refreshes it), the newest stays. */
static void test_disk_bound_lru(void **state)
{
    enum { N = 1000, ENTRY = N + 88 };
    uint8_t buf[N];
    fill(buf, N, 9);
    kj_cache_options o = {.dir = tdir(state), .disk_max = 3 * ENTRY + ENTRY / 2};
    kj_cache *c = kj_cache_open(&o);
    for (uint64_t k = 1; k <= 3; k++) assert_true(kj_cache_put(c, key_of(k), buf, N));
    uint64_t entries, bytes;
    kj_cache_dir_usage(tdir(state), &entries, &bytes);
    assert_int_equal(entries, 3);
    assert_int_equal(bytes, 3 * ENTRY);
    /* coarse file-system clocks: make the order explicit, 1 the oldest */
    age(c, 1, 300), age(c, 2, 200), age(c, 3, 100);
    kj_cache_close(c);
    /* a new process reads 1 from disk: now 2 is the least recently used */
    c = kj_cache_open(&o);
    void *data;
    size_t len;
    assert_true(kj_cache_get(c, key_of(1), &data, &len));
    free(data);
    assert_int_equal(kj_cache_dir_hits(tdir(state)), 1);
    assert_true(kj_cache_put(c, key_of(4), buf, N));
    assert_false(on_disk(c, 2));
    assert_true(on_disk(c, 1) && on_disk(c, 3) && on_disk(c, 4));
    assert_int_equal(kj_cache_get_stats(c).disk_evictions, 1);
    kj_cache_dir_usage(tdir(state), &entries, &bytes);
    assert_true(bytes <= o.disk_max);
    /* an entry larger than the bound evicts everything, itself included */
    uint8_t *big = calloc(1, 4 * ENTRY);
    assert_non_null(big);
    kj_cache_put(c, key_of(5), big, 4 * ENTRY);
    free(big);
    kj_cache_dir_usage(tdir(state), &entries, &bytes);
    assert_int_equal(entries, 0);
    /* clearing counts what it removed; a missing directory has nothing */
    for (uint64_t k = 1; k <= 2; k++) assert_true(kj_cache_put(c, key_of(k), buf, N));
    assert_int_equal(kj_cache_dir_clear(tdir(state)), 2);
    assert_int_equal(kj_cache_dir_hits(tdir(state)), 1); /* since creation: kept */
    /* the total is kept in DIR/usage: after the clear it starts again from 0,
     * so three entries fit without a scan and the fourth evicts one */
    for (uint64_t k = 1; k <= 4; k++) assert_true(kj_cache_put(c, key_of(k), buf, N));
    kj_cache_dir_usage(tdir(state), &entries, &bytes);
    assert_int_equal(entries, 3);
    assert_int_equal(kj_cache_dir_clear(tdir(state)), 3);
    kj_cache_dir_usage(sub(state, "nowhere"), &entries, &bytes);
    assert_int_equal(entries + bytes, 0);
    assert_int_equal(kj_cache_dir_evict(sub(state, "nowhere"), 1), 0);
    kj_cache_close(c);
}

/* A scan triggered by the bound evicts down to 7/8 of it, not to the bound
 * itself: otherwise every later write into a full cache passes the bound
 * again and rescans the whole directory under the usage lock. */
static void test_disk_bound_slack(void **state)
{
    enum { N = 1000, ENTRY = N + 88 };
    uint8_t buf[N];
    fill(buf, N, 7);
    kj_cache_options o = {.dir = tdir(state), .disk_max = 8 * ENTRY};
    kj_cache *c = kj_cache_open(&o);
    for (uint64_t k = 1; k <= 8; k++) assert_true(kj_cache_put(c, key_of(k), buf, N));
    assert_int_equal(kj_cache_get_stats(c).disk_evictions, 0);
    /* the ninth passes the bound: down to 7/8 of it, two entries go */
    assert_true(kj_cache_put(c, key_of(9), buf, N));
    assert_int_equal(kj_cache_get_stats(c).disk_evictions, 2);
    uint64_t entries, bytes;
    kj_cache_dir_usage(tdir(state), &entries, &bytes);
    assert_int_equal(entries, 7);
    /* the next write fits in the slack: nothing more is evicted */
    assert_true(kj_cache_put(c, key_of(10), buf, N));
    assert_int_equal(kj_cache_get_stats(c).disk_evictions, 2);
    kj_cache_dir_usage(tdir(state), &entries, &bytes);
    assert_int_equal(entries, 8);
    kj_cache_close(c);
}

static void test_large_entry_goes_to_disk(void **state)
{
    size_t n = 1 << 20;
    uint8_t *big = malloc(n);
    fill(big, n, 9);
    kj_cache *c = open_dir(tdir(state), 4096);
    assert_true(kj_cache_put(c, key_of(1), big, n));
    assert_int_equal(kj_cache_get_stats(c).mem_entries, 0);
    void *data;
    size_t len;
    assert_true(kj_cache_get(c, key_of(1), &data, &len));
    assert_int_equal(len, n);
    assert_memory_equal(data, big, n);
    free(data);
    assert_int_equal(kj_cache_get_stats(c).disk_hits, 1);
    kj_cache_close(c);
    free(big);
}

/* --- clearing ----------------------------------------------------------- */

static void test_clear(void **state)
{
    kj_cache *c = open_dir(tdir(state), 0);
    for (uint64_t k = 0; k < 20; k++) kj_cache_put(c, key_of(k), "data", 4);
    char *path = kj_cache_entry_path(c, key_of(0));
    char stray[300], foreign[300];
    snprintf(stray, sizeof stray, "%.*s/.tmp-left-by-a-crash-XXXXXX",
             (int)(strrchr(path, '/') - path), path);
    close(mkstemp(stray));
    snprintf(foreign, sizeof foreign, "%s/README", tdir(state));
    spit(foreign, (const uint8_t *)"mine", 4);

    kj_cache_clear(c, false); /* memory only: the disk still has them */
    assert_int_equal(kj_cache_get_stats(c).mem_entries, 0);
    assert_true(has(c, 3));
    assert_int_equal(kj_cache_get_stats(c).disk_hits, 1);

    kj_cache_clear(c, true);
    assert_false(file_exists(path));
    assert_false(file_exists(stray));
    assert_true(file_exists(foreign));
    for (uint64_t k = 0; k < 20; k++) assert_false(has(c, k));
    assert_true(kj_cache_put(c, key_of(0), "again", 5)); /* still usable */
    assert_true(has(c, 0));
    free(path);
    kj_cache_close(c);
}

/* --- threads ------------------------------------------------------------ */

enum { N_THREADS = 4, THREAD_KEYS = 64, THREAD_ITERS = 600 };

typedef struct {
    kj_cache *c;
    int id;
    atomic_int *failures;
} thread_arg;

/* The content of key k depends only on k, as a compiled object would. */
static size_t content_len(uint64_t k)
{
    return 500 + (k * 977) % 6000;
}

static void *thread_main(void *p)
{
    thread_arg *a = p;
    static _Thread_local uint8_t want[8000];
    for (int i = 0; i < THREAD_ITERS; i++) {
        uint64_t k = (uint64_t)(i * 7 + a->id * 13) % THREAD_KEYS;
        size_t n = content_len(k);
        fill(want, n, k);
        void *data;
        size_t len;
        if (kj_cache_get(a->c, key_of(k), &data, &len)) {
            if (len != n || memcmp(data, want, n) != 0) atomic_fetch_add(a->failures, 1);
            free(data);
        } else if (!kj_cache_put(a->c, key_of(k), want, n)) {
            atomic_fetch_add(a->failures, 1);
        }
    }
    return NULL;
}

/* Four threads share one cache whose memory holds only part of the keys,
 * so they hit memory, hit disk, evict and write concurrently. */
static void test_threads(void **state)
{
    kj_cache *c = open_dir(tdir(state), 64 * 1024);
    atomic_int failures = 0;
    pthread_t t[N_THREADS];
    thread_arg args[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        args[i] = (thread_arg){c, i, &failures};
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &args[i]), 0);
    }
    for (int i = 0; i < N_THREADS; i++) pthread_join(t[i], NULL);
    assert_int_equal(atomic_load(&failures), 0);
    kj_cache_stats s = kj_cache_get_stats(c);
    assert_int_equal(s.corrupt, 0);
    assert_int_equal(s.write_errors, 0);
    assert_int_equal(s.mem_hits + s.disk_hits + s.misses, N_THREADS * THREAD_ITERS);
    assert_true(s.disk_hits > 0);
    assert_true(s.evictions > 0);
    assert_true(s.mem_bytes <= 64 * 1024);
    kj_cache_close(c);
}

/* --- two processes ------------------------------------------------------ */

enum { PER_CHILD = 200, SHARED = 200, MIN_LEN = 16 << 10, MAX_LEN = 160 << 10 };

/* Keys: writer w's own keys are w*1000 + i; shared keys are 5000 + i. A
 * payload is [u64 key][u64 writer][bytes from seed (key, writer)], its
 * length depending on both, so a mix of two writers' versions or a
 * truncation is always detected. */
static size_t payload_len(uint64_t k, uint64_t w)
{
    return MIN_LEN + (size_t)((k * 7919 + w * 104729) % (MAX_LEN - MIN_LEN));
}

static uint8_t *make_payload(uint64_t k, uint64_t w, size_t *n)
{
    *n = payload_len(k, w);
    uint8_t *p = malloc(*n);
    memcpy(p, &k, 8);
    memcpy(p + 8, &w, 8);
    fill(p + 16, *n - 16, k * 31 + w);
    return p;
}

/* Is data a complete payload of key k by one of the writers in [w0, w1]? */
static bool payload_ok(const void *data, size_t len, uint64_t k, uint64_t w0, uint64_t w1)
{
    uint64_t dk, dw;
    if (len < 16) return false;
    memcpy(&dk, data, 8);
    memcpy(&dw, (const uint8_t *)data + 8, 8);
    if (dk != k || dw < w0 || dw > w1) return false;
    size_t n;
    uint8_t *want = make_payload(k, dw, &n);
    bool ok = n == len && memcmp(want, data, n) == 0;
    free(want);
    return ok;
}

/* One writer process: interleaves its own keys with the shared ones (same
 * order in both, so they collide), and after each shared put reads a
 * shared key back through a second cache with no memory layer, i.e. from
 * the directory the other process is writing. Returns an exit status. */
static int child_main(const char *dir, uint64_t w, int go_fd)
{
    char c1;
    if (read(go_fd, &c1, 1) != 0) return 10; /* wait for the parent's go */
    kj_cache *c = open_dir(dir, 0), *reader = open_dir(dir, 1);
    if (!kj_cache_dir(c) || !kj_cache_dir(reader)) return 11;
    int rc = 0;
    for (uint64_t i = 0; i < PER_CHILD && !rc; i++) {
        size_t n;
        uint8_t *p = make_payload(w * 1000 + i, w, &n);
        if (!kj_cache_put(c, key_of(w * 1000 + i), p, n)) rc = 12;
        free(p);
        p = make_payload(5000 + i, w, &n);
        if (!kj_cache_put(c, key_of(5000 + i), p, n)) rc = 13;
        free(p);
        /* A shared key this process has written: it must be there, whole,
         * in either writer's version. */
        uint64_t r = 5000 + (i * 37) % (i + 1);
        void *data;
        size_t len;
        if (!kj_cache_get(reader, key_of(r), &data, &len)) {
            rc = 15;
        } else {
            if (!payload_ok(data, len, r, 1, 2)) rc = 14;
            free(data);
        }
    }
    if (!rc && kj_cache_get_stats(reader).corrupt != 0) rc = 16;
    kj_cache_close(reader);
    kj_cache_close(c);
    return rc;
}

static void test_two_processes(void **state)
{
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid[2];
    for (int w = 0; w < 2; w++) {
        fflush(NULL);
        pid[w] = fork();
        assert_true(pid[w] >= 0);
        if (pid[w] == 0) {
            close(go[1]);
            _exit(child_main(tdir(state), (uint64_t)w + 1, go[0]));
        }
    }
    close(go[0]);
    close(go[1]); /* both children start now */
    for (int w = 0; w < 2; w++) {
        int status;
        assert_int_equal(waitpid(pid[w], &status, 0), pid[w]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }

    kj_cache *c = open_dir(tdir(state), 0);
    for (uint64_t i = 0; i < PER_CHILD + SHARED; i++) {
        for (uint64_t w = 1; w <= 2; w++) {
            uint64_t k = i < PER_CHILD ? w * 1000 + i : 5000 + (i - PER_CHILD);
            if (i >= PER_CHILD && w == 2) continue; /* each shared key once */
            void *data;
            size_t len;
            assert_true(kj_cache_get(c, key_of(k), &data, &len));
            assert_true(payload_ok(data, len, k, i < PER_CHILD ? w : 1, i < PER_CHILD ? w : 2));
            free(data);
        }
    }
    kj_cache_stats s = kj_cache_get_stats(c);
    assert_int_equal(s.disk_hits, 2 * PER_CHILD + SHARED);
    assert_int_equal(s.corrupt, 0);
    assert_int_equal(s.misses, 0);
    kj_cache_close(c);

    /* No temporary file was left behind. */
    char cmd[200];
    snprintf(cmd, sizeof cmd, "find '%s' -name '.tmp-*' | grep -q .", tdir(state));
    assert_int_not_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blake3_vectors),
        cmocka_unit_test(test_hash_incremental_equals_one_shot),
        cmocka_unit_test(test_key_parts_are_framed),
        cmocka_unit_test_setup_teardown(test_put_get_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_miss, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_hit_in_new_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(test_put_replaces, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_entries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entry_path_is_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_under_a_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_creates_missing_directories, setup, teardown),
        cmocka_unit_test_setup_teardown(test_env_resolution, setup, teardown),
        cmocka_unit_test(test_lru_eviction),
        cmocka_unit_test_setup_teardown(test_disk_bound_slack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_bound_lru, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large_entry_goes_to_disk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_processes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
