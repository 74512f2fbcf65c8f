/* Validators mirroring protobuf's acceptance rules for the fields the decoder reads:
 * UTF-8 of strings, metadata, and every message a summary value holds (anything they
 * do not accept goes to protobuf, which decides). */
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

/* How a field of the messages a Summary.Value holds is read (tbnb_valid_message). */
enum {
    F_SKIP = 0, /* unknown to the message: skipped, as protobuf keeps it unparsed */
    F_VARINT,
    F_F64,
    F_F32,
    F_BYTES,
    F_STRING, /* bytes that must be UTF-8 (proto3 string) */
    F_MSG,
    F_RVARINT, /* repeated varints: packed or one by one */
    F_RF64,
    F_RF32,
    F_FAIL /* a field left to protobuf (resource handles, variants) */
};

static int field_rule(int type, int64_t number, int *sub) {
    switch (type) {
    case MSG_TENSOR:
        switch (number) {
        case 1: case 3: return F_VARINT;
        case 2: *sub = MSG_SHAPE; return F_MSG;
        case 4: case 8: return F_BYTES;
        case 5: case 9: return F_RF32;
        case 6: case 12: return F_RF64;
        case 7: case 10: case 11: case 13: case 16: case 17: return F_RVARINT;
        case 14: case 15: return F_FAIL;
        default: return F_SKIP;
        }
    case MSG_SHAPE:
        if (number == 2) {
            *sub = MSG_DIM;
            return F_MSG;
        }
        return number == 3 ? F_VARINT : F_SKIP;
    case MSG_DIM:
        return number == 1 ? F_VARINT : number == 2 ? F_STRING : F_SKIP;
    case MSG_HISTO:
        return number >= 1 && number <= 5 ? F_F64 : number == 6 || number == 7 ? F_RF64 : F_SKIP;
    case MSG_IMAGE:
        return number >= 1 && number <= 3 ? F_VARINT : number == 4 ? F_BYTES : F_SKIP;
    case MSG_AUDIO:
        switch (number) {
        case 1: return F_F32;
        case 2: case 3: return F_VARINT;
        case 4: return F_BYTES;
        case 5: return F_STRING;
        default: return F_SKIP;
        }
    default:
        return F_FAIL;
    }
}

/* Whether b[p:end] holds only varints, ending exactly at end. */
static int packed_varints(const uint8_t *b, int64_t p, int64_t end) {
    while (p < end) {
        varint(b, &p, end);
        if (p < 0) return 0;
    }
    return 1;
}

/* Whether b[p:end] parses as protobuf parses a message of this type, every field with
 * the wire type its declaration gives (anything else: 0, the protobuf path decides). */
int tbnb_valid_message(const uint8_t *b, int64_t p, int64_t end, int type, int depth) {
    if (depth > 8) return 0;
    while (p < end) {
        int64_t k = field_key(b, &p, end);
        if (p < 0) return 0;
        int sub = 0;
        int rule = field_rule(type, k >> 3, &sub);
        int64_t wire = k & 7, s, e;
        switch (rule) {
        case F_SKIP:
            p = skip_field(b, p, end, wire);
            break;
        case F_VARINT:
            if (wire != 0) return 0;
            varint(b, &p, end);
            break;
        case F_F64:
            if (wire != 1) return 0;
            p = end - p >= 8 ? p + 8 : -1;
            break;
        case F_F32:
            if (wire != 5) return 0;
            p = end - p >= 4 ? p + 4 : -1;
            break;
        case F_RVARINT:
            if (wire == 0) {
                varint(b, &p, end);
                break;
            }
            if (wire != 2) return 0;
            e = length_delimited(b, p, end, &s);
            if (s < 0 || !packed_varints(b, s, e)) return 0;
            p = e;
            break;
        case F_RF64:
        case F_RF32: {
            int64_t size = rule == F_RF64 ? 8 : 4;
            if (wire == (rule == F_RF64 ? 1 : 5)) {
                p = end - p >= size ? p + size : -1;
                break;
            }
            if (wire != 2) return 0;
            e = length_delimited(b, p, end, &s);
            if (s < 0 || (e - s) % size != 0) return 0;
            p = e;
            break;
        }
        case F_BYTES:
        case F_STRING:
        case F_MSG:
            if (wire != 2) return 0;
            e = length_delimited(b, p, end, &s);
            if (s < 0) return 0;
            if (rule == F_STRING && !tbnb_valid_utf8(b, s, e)) return 0;
            if (rule == F_MSG && !tbnb_valid_message(b, s, e, sub, depth + 1)) return 0;
            p = e;
            break;
        default:
            return 0;
        }
        if (p < 0) return 0;
    }
    return 1;
}
