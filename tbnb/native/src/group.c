/* Tag interning and the counting sort that groups a run's points by tag while copying
 * them into the frame (a stable sort by tag, as numpy's). */
#include <stdlib.h>

#include "tbnb_native.h"
#include "wire.h"

/* Up to 8 bytes at s as a little-endian integer (n < 8: zero-padded). */
static uint64_t word(const uint8_t *b, int64_t s, int64_t n) {
    if (n >= 8) return le64(b, s);
    uint64_t w = 0;
    for (int64_t k = 0; k < n; k++) w |= (uint64_t)b[s + k] << (8 * k);
    return w;
}

/* A 64-bit hash of b[s:s+n] from its length, first and last 8 bytes (murmur3's fmix64
 * at the end); equal hashes are always confirmed by comparing every byte. */
static uint64_t tag_hash(const uint8_t *b, int64_t s, int64_t n) {
    uint64_t h = (word(b, s, n) * 0x9E3779B97F4A7C15ull) ^ (uint64_t)n;
    if (n > 8) h = (h ^ le64(b, s + n - 8)) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return h;
}

static int same_bytes(const uint8_t *b, int64_t a, int64_t c, int64_t n) {
    if (n < 8) return word(b, a, n) == word(b, c, n);
    int64_t k = 0;
    for (; k + 8 < n; k += 8)
        if (le64(b, a + k) != le64(b, c + k)) return 0;
    return le64(b, a + n - 8) == le64(b, c + n - 8);
}

int64_t tbnb_intern_tags(const uint8_t *buf, int64_t *tag_start, int64_t *tag_len, int64_t nv,
                         int32_t *tag_id) {
    /* The first occurrence of tag t is written to tag_start[t]/tag_len[t]: t never
     * exceeds the value being interned, whose own entry has been read by then. */
    int64_t size = 64, ntags = 0, last = -1;
    int32_t *table = malloc(size * sizeof *table);
    uint64_t *hashes = malloc(32 * sizeof *hashes);
    int64_t hash_cap = 32;
    if (!table || !hashes) goto oom;
    for (int64_t i = 0; i < size; i++) table[i] = -1;
    for (int64_t v = 0; v < nv; v++) {
        int64_t s = tag_start[v], n = tag_len[v];
        uint64_t h = tag_hash(buf, s, n);
        /* consecutive values often share a tag: try the previous one first */
        if (last >= 0 && hashes[last] == h && tag_len[last] == n &&
            same_bytes(buf, s, tag_start[last], n)) {
            tag_id[v] = (int32_t)last;
            continue;
        }
        uint64_t mask = (uint64_t)size - 1, slot = h & mask;
        int64_t t;
        for (;;) {
            t = table[slot];
            if (t < 0) break;
            if (hashes[t] == h && tag_len[t] == n && same_bytes(buf, s, tag_start[t], n)) break;
            slot = (slot + 1) & mask;
        }
        if (t < 0) {
            t = ntags++;
            tag_start[t] = s;
            tag_len[t] = n;
            if (t == hash_cap) {
                uint64_t *grown = realloc(hashes, 2 * hash_cap * sizeof *hashes);
                if (!grown) goto oom;
                hashes = grown;
                hash_cap *= 2;
            }
            hashes[t] = h;
            table[slot] = (int32_t)t;
            if (2 * ntags > size) { /* keep the table at most half full */
                int32_t *bigger = malloc(4 * size * sizeof *bigger);
                if (!bigger) goto oom;
                free(table);
                table = bigger;
                size *= 4;
                mask = (uint64_t)size - 1;
                for (int64_t i = 0; i < size; i++) table[i] = -1;
                for (int64_t u = 0; u < ntags; u++) {
                    uint64_t j = hashes[u] & mask;
                    while (table[j] >= 0) j = (j + 1) & mask;
                    table[j] = (int32_t)u;
                }
            }
        }
        tag_id[v] = (int32_t)t;
        last = t;
    }
    free(table);
    free(hashes);
    return ntags;
oom:
    free(table);
    free(hashes);
    return -1;
}

void tbnb_count_tags(const int32_t *tag_id, int64_t n, int64_t *counts) {
    for (int64_t i = 0; i < n; i++) counts[tag_id[i]]++;
}

#define SCATTER(T)                                                                          \
    do {                                                                                    \
        T *out = (T *)out_tag;                                                              \
        for (int64_t i = 0; i < n; i++) {                                                   \
            int32_t t = tag_id[i];                                                          \
            int64_t row = cursor[t]++;                                                      \
            out[row] = (T)codes[t];                                                         \
            out_step[row] = step[i];                                                        \
            out_wall_time[row] = wall_time[i];                                              \
            out_value[row] = value[i];                                                      \
        }                                                                                   \
    } while (0)

int tbnb_scatter_points(const int32_t *tag_id, int64_t n, const int64_t *step,
                        const double *wall_time, const double *value, const int64_t *codes,
                        int64_t *cursor, void *out_tag, int code_bytes, int64_t *out_step,
                        double *out_wall_time, double *out_value) {
    switch (code_bytes) {
    case 1: SCATTER(int8_t); return 0;
    case 2: SCATTER(int16_t); return 0;
    case 4: SCATTER(int32_t); return 0;
    case 8: SCATTER(int64_t); return 0;
    default: return -1;
    }
}
