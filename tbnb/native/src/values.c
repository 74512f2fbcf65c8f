/* The decoders of the values the event decoder indexes: tensors, histograms, media.
 *
 * Every message reaching these functions was checked by tbnb_valid_message (decode.c):
 * each field has the wire type its declaration gives and every length fits. They still
 * check every read against the message's end. Each decodes exactly what protobuf and
 * tbnb's numpy normalisation give (tbnb/decode/tensors.py and the kinds modules) and flags
 * anything else for the protobuf path, which also owns every warning.
 */
#include <string.h>

#include "tbnb_native.h"
#include "wire.h"

enum { DT_FLOAT = 1, DT_DOUBLE = 2, DT_STRING = 7 };

/* The value of a field at p with this wire type, skipped: the new position or -1. */
static int64_t skip(const uint8_t *b, int64_t p, int64_t end, int64_t wire) {
    return skip_field(b, p, end, wire);
}

/* ------------------------------------------------------------------ TensorProto */

typedef struct {
    int64_t dtype, rank, elements, source, start, bytes, nstrings;
} tensor_view;

/* dims appended at dims[*nd] (cap), string spans at spans[2 * *ns] (cap pairs): 1, or
 * 0 when out of room. */
static int parse_shape(const uint8_t *b, int64_t p, int64_t end, int64_t *dims, int64_t cap,
                       int64_t *nd) {
    while (p < end) {
        int64_t k = field_key(b, &p, end), s, e;
        if (p < 0) return 1;
        if (k == ((2 << 3) | 2)) { /* dim */
            e = length_delimited(b, p, end, &s);
            if (s < 0) return 1;
            int64_t size = 0;
            while (s < e) {
                int64_t kk = field_key(b, &s, e);
                if (s < 0) break;
                if (kk == (1 << 3)) {
                    size = varint(b, &s, e);
                } else {
                    s = skip(b, s, e, kk & 7);
                }
                if (s < 0) break;
            }
            if (*nd >= cap) return 0;
            dims[(*nd)++] = size;
            p = e;
        } else {
            p = skip(b, p, end, k & 7);
        }
        if (p < 0) return 1;
    }
    return 1;
}

/* Parse one TensorProto as tbnb.decode.tensors.tensor_to_numpy reads it. Returns 0 when
 * dims or spans ran out of room. */
static int parse_tensor(const uint8_t *b, int64_t p, int64_t end, tensor_view *t, int64_t *dims,
                        int64_t dims_cap, int64_t *nd, int64_t *spans, int64_t spans_cap,
                        int64_t *ns) {
    int64_t dims0 = *nd, content_start = -1, content_len = 0;
    int64_t f_start = -1, f_len = 0, f_packed = 0, f_single = 0;
    int64_t d_start = -1, d_len = 0, d_packed = 0, d_single = 0;
    t->dtype = 0;
    t->nstrings = 0;
    while (p < end) {
        int64_t k = field_key(b, &p, end), s, e;
        if (p < 0) break;
        int64_t field = k >> 3, wire = k & 7;
        if (field == 1 && wire == 0) {
            t->dtype = (int32_t)(uint32_t)varint(b, &p, end);
        } else if (field == 2 && wire == 2) {
            e = length_delimited(b, p, end, &s);
            if (s < 0) break;
            if (!parse_shape(b, s, e, dims, dims_cap, nd)) return 0;
            p = e;
        } else if ((field == 4 || field == 8 || field == 5 || field == 6) && wire == 2) {
            e = length_delimited(b, p, end, &s);
            if (s < 0) break;
            if (field == 4) { /* tensor_content: the last one wins */
                content_start = s;
                content_len = e - s;
            } else if (field == 8) { /* string_val */
                if (*ns >= spans_cap) return 0;
                spans[2 * *ns] = s;
                spans[2 * *ns + 1] = e - s;
                (*ns)++;
                t->nstrings++;
            } else if (field == 5) {
                f_start = s;
                f_len = e - s;
                f_packed++;
            } else {
                d_start = s;
                d_len = e - s;
                d_packed++;
            }
            p = e;
        } else {
            if (field == 5) f_single++;
            if (field == 6) d_single++;
            p = skip(b, p, end, wire);
        }
        if (p < 0) break;
    }
    t->rank = *nd - dims0;
    t->elements = 1;
    for (int64_t i = dims0; i < *nd; i++) {
        int64_t d = dims[i];
        if (d < 0 || t->elements < 0) {
            t->elements = -1;
        } else if (d != 0 && t->elements > ((int64_t)1 << 62) / d) {
            t->elements = -1;
        } else {
            t->elements *= d;
        }
    }
    t->start = -1;
    t->bytes = 0;
    if (t->dtype == DT_STRING) { /* raw bytes of strings: no reader reads them */
        t->source = content_len > 0 ? TS_OTHER : TS_STRINGS;
    } else if (content_len > 0) {
        t->source = TS_CONTENT;
        t->start = content_start;
        t->bytes = content_len;
    } else if (t->dtype == DT_FLOAT || t->dtype == DT_DOUBLE) {
        int64_t packed = t->dtype == DT_FLOAT ? f_packed : d_packed;
        int64_t single = t->dtype == DT_FLOAT ? f_single : d_single;
        if (single > 0 || packed > 1) {
            t->source = TS_OTHER; /* values in pieces: protobuf joins them */
        } else if (packed == 1) {
            t->source = TS_PACKED;
            t->start = t->dtype == DT_FLOAT ? f_start : d_start;
            t->bytes = t->dtype == DT_FLOAT ? f_len : d_len;
        } else {
            t->source = TS_NONE;
        }
    } else {
        t->source = TS_OTHER;
    }
    return 1;
}

int tbnb_tensors(const uint8_t *buf, int64_t n, const int64_t *start, const int64_t *len,
                 int64_t nv, int64_t *info, int64_t *dims, int64_t dims_cap, int64_t *spans,
                 int64_t spans_cap) {
    int64_t nd = 0, ns = 0;
    for (int64_t i = 0; i < nv; i++) {
        int64_t *row = info + i * TENSOR_INFO;
        int64_t p = start[i], end = start[i] + len[i];
        tensor_view t;
        row[TI_DIMS] = nd;
        row[TI_STRINGS] = ns;
        if (p < 0 || len[i] < 0 || len[i] > n - p) {
            memset(row, 0, sizeof(int64_t) * TENSOR_INFO);
            row[TI_SOURCE] = TS_OTHER;
            continue;
        }
        if (!parse_tensor(buf, p, end, &t, dims, dims_cap, &nd, spans, spans_cap, &ns)) return -1;
        row[TI_DTYPE] = t.dtype;
        row[TI_RANK] = t.rank;
        row[TI_ELEMENTS] = t.elements;
        row[TI_SOURCE] = t.source;
        row[TI_START] = t.start;
        row[TI_BYTES] = t.bytes;
        row[TI_NSTRINGS] = t.nstrings;
    }
    return 0;
}

/* ------------------------------------------------------------------ histograms */

/* The doubles of one repeated double field of a message, packed or not, in order. */
typedef struct {
    const uint8_t *b;
    int64_t p, end, field, run, run_end;
} doubles;

static void doubles_start(doubles *it, const uint8_t *b, int64_t p, int64_t end, int64_t field) {
    it->b = b;
    it->p = p;
    it->end = end;
    it->field = field;
    it->run = it->run_end = 0;
}

static int doubles_next(doubles *it, double *out) {
    for (;;) {
        if (it->run < it->run_end) {
            *out = f64_at(it->b, it->run);
            it->run += 8;
            return 1;
        }
        if (it->p >= it->end) return 0;
        int64_t k = field_key(it->b, &it->p, it->end), s, e;
        if (it->p < 0) return 0;
        if ((k >> 3) == it->field && (k & 7) == 1 && it->end - it->p >= 8) {
            *out = f64_at(it->b, it->p);
            it->p += 8;
            return 1;
        }
        if ((k >> 3) == it->field && (k & 7) == 2) {
            e = length_delimited(it->b, it->p, it->end, &s);
            if (s < 0) return 0;
            it->run = s;
            it->run_end = s + (e - s) / 8 * 8;
            it->p = e;
            continue;
        }
        it->p = skip(it->b, it->p, it->end, k & 7);
        if (it->p < 0) return 0;
    }
}

static double nan_value(void) {
    uint64_t bits = 0x7FF8000000000000ull; /* Python's float("nan") */
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* A legacy HistogramProto: 1 when decoded, 0 for the protobuf path, -1 out of room. */
static int legacy_histogram(const uint8_t *b, int64_t p, int64_t end, int64_t max_buckets,
                            double *stats, double *edges, int64_t *ne, double *counts,
                            int64_t *nc, int64_t cap, double *raw_limits, double *raw_bucket,
                            int64_t *nr) {
    double field[6] = {0, 0, 0, 0, 0, 0};
    int64_t n_limits = 0, n_bucket = 0, first = -1, last = -1, q = p;
    while (q < end) { /* the five doubles (the last of each wins) */
        int64_t k = field_key(b, &q, end);
        if (q < 0) return 0;
        if ((k & 7) == 1 && (k >> 3) >= 1 && (k >> 3) <= 5 && end - q >= 8) {
            field[k >> 3] = f64_at(b, q);
            q += 8;
        } else {
            q = skip(b, q, end, k & 7);
            if (q < 0) return 0;
        }
    }
    doubles it;
    double x;
    doubles_start(&it, b, p, end, 6);
    while (doubles_next(&it, &x)) n_limits++;
    doubles_start(&it, b, p, end, 7);
    while (doubles_next(&it, &x)) {
        if (x > 0) {
            if (first < 0) first = n_bucket;
            last = n_bucket;
        }
        n_bucket++;
    }
    if (n_limits != n_bucket || n_bucket > max_buckets) return 0; /* protobuf's path warns */
    int64_t kept = first < 0 ? 0 : last - first + 1;
    if (*ne + kept + 1 > cap || *nc + kept > cap) return -1;
    if (raw_limits && *nr + n_bucket > cap) return -1;
    for (int i = 0; i < 5; i++) stats[i] = field[i + 1];
    if (kept) {
        edges[(*ne)++] = field[1];
        int64_t j = 0;
        doubles_start(&it, b, p, end, 6);
        while (doubles_next(&it, &x)) {
            if (j >= first && j < last) edges[(*ne)++] = x;
            if (raw_limits) raw_limits[*nr + j] = x;
            j++;
        }
        edges[(*ne)++] = field[2];
    } else if (raw_limits) {
        int64_t j = 0;
        doubles_start(&it, b, p, end, 6);
        while (doubles_next(&it, &x)) raw_limits[*nr + j++] = x;
    }
    int64_t j = 0;
    doubles_start(&it, b, p, end, 7);
    while (doubles_next(&it, &x)) {
        if (j >= first && j <= last && first >= 0) counts[(*nc)++] = x;
        if (raw_bucket) raw_bucket[*nr + j] = x;
        j++;
    }
    if (raw_limits) *nr += n_bucket;
    return 1;
}

/* A TF2 histogram tensor ([k, 3] DT_FLOAT/DT_DOUBLE, or empty): as legacy_histogram. */
static int tensor_histogram(const uint8_t *b, int64_t p, int64_t end, int64_t max_buckets,
                            double *stats, double *edges, int64_t *ne, double *counts,
                            int64_t *nc, int64_t cap, double *raw_limits, double *raw_bucket,
                            int64_t *nr) {
    int64_t dims[2], nd = 0, ns = 0, spans[2];
    tensor_view t;
    /* a shape of more than two dims, or a string, is the protobuf path's */
    if (!parse_tensor(b, p, end, &t, dims, 2, &nd, spans, 0, &ns)) return 0;
    if (t.dtype != DT_FLOAT && t.dtype != DT_DOUBLE) return 0;
    int64_t size = t.dtype == DT_FLOAT ? 4 : 8;
    int64_t values = t.source == TS_NONE ? 0 : t.bytes / size;
    if (t.source == TS_OTHER || t.elements < 0 || t.bytes % size || values != t.elements)
        return 0;
    double nan = nan_value();
    stats[2] = 0.0; /* num: summed by the caller, as numpy sums */
    stats[3] = stats[4] = nan;
    if (values == 0) { /* any empty shape: an empty histogram */
        stats[0] = stats[1] = nan;
        return 1;
    }
    if (t.rank != 2 || dims[1] != 3) return 0;
    int64_t k = dims[0];
    if (k > max_buckets) return 0;
    if (*ne + k + 1 > cap || *nc + k > cap || (raw_limits && *nr + k > cap)) return -1;
    for (int64_t i = 0; i < k; i++) {
        double row[3];
        for (int c = 0; c < 3; c++) {
            int64_t at = t.start + (3 * i + c) * size;
            row[c] = size == 4 ? f32_at(b, at) : f64_at(b, at);
        }
        edges[*ne + i] = row[0];
        counts[*nc + i] = row[2];
        if (i == 0) stats[0] = row[0];
        if (i == k - 1) {
            stats[1] = row[1];
            edges[*ne + k] = row[1];
        }
        if (raw_limits) {
            raw_limits[*nr + i] = row[1];
            raw_bucket[*nr + i] = row[2];
        }
    }
    *ne += k + 1;
    *nc += k;
    if (raw_limits) *nr += k;
    return 1;
}

int tbnb_histograms(const uint8_t *buf, int64_t n, const int64_t *start, const int64_t *len,
                    const int8_t *code, int64_t nv, int64_t max_buckets, double *stats,
                    int8_t *status, int64_t *edge_at, int64_t *count_at, double *edges,
                    double *counts, int64_t cap, int64_t *raw_at, double *raw_limits,
                    double *raw_bucket) {
    int64_t ne = 0, nc = 0, nr = 0;
    edge_at[0] = count_at[0] = 0;
    if (raw_at) raw_at[0] = 0;
    for (int64_t i = 0; i < nv; i++) {
        int64_t p = start[i], end = start[i] + len[i];
        int done = 0;
        if (p >= 0 && len[i] >= 0 && len[i] <= n - p) {
            int64_t ne0 = ne, nc0 = nc, nr0 = nr;
            if (code[i] == VALUE_HISTO)
                done = legacy_histogram(buf, p, end, max_buckets, stats + 5 * i, edges, &ne,
                                        counts, &nc, cap, raw_limits, raw_bucket, &nr);
            else if (code[i] == VALUE_TENSOR)
                done = tensor_histogram(buf, p, end, max_buckets, stats + 5 * i, edges, &ne,
                                        counts, &nc, cap, raw_limits, raw_bucket, &nr);
            if (done < 0) return -1;
            if (!done) {
                ne = ne0;
                nc = nc0;
                nr = nr0;
            }
        }
        status[i] = done ? 0 : 1;
        edge_at[i + 1] = ne;
        count_at[i + 1] = nc;
        if (raw_at) raw_at[i + 1] = nr;
    }
    return 0;
}

/* ------------------------------------------------------------------ media */

/* kinds/images.py's image_format (kinds/blob.py's media_type signatures), code for code */
int tbnb_image_format(const uint8_t *b, int64_t s, int64_t len) {
    const uint8_t *d = b + s;
    if (len >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return 1;
    if (len >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return 2;
    if (len >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0)) return 3;
    if (len >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return 4;
    if (len >= 14 && d[0] == 'B' && d[1] == 'M') return 5;
    int64_t i = 0; /* bytes.lstrip(): ASCII whitespace */
    while (i < len && (d[i] == ' ' || (d[i] >= '\t' && d[i] <= '\r'))) i++;
    if (len - i >= 4 && memcmp(d + i, "<svg", 4) == 0) return 6;
    if (len - i >= 5 && memcmp(d + i, "<?xml", 5) == 0) return 6;
    return 0;
}

void tbnb_media(const uint8_t *buf, int64_t n, const int64_t *start, const int64_t *len,
                const int8_t *code, int64_t nv, int64_t *info) {
    for (int64_t i = 0; i < nv; i++) {
        int64_t *row = info + i * MEDIA_INFO;
        memset(row, 0, sizeof(int64_t) * MEDIA_INFO);
        row[MI_START] = row[MI_TYPE_START] = -1;
        int64_t p = start[i], end = start[i] + len[i];
        if (p < 0 || len[i] < 0 || len[i] > n - p) continue;
        int audio = code[i] == VALUE_AUDIO;
        while (p < end) {
            int64_t k = field_key(buf, &p, end), s, e;
            if (p < 0) break;
            int64_t field = k >> 3, wire = k & 7;
            if (wire == 0 && field >= 1 && field <= 3) {
                int64_t v = varint(buf, &p, end);
                /* image fields are int32 (the low 32 bits, signed); audio's are int64 */
                row[MI_A + field - 1] = audio ? v : (int64_t)(int32_t)(uint32_t)v;
            } else if (audio && field == 1 && wire == 5 && end - p >= 4) {
                row[MI_A] = le32(buf, p); /* sample_rate's float32 bits */
                p += 4;
            } else if (wire == 2 && (field == 4 || (audio && field == 5))) {
                e = length_delimited(buf, p, end, &s);
                if (s < 0) break;
                row[field == 4 ? MI_START : MI_TYPE_START] = s;
                row[field == 4 ? MI_LEN : MI_TYPE_LEN] = e - s;
                p = e;
            } else {
                p = skip(buf, p, end, wire);
            }
            if (p < 0) break;
        }
        if (row[MI_START] < 0) { /* no bytes: an empty string */
            row[MI_START] = start[i];
            row[MI_LEN] = 0;
        }
        if (!audio) row[MI_FORMAT] = tbnb_image_format(buf, row[MI_START], row[MI_LEN]);
    }
}

void tbnb_gather(const uint8_t *buf, const int64_t *start, const int64_t *len, int64_t count,
                 uint8_t *out) {
    for (int64_t i = 0; i < count; i++) {
        memcpy(out, buf + start[i], (size_t)len[i]);
        out += len[i];
    }
}
