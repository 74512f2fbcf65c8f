/* TFRecord framing: the scan of tbnb/io/records.py (numpy), record for record.
 *
 * A record is u64 length (LE), u32 masked crc32c(length bytes), data, u32 masked
 * crc32c(data). Every read is bounds-checked against n before it happens.
 */
#include <string.h>

#include "tbnb_native.h"

enum { HEADER = 12, FOOTER = 4, KIND_LENGTH_CRC = 1, KIND_DATA_CRC = 2, KIND_SHORT = 3 };

static int64_t u32_at(const uint8_t *b, int64_t i) {
    return (int64_t)b[i] | ((int64_t)b[i + 1] << 8) | ((int64_t)b[i + 2] << 16) |
           ((int64_t)b[i + 3] << 24);
}

/* The u64 length at i, or -1 when it is 2**48 or more. Needs i + 8 <= n. */
static int64_t length_at(const uint8_t *b, int64_t i) {
    if (b[i + 6] != 0 || b[i + 7] != 0) return -1;
    return u32_at(b, i) | ((int64_t)b[i + 4] << 32) | ((int64_t)b[i + 5] << 40);
}

/* Whether the header at i has a valid length CRC. Needs i + 12 <= n. */
static int header_ok(const uint8_t *b, int64_t i) {
    return (int64_t)tbnb_masked_crc32c(b + i, 8) == u32_at(b, i + 8);
}

/* Whether the data of length len at d0 matches its CRC. Needs d0 + len + 4 <= n. */
static int data_ok(const uint8_t *b, int64_t d0, int64_t len) {
    return (int64_t)tbnb_masked_crc32c(b + d0, len) == u32_at(b, d0 + len);
}

/* The first offset from q where a record starts, or -1 (see tbnb/io/records.py). */
static int64_t resync(const uint8_t *b, int64_t n, int64_t q, int complete_only) {
    for (; q + HEADER <= n; q++) {
        if (!header_ok(b, q)) continue;
        int64_t len = length_at(b, q);
        if (len < 0 || len > n - q - HEADER - FOOTER) {
            if (!complete_only) return q;
        } else if (data_ok(b, q + HEADER, len)) {
            return q;
        }
    }
    return -1;
}

int64_t tbnb_scan_records(const uint8_t *buf, int64_t n, int verify_crc, int64_t *starts,
                          int64_t *lengths, int64_t *count, int64_t *end, int64_t *p_off,
                          int8_t *p_kind, int64_t *p_skip, int64_t problem_cap) {
    int64_t pos = 0, nrec = 0, nprob = 0;
    while (n - pos >= HEADER) {
        /* the hot loop: whole, valid records one after another */
        while (n - pos >= HEADER && header_ok(buf, pos)) {
            int64_t len = length_at(buf, pos);
            int64_t d0 = pos + HEADER;
            if (len < 0 || len > n - pos - HEADER - FOOTER) break;
            if (verify_crc && !data_ok(buf, d0, len)) break;
            starts[nrec] = d0;
            lengths[nrec] = len;
            nrec++;
            pos = d0 + len + FOOTER;
        }
        if (n - pos < HEADER) break;
        /* the record at pos fails a check or runs past the end */
        int kind;
        int64_t q;
        if (!header_ok(buf, pos)) {
            kind = KIND_LENGTH_CRC;
            q = resync(buf, n, pos + 1, 0);
        } else {
            int64_t len = length_at(buf, pos);
            if (len < 0 || len > n - pos - HEADER - FOOTER) {
                /* a tail still being written, unless a whole valid record follows */
                q = resync(buf, n, pos + 1, 1);
                if (q < 0) break;
                kind = KIND_SHORT;
            } else {
                kind = KIND_DATA_CRC;
                q = resync(buf, n, pos + 1, 0);
            }
        }
        if (q < 0) q = n - (HEADER - 1);
        if (nprob < problem_cap) {
            p_off[nprob] = pos;
            p_kind[nprob] = (int8_t)kind;
            p_skip[nprob] = q - pos;
        }
        nprob++;
        if (q <= pos) break;
        pos = q;
    }
    *count = nrec;
    *end = pos;
    return nprob;
}

int64_t tbnb_sync_record(const uint8_t *buf, int64_t n) {
    return resync(buf, n, 0, 1);
}
