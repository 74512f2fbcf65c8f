/* CRC32C (Castagnoli, reflected polynomial 0x82F63B78), as TFRecord framing uses it.
 *
 * x86-64: the SSE4.2 crc32 instruction, chosen at run time (__builtin_cpu_supports).
 * ARMv8: the CRC32C instructions when the compiler targets them (__ARM_FEATURE_CRC32,
 * e.g. Apple silicon or -march=armv8-a+crc). Elsewhere, and as the reference the
 * tests compare against: slice-by-8 tables, built once when the library loads.
 */
#include <string.h>

#include "tbnb_native.h"

#if defined(__x86_64__) || defined(_M_X64)
#define TBNB_X86 1
#include <nmmintrin.h>
#endif
#if defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#define TBNB_ARM_CRC 1
#include <arm_acle.h>
#endif

static uint32_t table[8][256];

static uint64_t load_le64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8); /* one unaligned load */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static void build_tables(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[0][i] = c;
    }
    for (int t = 1; t < 8; t++)
        for (int i = 0; i < 256; i++)
            table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xFF];
}

uint32_t tbnb_crc32c_table(uint32_t crc, const uint8_t *data, int64_t n) {
    uint32_t c = ~crc;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = load_le64(data + i) ^ c;
        c = table[7][w & 0xFF] ^ table[6][(w >> 8) & 0xFF] ^ table[5][(w >> 16) & 0xFF] ^
            table[4][(w >> 24) & 0xFF] ^ table[3][(w >> 32) & 0xFF] ^
            table[2][(w >> 40) & 0xFF] ^ table[1][(w >> 48) & 0xFF] ^ table[0][w >> 56];
    }
    for (; i < n; i++) c = table[0][(c ^ data[i]) & 0xFF] ^ (c >> 8);
    return ~c;
}

#ifdef TBNB_X86
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc,
                                                               const uint8_t *data,
                                                               int64_t n) {
    uint64_t c = (uint32_t)~crc;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) c = _mm_crc32_u64(c, load_le64(data + i));
    uint32_t c32 = (uint32_t)c;
    for (; i < n; i++) c32 = _mm_crc32_u8(c32, data[i]);
    return ~c32;
}
#endif

#ifdef TBNB_ARM_CRC
static uint32_t crc32c_arm(uint32_t crc, const uint8_t *data, int64_t n) {
    uint32_t c = ~crc;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) c = __crc32cd(c, load_le64(data + i));
    for (; i < n; i++) c = __crc32cb(c, data[i]);
    return ~c;
}
#endif

typedef uint32_t (*crc_fn)(uint32_t, const uint8_t *, int64_t);
static crc_fn chosen = tbnb_crc32c_table;
static const char *chosen_name = "table";

/* Runs once when the library is loaded, before any call (no locking needed). */
__attribute__((constructor)) static void tbnb_crc32c_init(void) {
    build_tables();
#ifdef TBNB_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.2")) {
        chosen = crc32c_sse42;
        chosen_name = "sse4.2";
    }
#endif
#ifdef TBNB_ARM_CRC
    chosen = crc32c_arm;
    chosen_name = "armv8-crc";
#endif
}

const char *tbnb_crc32c_impl(void) { return chosen_name; }

uint32_t tbnb_crc32c(uint32_t crc, const uint8_t *data, int64_t n) {
    return chosen(crc, data, n);
}

uint32_t tbnb_masked_crc32c(const uint8_t *data, int64_t n) {
    uint32_t c = chosen(0, data, n);
    return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}
