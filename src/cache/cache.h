/* SPDX-License-Identifier: BSD-2-Clause */
/* The compile cache: compiled objects (host object files, cubins) kept in
 * memory and on disk, keyed by a BLAKE3 hash of everything that determines
 * them.
 *
 *   kj_hasher h;
 *   kj_cache_key_init(&h, kjit_version());       // format, kjit and LLVM versions
 *   kj_hash_str(&h, "source", text);
 *   kj_hash_str(&h, "options", "O3 boundscheck=0");
 *   kj_hash_str(&h, "fn", "saxpy(float32[:], float32[:], float32)");
 *   kj_hash key = kj_hash_final(&h);
 *
 *   void *obj; size_t len;
 *   if (!kj_cache_get(cache, key, &obj, &len)) {
 *       ... compile into obj/len ...
 *       kj_cache_put(cache, key, obj, len);
 *   }
 *   ... use obj ...; free(obj);
 *
 * The memory layer is a map from key to bytes, bounded in total size
 * (least recently used entries go first). The disk layer holds one file
 * per key under the cache directory (docs/cache.md has the format); writes
 * are atomic (temporary file + rename), so concurrent processes may share a
 * directory and readers never see a partial entry. A truncated, corrupt or
 * foreign file reads as a miss, is counted and removed. Any failure of the
 * disk layer (missing, read-only or full cache directory) only makes the
 * cache forget: kj_cache_get/put never fail for that reason and print
 * nothing; kj_cache_dir_error says why the disk layer is off.
 *
 * One kj_cache per kjit context; every function is thread-safe. */
#ifndef KJ_CACHE_H
#define KJ_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/blake3.h>

/* ---- keys ---- */

enum { KJ_HASH_LEN = 32 };

/* A BLAKE3-256 digest. */
typedef struct kj_hash {
    uint8_t b[KJ_HASH_LEN];
} kj_hash;

typedef struct kj_hasher {
    llvm_blake3_hasher b3;
} kj_hasher;

/* Plain BLAKE3: init, feed bytes, finish (the hasher stays usable). */
void kj_hash_init(kj_hasher *h);
void kj_hash_update(kj_hasher *h, const void *data, size_t len);
kj_hash kj_hash_final(const kj_hasher *h);
/* BLAKE3 of one buffer. */
kj_hash kj_hash_bytes(const void *data, size_t len);

/* A labelled part of a key. Each part is framed with its label and length,
 * so no two different sequences of parts hash alike ("ab"+"c" differs from
 * "a"+"bc"). kj_hash_str of NULL differs from that of "". */
void kj_hash_part(kj_hasher *h, const char *label, const void *data, size_t len);
void kj_hash_str(kj_hasher *h, const char *label, const char *s);
void kj_hash_u64(kj_hasher *h, const char *label, uint64_t v);

/* Start a cache key: kj_hash_init followed by the parts every key must
 * hold: the cache format version, the compiler's version (kjit_version(),
 * given by the caller: the cache is a service of the compiler and knows
 * nothing of its public header) and the LLVM version (LLVMGetVersion), so
 * that upgrading either invalidates old entries. The caller adds the
 * source, options, target triple/CPU/features and the function with its
 * argument types. */
void kj_cache_key_init(kj_hasher *h, const char *version);

/* Lower-case hex of the hash into out (65 bytes with the NUL). */
char *kj_hash_hex(kj_hash key, char out[2 * KJ_HASH_LEN + 1]);

/* ---- the cache ---- */

typedef struct kj_cache kj_cache;

/* Default bound of the memory layer. */
#define KJ_CACHE_MEM_LIMIT ((size_t)256 << 20)

/* Default bound of the disk layer (KJIT_CACHE_MAX overrides it in the API). */
#define KJ_CACHE_DISK_MAX ((uint64_t)1 << 30)

/* Zero-initialised = the defaults. */
typedef struct kj_cache_options {
    const char *dir;  /* NULL: kj_cache_default_dir() */
    bool memory_only; /* no disk layer */
    bool fsync;       /* fsync each entry before renaming it into place: survives a power
                         loss, costs a few ms per entry (without it a crash can at worst
                         leave an entry that reads as corrupt, i.e. a miss) */
    size_t mem_limit; /* bytes kept in memory; 0: KJ_CACHE_MEM_LIMIT */
    uint64_t disk_max; /* bytes of entry files kept on disk; 0: KJ_CACHE_DISK_MAX. After a disk
                          write that takes the total (kept in DIR/usage) past it, least recently
                          used entries (by modification time, which a disk hit refreshes) are
                          removed until it fits */
} kj_cache_options;

/* The default cache directory, malloc'd: $KJIT_CACHE_DIR, else
 * $XDG_CACHE_HOME/kjit (an absolute XDG_CACHE_HOME only, as the XDG spec
 * says), else $HOME/.cache/kjit; NULL when none is set (empty counts as
 * unset). */
char *kj_cache_default_dir(void);

/* A new cache; `opt` may be NULL. Never fails (aborts only when out of
 * memory): when the directory cannot be created (mode 0700) or written, the
 * disk layer is off and the cache works in memory. */
kj_cache *kj_cache_open(const kj_cache_options *opt);
void kj_cache_close(kj_cache *c);

/* The disk directory in use, or NULL when the disk layer is off; then
 * kj_cache_dir_error says why ("" when it was not asked for). */
const char *kj_cache_dir(const kj_cache *c);
const char *kj_cache_dir_error(const kj_cache *c);

/* Look `key` up in memory, then on disk (a disk hit is kept in memory).
 * On a hit, *data is a malloc'd copy the caller frees (non-NULL even for
 * an empty entry) and *len its size. */
bool kj_cache_get(kj_cache *c, kj_hash key, void **data, size_t *len);

/* Store a copy of data[0..len) under `key`, in memory and on disk; an
 * existing entry is replaced. Returns whether the disk layer has the entry
 * now (false when it is off or the write failed; the memory layer has it
 * whenever it fits the limit). */
bool kj_cache_put(kj_cache *c, kj_hash key, const void *data, size_t len);

/* Drop every entry from memory and, when `disk`, every entry file (and
 * leftover temporary file) from the directory. */
void kj_cache_clear(kj_cache *c, bool disk);

/* Counters since kj_cache_open, for tests and `kjit -v`. */
typedef struct kj_cache_stats {
    uint64_t mem_hits, disk_hits, misses;
    uint64_t corrupt;      /* disk entries found damaged (each also a miss), removed */
    uint64_t puts;         /* kj_cache_put calls */
    uint64_t disk_writes;  /* entries written to disk */
    uint64_t write_errors; /* failed disk writes */
    uint64_t evictions;    /* memory entries dropped for the limit */
    uint64_t disk_evictions; /* entry files removed for disk_max */
    size_t mem_entries, mem_bytes;
} kj_cache_stats;

kj_cache_stats kj_cache_get_stats(kj_cache *c);

/* ---- a cache directory, without opening a cache (kjit cache) ---- */

/* The entry files of `dir` (temporaries and foreign files not counted):
 * their number and total size. A missing directory has none. */
void kj_cache_dir_usage(const char *dir, uint64_t *entries, uint64_t *bytes);
/* Remove least recently used entry files of `dir` until their total is at
 * most `max` bytes; returns how many were removed. Safe beside other
 * processes using the directory: an entry removed under a reader is a
 * miss, one renamed in meanwhile is the newest and stays. */
uint64_t kj_cache_dir_evict(const char *dir, uint64_t max);
/* Remove every entry file and leftover temporary of `dir` (other files
 * stay); returns how many entries were removed. */
uint64_t kj_cache_dir_clear(const char *dir);
/* Disk hits on `dir` since it was created, by every process (kept in
 * DIR/usage with the entries' total size; docs/cache.md); 0 when unknown. */
uint64_t kj_cache_dir_hits(const char *dir);

/* The path of the disk file for `key` (whether or not it exists), malloc'd;
 * NULL when the disk layer is off. For tests and `kjit -v`. */
char *kj_cache_entry_path(const kj_cache *c, kj_hash key);

#endif
