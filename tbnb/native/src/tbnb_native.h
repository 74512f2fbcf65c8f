/* tbnb's native loader kernels: TFRecord framing with CRC32C, the Event decoder (scalar
 * values decoded, every other value indexed) with tag interning, the decoders of
 * histograms, tensors and media summaries, and the counting sort that groups a run's
 * points by tag.
 *
 * Plain C99 functions over pointers and lengths: no Python API, no global state
 * besides the CRC tables set up once when the library loads. Every output goes into
 * arrays the caller allocated; a function that can run out of room says how much it
 * needed (or where it stopped) so the caller can grow them and call again. The
 * semantics are protobuf's: anything these kernels cannot reproduce exactly is flagged
 * for the protobuf path (tbnb/loader/run.py), and the tests compare every frame with
 * the protobuf/numpy reference path bit for bit.
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

/* The first offset of buf[0:n] where a whole record starts (a valid length CRC, all of
 * it in buf, a valid data CRC), or -1: where a scan started at an arbitrary offset meets
 * the records (tbnb/loader/windows.py checks it against the record chain). */
TBNB_API int64_t tbnb_sync_record(const uint8_t *buf, int64_t n);

/* The event decoder's output columns (see tbnb.decode.layouts.Matched). Per record:
 * fallback, wall, steps (nrec entries). Per value (cap entries): the rest. A value's
 * dtype is 1-3 for a scalar (value set), else the kind of its payload (VALUE_TENSOR,
 * VALUE_HISTO, VALUE_IMAGE, VALUE_AUDIO), whose message is data_start/data_len;
 * vindex is the value's position in its event's Summary. */
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
    int64_t *data_start;
    int64_t *data_len;
    int64_t *vindex;
    int64_t cap;
} tbnb_columns;

/* Decode records r0.. of buf, appending values at *nv until done or out of room.
 * With index set, a value holding a tensor, histogram, image or audio clip is indexed
 * (its message checked to parse as protobuf parses it); without, its record is flagged
 * fallback (scalars only). Any other record is flagged fallback.
 * Returns the next record to decode (nrec when done): grow the value columns
 * (copying the first *nv entries) and call again from there. */
TBNB_API int64_t tbnb_decode_events(const uint8_t *buf, int64_t n, const int64_t *starts,
                                    const int64_t *lengths, int64_t nrec, int64_t r0,
                                    const tbnb_columns *out, int64_t *nv, int index);

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

/* --- values.c: tensors, histograms, media ------------------------------------------ */

/* Per value of tbnb_tensors' info rows (TENSOR_INFO int64 each). */
enum {
    TI_DTYPE = 0,   /* the DataType */
    TI_RANK,        /* number of dims */
    TI_DIMS,        /* first of its dims in dims[] */
    TI_ELEMENTS,    /* product of the dims, -1 when a dim is negative or past 2**62 */
    TI_SOURCE,      /* TS_* below: where the values are */
    TI_START,       /* tensor_content or the one packed typed field: start in buf */
    TI_BYTES,       /* its length in bytes */
    TI_STRINGS,     /* string_val: first span in spans[] */
    TI_NSTRINGS,    /* string_val: how many */
    TENSOR_INFO
};
/* TS_CONTENT: tensor_content (non-empty, dtype not DT_STRING); TS_PACKED: the one packed
 * occurrence of the dtype's typed field (float_val for DT_FLOAT, double_val for DT_DOUBLE);
 * TS_STRINGS: DT_STRING's string_val (no tensor_content); TS_NONE: no values at all;
 * TS_OTHER: anything else (left to the protobuf path). */
enum { TS_NONE = 0, TS_CONTENT = 1, TS_PACKED = 2, TS_STRINGS = 3, TS_OTHER = 4 };

/* Index TensorProto messages buf[start[i]:start[i]+len[i]] (already checked by the
 * event decoder). dims (cap dims_cap) and spans (start, length pairs; cap spans_cap)
 * are filled from 0; returns 0, or -1 when either is too small (the caller sizes
 * them from the bytes: a dim or a string takes 2 bytes at least). */
TBNB_API int tbnb_tensors(const uint8_t *buf, int64_t n, const int64_t *start,
                          const int64_t *len, int64_t nv, int64_t *info, int64_t *dims,
                          int64_t dims_cap, int64_t *spans, int64_t spans_cap);

/* Histograms: legacy HistogramProto (code VALUE_HISTO) or a TF2 [k, 3] DT_FLOAT/DT_DOUBLE
 * tensor (VALUE_TENSOR) per value, normalised as TensorBoard's data_compat does.
 * stats: 5 per value (min, max, num, sum, sum_squares; num of a tensor is left to the
 * caller, who sums the counts as numpy does); status per value (0: decoded, 1: for the
 * protobuf path); edges/counts appended (cap each), value i's at edge_at[i]:edge_at[i+1]
 * and count_at[i]:count_at[i+1]. With raw_limits non-NULL the writer's own buckets
 * (limits, counts) are appended too, at raw_at[i]:raw_at[i+1] (cap each). A histogram of
 * more than max_buckets buckets is left to the protobuf path (which refuses it with a
 * warning). Returns 0, or -1 when out of room. */
TBNB_API int tbnb_histograms(const uint8_t *buf, int64_t n, const int64_t *start,
                             const int64_t *len, const int8_t *code, int64_t nv,
                             int64_t max_buckets, double *stats, int8_t *status,
                             int64_t *edge_at, int64_t *count_at, double *edges, double *counts,
                             int64_t cap, int64_t *raw_at, double *raw_limits,
                             double *raw_bucket);

/* Legacy Summary.Image (VALUE_IMAGE) and Summary.Audio (VALUE_AUDIO), MEDIA_INFO int64 per
 * value: for images height, width, colorspace (as int32); for audio the float32 bits of
 * sample_rate, num_channels, length_frames; then the encoded bytes' span, the content
 * type's span (audio) and the format of the bytes (tbnb_image_format). */
enum { MI_A = 0, MI_B, MI_C, MI_START, MI_LEN, MI_TYPE_START, MI_TYPE_LEN, MI_FORMAT, MEDIA_INFO };
TBNB_API void tbnb_media(const uint8_t *buf, int64_t n, const int64_t *start,
                         const int64_t *len, const int8_t *code, int64_t nv, int64_t *info);

/* The image format of buf[s:s+len] as tbnb.kinds.images.image_format names it: 0 unknown,
 * 1 png, 2 jpeg, 3 gif, 4 webp, 5 bmp, 6 svg. */
TBNB_API int tbnb_image_format(const uint8_t *buf, int64_t s, int64_t len);

/* Copy the spans buf[start[i]:start[i]+len[i]] one after another into out. */
TBNB_API void tbnb_gather(const uint8_t *buf, const int64_t *start, const int64_t *len,
                          int64_t count, uint8_t *out);

#endif
