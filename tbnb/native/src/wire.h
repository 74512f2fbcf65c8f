/* Protocol-buffer wire primitives, reading what protobuf's parser reads.
 *
 * Every position is checked against the end of its message before a byte is read;
 * a function returns -1 (or a start of -1) where protobuf would reject the bytes.
 */
#ifndef TBNB_WIRE_H
#define TBNB_WIRE_H

#include <stdint.h>
#include <string.h>

static inline uint64_t le64(const uint8_t *b, int64_t i) {
    uint64_t w;
    memcpy(&w, b + i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline uint32_t le32(const uint8_t *b, int64_t i) {
    uint32_t w;
    memcpy(&w, b + i, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w;
}

/* The float32 at i, widened to double (bit casts, no numeric conversion of the bits). */
static inline double f32_at(const uint8_t *b, int64_t i) {
    uint32_t w = le32(b, i);
    float f;
    memcpy(&f, &w, 4);
    return (double)f;
}

static inline double f64_at(const uint8_t *b, int64_t i) {
    uint64_t w = le64(b, i);
    double d;
    memcpy(&d, &w, 8);
    return d;
}

/* A varint at *p (at most 10 bytes; the 10th may only carry bit 63). Advances *p,
 * or sets it to -1 when malformed. */
static inline int64_t varint(const uint8_t *b, int64_t *p, int64_t end) {
    int64_t i = *p;
    if (i < end && b[i] < 0x80) {
        *p = i + 1;
        return b[i];
    }
    uint64_t result = 0;
    int shift = 0;
    while (i < end && shift < 70) {
        uint64_t c = b[i++];
        if (shift == 63 && c > 1) {
            *p = -1;
            return (int64_t)result;
        }
        result |= (c & 0x7F) << shift;
        if (c < 0x80) {
            *p = i;
            return (int64_t)result;
        }
        shift += 7;
    }
    *p = -1;
    return (int64_t)result;
}

/* A field key (at most 5 bytes, below 2**32, field number >= 1), or *p = -1. */
static inline int64_t field_key(const uint8_t *b, int64_t *p, int64_t end) {
    int64_t start = *p;
    int64_t k = varint(b, p, end);
    if (*p < 0 || *p - start > 5 || k >= ((int64_t)1 << 32) || k < 8) {
        *p = -1;
        return 0;
    }
    return k;
}

/* The span of a length-delimited field whose length varint is at p: *s = start and
 * the stop is returned, or *s = -1 (and -1 returned) when malformed or past end. */
static inline int64_t length_delimited(const uint8_t *b, int64_t p, int64_t end, int64_t *s) {
    int64_t q = p;
    int64_t n = varint(b, &q, end);
    if (q < 0 || q - p > 5 || n < 0 || n > end - q) {
        *s = -1;
        return -1;
    }
    *s = q;
    return q + n;
}

/* Skip an unknown field's value; -1 if malformed (groups are left to protobuf). */
static inline int64_t skip_field(const uint8_t *b, int64_t p, int64_t end, int64_t wire) {
    int64_t s;
    switch (wire) {
    case 0:
        varint(b, &p, end);
        return p;
    case 1:
        return end - p >= 8 ? p + 8 : -1;
    case 2:
        return length_delimited(b, p, end, &s);
    case 5:
        return end - p >= 4 ? p + 4 : -1;
    default:
        return -1;
    }
}

int tbnb_valid_utf8(const uint8_t *b, int64_t i, int64_t end);
int tbnb_valid_metadata(const uint8_t *b, int64_t p, int64_t end);
int tbnb_tensor_scalar(const uint8_t *b, int64_t p, int64_t end, double *value, int8_t *code);

enum {
    DTYPE_SIMPLE = 1,
    DTYPE_FLOAT = 2,
    DTYPE_DOUBLE = 3,
    VALUE_TENSOR = 4,
    VALUE_HISTO = 5,
    VALUE_IMAGE = 6,
    VALUE_AUDIO = 7
};

/* The messages a Summary.Value holds, for tbnb_valid_message. */
enum { MSG_TENSOR = 1, MSG_SHAPE, MSG_DIM, MSG_HISTO, MSG_IMAGE, MSG_AUDIO };
int tbnb_valid_message(const uint8_t *b, int64_t p, int64_t end, int type, int depth);

#endif
