/* Validators mirroring protobuf's acceptance rules for the fields the decoder reads
 * (tbnb/decode/compiled/validate.py and wire.py's valid_utf8). */
#include "wire.h"

/* Whether b[i:end] is well-formed UTF-8 (no surrogates, no overlong forms). */
int tbnb_valid_utf8(const uint8_t *b, int64_t i, int64_t end) {
    while (i < end) {
        uint8_t c = b[i];
        int n;
        uint8_t lo, hi;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1; lo = 0x80; hi = 0xBF;
        } else if (c == 0xE0) {
            n = 2; lo = 0xA0; hi = 0xBF;
        } else if (c == 0xED) {
            n = 2; lo = 0x80; hi = 0x9F;
        } else if (c >= 0xE1 && c <= 0xEF) {
            n = 2; lo = 0x80; hi = 0xBF;
        } else if (c == 0xF0) {
            n = 3; lo = 0x90; hi = 0xBF;
        } else if (c >= 0xF1 && c <= 0xF3) {
            n = 3; lo = 0x80; hi = 0xBF;
        } else if (c == 0xF4) {
            n = 3; lo = 0x80; hi = 0x8F;
        } else {
            return 0;
        }
        if (end - i <= n || b[i + 1] < lo || b[i + 1] > hi) return 0;
        for (int k = 2; k <= n; k++)
            if (b[i + k] < 0x80 || b[i + k] > 0xBF) return 0;
        i += n + 1;
    }
    return 1;
}

/* SummaryMetadata.PluginData parses: plugin_name UTF-8, content any bytes. */
static int valid_plugin_data(const uint8_t *b, int64_t p, int64_t end) {
    while (p < end) {
        int64_t k = field_key(b, &p, end);
        if (p < 0) return 0;
        if ((k >> 3) <= 2) {
            int64_t s, e;
            if ((k & 7) != 2) return 0;
            e = length_delimited(b, p, end, &s);
            if (s < 0 || ((k >> 3) == 1 && !tbnb_valid_utf8(b, s, e))) return 0;
            p = e;
        } else {
            p = skip_field(b, p, end, k & 7);
            if (p < 0) return 0;
        }
    }
    return 1;
}

/* SummaryMetadata parses as protobuf would parse it (else: fall back). */
int tbnb_valid_metadata(const uint8_t *b, int64_t p, int64_t end) {
    while (p < end) {
        int64_t k = field_key(b, &p, end);
        if (p < 0) return 0;
        int64_t field = k >> 3;
        if (field <= 3) {
            int64_t s, e;
            if ((k & 7) != 2) return 0;
            e = length_delimited(b, p, end, &s);
            if (s < 0) return 0;
            if (field == 1) {
                if (!valid_plugin_data(b, s, e)) return 0;
            } else if (!tbnb_valid_utf8(b, s, e)) {
                return 0;
            }
            p = e;
        } else if (field == 4) {
            if ((k & 7) != 0) return 0;
            varint(b, &p, end);
            if (p < 0) return 0;
        } else {
            p = skip_field(b, p, end, k & 7);
            if (p < 0) return 0;
        }
    }
    return 1;
}

/* A TensorShapeProto with no dim and unknown_rank false. */
static int shape_is_scalar(const uint8_t *b, int64_t p, int64_t end) {
    int64_t unknown_rank = 0;
    while (p < end) {
        int64_t key = field_key(b, &p, end);
        if (p < 0) return 0;
        if (key != (3 << 3)) return 0;
        unknown_rank = varint(b, &p, end);
        if (p < 0) return 0;
    }
    return unknown_rank == 0;
}

/* A rank-0 DT_FLOAT/DT_DOUBLE TensorProto: 1 with *value and *code set, else 0. */
int tbnb_tensor_scalar(const uint8_t *b, int64_t p, int64_t end, double *value, int8_t *code) {
    int64_t dtype = 0, content_start = -1, content_len = 0, n_float = 0, n_double = 0;
    double fval = 0.0, dval = 0.0;
    int64_t s, e;
    while (p < end) {
        int64_t key = field_key(b, &p, end);
        if (p < 0) return 0;
        switch (key) {
        case 1 << 3: /* dtype */
            dtype = varint(b, &p, end);
            if (p < 0) return 0;
            break;
        case (2 << 3) | 2: /* tensor_shape */
            e = length_delimited(b, p, end, &s);
            if (s < 0 || !shape_is_scalar(b, s, e)) return 0;
            p = e;
            break;
        case 3 << 3: /* version_number */
            varint(b, &p, end);
            if (p < 0) return 0;
            break;
        case (4 << 3) | 2: /* tensor_content (last wins) */
            e = length_delimited(b, p, end, &s);
            if (s < 0) return 0;
            content_start = s;
            content_len = e - s;
            p = e;
            break;
        case (5 << 3) | 2: /* float_val, packed */
            e = length_delimited(b, p, end, &s);
            if (s < 0 || (e - s) % 4 != 0) return 0;
            if (e > s) {
                n_float += (e - s) / 4;
                fval = f32_at(b, e - 4);
            }
            p = e;
            break;
        case (5 << 3) | 5: /* float_val, unpacked */
            if (end - p < 4) return 0;
            n_float++;
            fval = f32_at(b, p);
            p += 4;
            break;
        case (6 << 3) | 2: /* double_val, packed */
            e = length_delimited(b, p, end, &s);
            if (s < 0 || (e - s) % 8 != 0) return 0;
            if (e > s) {
                n_double += (e - s) / 8;
                dval = f64_at(b, e - 8);
            }
            p = e;
            break;
        case (6 << 3) | 1: /* double_val, unpacked */
            if (end - p < 8) return 0;
            n_double++;
            dval = f64_at(b, p);
            p += 8;
            break;
        default:
            return 0;
        }
    }
    if (dtype == 1) { /* DT_FLOAT */
        if (n_double != 0) return 0;
        if (content_len == 4 && n_float == 0) {
            *value = f32_at(b, content_start);
            *code = DTYPE_FLOAT;
            return 1;
        }
        if (content_len == 0 && n_float == 1) {
            *value = fval;
            *code = DTYPE_FLOAT;
            return 1;
        }
    } else if (dtype == 2) { /* DT_DOUBLE */
        if (n_float != 0) return 0;
        if (content_len == 8 && n_double == 0) {
            *value = f64_at(b, content_start);
            *code = DTYPE_DOUBLE;
            return 1;
        }
        if (content_len == 0 && n_double == 1) {
            *value = dval;
            *code = DTYPE_DOUBLE;
            return 1;
        }
    }
    return 0;
}
