/* The Event decoder: scalar values decoded, every other value indexed.
 *
 * Per record: the writers' exact one-scalar layouts first (match_simple), then a
 * general parser of Event -> Summary -> Value following proto3's merge rules. A value
 * holding a tensor, a histogram, an image or an audio clip is indexed (its message's
 * span, checked to parse as protobuf parses it) for the kinds' decoders (values.c);
 * anything else is flagged fallback for protobuf.
 */
#include "tbnb_native.h"
#include "wire.h"

enum { FALLBACK = -1, FULL = -2 };

typedef struct {
    double wall, value;
    int64_t step, tag_start, tag_len, meta_start, meta_len, data_start, data_len;
    int8_t code;
} one_value;

/* The exact layouts writers use for one scalar per event (see patterns.py). */
static int match_simple(const uint8_t *b, int64_t p, int64_t end, one_value *v) {
    if (end - p < 17 || b[p] != 0x09) return 0;
    int64_t q = p + 9;
    int64_t st = 0;
    if (b[q] == 0x10) {
        q = q + 1;
        st = varint(b, &q, end);
        if (q < 0 || end - q < 8) return 0;
    }
    int64_t n1 = b[q + 1], n2 = b[q + 3], t = b[q + 5];
    if (b[q] != 0x2A || b[q + 2] != 0x0A || b[q + 4] != 0x0A || n1 >= 0x80 ||
        n1 != end - q - 2 || n2 != n1 - 2 || t >= 0x80)
        return 0;
    int64_t ve = q + 4 + n2; /* end of the Summary.Value */
    int64_t r = q + 6 + t;
    if (r + 5 > ve) return 0;
    if (b[r] == 0x15) {
        v->value = f32_at(b, r + 1);
        v->code = DTYPE_SIMPLE;
        r += 5;
    } else if (b[r] == 0x42 && r + 12 <= ve && b[r + 1] == 0x0A && b[r + 2] == 0x08 &&
               b[r + 3] == 0x01 && b[r + 4] == 0x12 && b[r + 5] == 0x00 &&
               (b[r + 6] == 0x2A || b[r + 6] == 0x22) && b[r + 7] == 0x04) {
        v->value = f32_at(b, r + 8);
        v->code = DTYPE_FLOAT;
        r += 12;
    } else if (b[r] == 0x42 && r + 16 <= ve && b[r + 1] == 0x0E && b[r + 2] == 0x08 &&
               b[r + 3] == 0x02 && b[r + 4] == 0x12 && b[r + 5] == 0x00 &&
               (b[r + 6] == 0x32 || b[r + 6] == 0x22) && b[r + 7] == 0x08) {
        v->value = f64_at(b, r + 8);
        v->code = DTYPE_DOUBLE;
        r += 16;
    } else {
        return 0;
    }
    v->wall = f64_at(b, p + 1);
    v->step = st;
    v->data_start = -1;
    v->data_len = 0;
    v->tag_start = q + 6;
    v->tag_len = t;
    if (r == ve) {
        v->meta_start = -1;
        v->meta_len = 0;
        return 1;
    }
    int64_t m = r + 2 <= ve ? b[r + 1] : 0x80;
    if (b[r] != 0x4A || m >= 0x80 || r + 2 + m != ve || !tbnb_valid_metadata(b, r + 2, ve))
        return 0;
    v->meta_start = r + 2;
    v->meta_len = m;
    return 1;
}

/* The message of a oneof member at x (its length varint), checked: its end, or -1. */
static int64_t value_message(const uint8_t *b, int64_t x, int64_t v1, int type, one_value *v,
                             int8_t code) {
    int64_t s, e = length_delimited(b, x, v1, &s);
    if (s < 0 || !tbnb_valid_message(b, s, e, type, 0)) return -1;
    v->data_start = s;
    v->data_len = e - s;
    v->value = 0.0;
    v->code = code;
    return e;
}

/* One Summary.Value in b[x:v1] (wall and step are the record's, set by the caller). */
static int decode_value(const uint8_t *b, int64_t x, int64_t v1, one_value *v, int index) {
    int64_t n_tag = 0, n_simple = 0, n_message = 0, s, e;
    v->tag_start = x;
    v->tag_len = 0;
    v->meta_start = -1;
    v->meta_len = 0;
    v->data_start = -1;
    v->data_len = 0;
    v->value = 0.0;
    v->code = 0;
    while (x < v1) {
        int64_t k = field_key(b, &x, v1);
        if (x < 0) return 0;
        switch (k) {
        case (1 << 3) | 2: /* tag; repeated (no writer does that): protobuf */
            e = length_delimited(b, x, v1, &s);
            if (s < 0 || ++n_tag > 1) return 0;
            v->tag_start = s;
            v->tag_len = e - s;
            x = e;
            break;
        case (2 << 3) | 5: /* simple_value */
            if (v1 - x < 4) return 0;
            v->value = f32_at(b, x);
            v->code = DTYPE_SIMPLE;
            n_simple++;
            x += 4;
            break;
        case (8 << 3) | 2: /* tensor: a scalar is decoded, anything else indexed */
            e = length_delimited(b, x, v1, &s);
            if (s < 0) return 0;
            if (tbnb_tensor_scalar(b, s, e, &v->value, &v->code)) {
                v->data_start = s;
                v->data_len = e - s;
                x = e;
            } else {
                x = value_message(b, x, v1, MSG_TENSOR, v, VALUE_TENSOR);
            }
            n_message++;
            break;
        case (5 << 3) | 2: /* histo */
            x = value_message(b, x, v1, MSG_HISTO, v, VALUE_HISTO);
            n_message++;
            break;
        case (4 << 3) | 2: /* image */
            x = value_message(b, x, v1, MSG_IMAGE, v, VALUE_IMAGE);
            n_message++;
            break;
        case (6 << 3) | 2: /* audio */
            x = value_message(b, x, v1, MSG_AUDIO, v, VALUE_AUDIO);
            n_message++;
            break;
        case (9 << 3) | 2: /* metadata (twice would merge: fall back) */
            e = length_delimited(b, x, v1, &s);
            if (s < 0 || v->meta_start >= 0 || !tbnb_valid_metadata(b, s, e)) return 0;
            v->meta_start = s;
            v->meta_len = e - s;
            x = e;
            break;
        default:
            return 0;
        }
        if (x < 0) return 0;
    }
    if (!index && v->code > DTYPE_DOUBLE) return 0; /* scalars only */
    /* exactly one member of the value oneof (simple_value may repeat: the last wins) */
    return n_message > 1 ? 0 : (n_simple > 0) != (n_message > 0);
}

static void put(const tbnb_columns *o, int64_t i, int64_t r, const one_value *v) {
    o->rec[i] = r;
    o->value[i] = v->value;
    o->dtype[i] = v->code;
    o->meta_start[i] = v->meta_start;
    o->meta_len[i] = v->meta_len;
    o->tag_start[i] = v->tag_start;
    o->tag_len[i] = v->tag_len;
    o->data_start[i] = v->data_start;
    o->data_len[i] = v->data_len;
}

/* One Event in b[p:end], appending its values at nv: the new count, FALLBACK or FULL. */
static int64_t decode_record(const uint8_t *b, int64_t p, int64_t end, int64_t r,
                             const tbnb_columns *o, int64_t nv, double *wall, int64_t *step,
                             int index) {
    double w = 0.0;
    int64_t st = 0, s0, s1, v0, v1, first = nv;
    one_value v;
    while (p < end) {
        int64_t key = field_key(b, &p, end);
        if (p < 0) return FALLBACK;
        if (key == ((1 << 3) | 1)) { /* wall_time */
            if (end - p < 8) return FALLBACK;
            w = f64_at(b, p);
            p += 8;
        } else if (key == (2 << 3)) { /* step */
            st = varint(b, &p, end);
            if (p < 0) return FALLBACK;
        } else if (key == ((5 << 3) | 2)) { /* summary (occurrences concatenate) */
            s1 = length_delimited(b, p, end, &s0);
            if (s0 < 0) return FALLBACK;
            p = s1;
            int64_t q = s0;
            while (q < s1) {
                int64_t k = field_key(b, &q, s1);
                if (q < 0 || k != ((1 << 3) | 2)) return FALLBACK; /* only Summary.value */
                v1 = length_delimited(b, q, s1, &v0);
                if (v0 < 0) return FALLBACK;
                q = v1;
                if (!decode_value(b, v0, v1, &v, index)) return FALLBACK;
                if (nv == o->cap) return FULL;
                put(o, nv, r, &v);
                o->vindex[nv] = nv - first;
                nv++;
            }
        } else {
            return FALLBACK;
        }
    }
    *wall = w;
    *step = st;
    return nv;
}

int64_t tbnb_decode_events(const uint8_t *buf, int64_t n, const int64_t *starts,
                           const int64_t *lengths, int64_t nrec, int64_t r0,
                           const tbnb_columns *o, int64_t *nv_io, int index) {
    int64_t nv = *nv_io;
    for (int64_t r = r0; r < nrec; r++) {
        int64_t p = starts[r], len = lengths[r];
        if (p < 0 || len < 0 || len > n - p) {
            o->fallback[r] = 1;
            continue;
        }
        int64_t end = p + len;
        one_value v;
        if (match_simple(buf, p, end, &v)) {
            if (nv == o->cap) {
                *nv_io = nv;
                return r;
            }
            o->wall[r] = v.wall;
            o->steps[r] = v.step;
            put(o, nv, r, &v);
            o->vindex[nv] = 0;
            o->vstep[nv] = v.step;
            o->vwall[nv] = v.wall;
            nv++;
            continue;
        }
        double w;
        int64_t st;
        int64_t m = decode_record(buf, p, end, r, o, nv, &w, &st, index);
        if (m == FULL) {
            *nv_io = nv;
            return r;
        }
        if (m == FALLBACK) {
            o->fallback[r] = 1;
        } else {
            o->wall[r] = w;
            o->steps[r] = st;
            for (int64_t i = nv; i < m; i++) {
                o->vstep[i] = st;
                o->vwall[i] = w;
            }
            nv = m;
        }
    }
    *nv_io = nv;
    return nrec;
}
