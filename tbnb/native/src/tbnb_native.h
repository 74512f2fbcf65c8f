/* tbnb's native loader kernels: TFRecord framing with CRC32C, the scalar Event decoder
 * with tag interning, and the counting sort that groups a run's points by tag.
 *
 * Plain C99 functions over pointers and lengths: no Python API, no global state
 * besides the CRC tables set up once when the library loads. Every output goes into
 * arrays the caller allocated; a function that can run out of room says how much it
 * needed (or where it stopped) so the caller can grow them and call again. The
 * semantics are those of the numba kernels in tbnb/io/compiled and
 * tbnb/decode/compiled, which the tests check output for output.
 */
#ifndef TBNB_NATIVE_H
#define TBNB_NATIVE_H

#include <stdint.h>

#if defined(_WIN32)
#define TBNB_API __declspec(dllexport)
#else
#define TBNB_API __attribute__((visibility("default")))
#endif

/* Identity of the library: the hash of the C sources it was built from. */
TBNB_API const char *tbnb_source_hash(void);
/* The CRC32C implementation in use: "sse4.2", "armv8-crc" or "table". */
TBNB_API const char *tbnb_crc32c_impl(void);

/* CRC32C (Castagnoli) of data[0:n] continuing from an unmasked crc (start with 0). */
TBNB_API uint32_t tbnb_crc32c(uint32_t crc, const uint8_t *data, int64_t n);
/* The same with the table implementation only (to test the hardware one against). */
TBNB_API uint32_t tbnb_crc32c_table(uint32_t crc, const uint8_t *data, int64_t n);
uint32_t tbnb_masked_crc32c(const uint8_t *data, int64_t n);

/* Scan buf[0:n] for TFRecord payloads (see tbnb/io/records.py for the rules).
 * starts/lengths need room for n / 16 + 1 records. Up to problem_cap problems are
 * written to p_off/p_kind/p_skip; the return value is the number found (call again
 * with more room when it exceeds problem_cap). *count and *end receive the number of
 * good records and where the scan stopped. */
TBNB_API int64_t tbnb_scan_records(const uint8_t *buf, int64_t n, int verify_crc,
                                   int64_t *starts, int64_t *lengths, int64_t *count,
                                   int64_t *end, int64_t *p_off, int8_t *p_kind,
                                   int64_t *p_skip, int64_t problem_cap);

/* The scalar decoder's output columns (see tbnb.decode.layouts.Matched). Per record:
 * fallback, wall, steps (nrec entries). Per value (cap entries): the rest. */
typedef struct {
    uint8_t *fallback;
    double *wall;
    int64_t *steps;
    int64_t *rec;
    double *value;
    int8_t *dtype;
    int64_t *meta_start;
    int64_t *meta_len;
    int64_t *tag_start;
    int64_t *tag_len;
    int64_t *vstep;
    double *vwall;
    int64_t cap;
} tbnb_columns;

/* Decode records r0.. of buf, appending values at *nv until done or out of room.
 * Returns the next record to decode (nrec when done): grow the value columns
 * (copying the first *nv entries) and call again from there. */
TBNB_API int64_t tbnb_decode_scalars(const uint8_t *buf, int64_t n, const int64_t *starts,
                                     const int64_t *lengths, int64_t nrec, int64_t r0,
                                     const tbnb_columns *out, int64_t *nv);

/* Give equal tag byte strings buf[tag_start[v]:+tag_len[v]] one id (first appearance
 * order) in tag_id. The first ntags entries of tag_start/tag_len are overwritten with
 * each tag's first occurrence. Returns ntags, or -1 when out of memory. */
TBNB_API int64_t tbnb_intern_tags(const uint8_t *buf, int64_t *tag_start, int64_t *tag_len,
                                  int64_t nv, int32_t *tag_id);

/* Add each tag's number of points to counts. */
TBNB_API void tbnb_count_tags(const int32_t *tag_id, int64_t n, int64_t *counts);

/* Copy point i to row cursor[tag_id[i]] (then advance it), its tag as codes[tag_id[i]]
 * stored in out_tag, an integer array of code_bytes (1, 2, 4 or 8) per entry.
 * Returns 0, or -1 for an unsupported code width. */
TBNB_API int tbnb_scatter_points(const int32_t *tag_id, int64_t n, const int64_t *step,
                                 const double *wall_time, const double *value,
                                 const int64_t *codes, int64_t *cursor, void *out_tag,
                                 int code_bytes, int64_t *out_step, double *out_wall_time,
                                 double *out_value);

#endif
