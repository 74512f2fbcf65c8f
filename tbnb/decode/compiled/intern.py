"""Tag interning inside compiled code: equal tag bytes get one id, in order of appearance.

A 64-bit hash of a tag's length and its first and last 8 bytes picks a slot of an
open-addressing table; candidates are always confirmed by comparing every byte, so
a hash collision can never merge two tags.

Examples
--------
>>> import numpy as np
>>> buf = np.frombuffer(b"lossacclossacc", np.uint8)
>>> ids, starts, lengths = intern_tags(buf, np.array([0, 4, 7, 11]), np.array([4, 3, 4, 3]), 4)
>>> ids.tolist(), starts.tolist(), lengths.tolist()
([0, 1, 0, 1], [0, 4], [4, 3])
"""

from __future__ import annotations

import numpy as np

from tbnb.decode.compiled.wire import grow, le64
from tbnb.jit import njit


@njit(inline="always")
def _word(buf: np.ndarray, s: int, n: int) -> int:
    """Up to 8 bytes at ``s`` as a little-endian integer (``n`` < 8: zero-padded)."""
    if n >= 8:
        return le64(buf, s)
    w = 0
    for k in range(n):
        w |= int(buf[s + k]) << (8 * k)
    return w


@njit(inline="always")
def _tag_hash(buf: np.ndarray, s: int, n: int) -> int:
    """A 64-bit hash of ``buf[s:s+n]`` from its length, first and last 8 bytes.

    Cheap by design: equal hashes are always confirmed by comparing all bytes.
    """
    h = (_word(buf, s, n) * np.int64(-7046029254386353131)) ^ np.int64(n)  # 0x9E3779B97F4A7C15
    if n > 8:
        h = (h ^ le64(buf, s + n - 8)) * np.int64(-4417276706812531889)  # 0xC2B2AE3D27D4EB4F
    # murmur3's fmix64: every input bit reaches the low bits used as the table slot.
    h ^= (h >> 33) & np.int64(0x7FFFFFFF)
    h *= np.int64(-49064778989728563)  # 0xFF51AFD7ED558CCD
    h ^= (h >> 33) & np.int64(0x7FFFFFFF)
    return int(h)


@njit(inline="always")
def _same_bytes(buf: np.ndarray, a: int, b: int, n: int) -> bool:
    """Whether ``buf[a:a+n] == buf[b:b+n]`` (8 bytes at a time, the last word overlapping)."""
    if n < 8:
        return _word(buf, a, n) == _word(buf, b, n)
    k = 0
    while k + 8 < n:
        if le64(buf, a + k) != le64(buf, b + k):
            return False
        k += 8
    return le64(buf, a + n - 8) == le64(buf, b + n - 8)


@njit
def _intern_pass(
    buf: np.ndarray,
    tag_start: np.ndarray,
    tag_len: np.ndarray,
    v0: int,
    nv: int,
    tag_id: np.ndarray,
    table: np.ndarray,
    rep_start: np.ndarray,
    rep_len: np.ndarray,
    rep_hash: np.ndarray,
    ntags: int,
) -> tuple[int, int]:
    """Intern values ``v0..nv`` until done or the table is half full: (next value, ntags)."""
    mask = table.size - 1
    last = -1
    for v in range(v0, nv):
        s = tag_start[v]
        n = tag_len[v]
        h = _tag_hash(buf, s, n)
        # Consecutive values often share a tag: try the previous one first.
        if (
            last >= 0
            and rep_hash[last] == h
            and rep_len[last] == n
            and _same_bytes(buf, s, rep_start[last], n)
        ):
            tag_id[v] = last
            continue
        slot = h & mask
        while True:
            t = table[slot]
            if t < 0:
                if 2 * (ntags + 1) > table.size or ntags == rep_start.size:
                    return v, ntags
                t = ntags
                rep_start[t] = s
                rep_len[t] = n
                rep_hash[t] = h
                table[slot] = t
                ntags += 1
                break
            if rep_hash[t] == h and rep_len[t] == n and _same_bytes(buf, s, rep_start[t], n):
                break
            slot = (slot + 1) & mask
        tag_id[v] = t
        last = t
    return nv, ntags


@njit
def intern_tags(
    buf: np.ndarray, tag_start: np.ndarray, tag_len: np.ndarray, nv: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Give equal tag byte strings one id; return (tag_id, rep start, rep length).

    Ids follow first appearance. A 64-bit hash finds the candidate and the bytes are
    always compared, so a hash collision can never merge two tags.
    """
    tag_id = np.empty(nv, dtype=np.int32)
    table = np.full(64, -1, dtype=np.int32)
    rep_start = np.empty(32, dtype=np.int64)
    rep_len = np.empty(32, dtype=np.int64)
    rep_hash = np.empty(32, dtype=np.int64)
    ntags = 0
    v = 0
    while True:
        # Growing inside the value loop would slow every iteration down (as in
        # _decode_kernel): the pass stops when the table is half full and resumes.
        v, ntags = _intern_pass(
            buf, tag_start, tag_len, v, nv, tag_id, table, rep_start, rep_len, rep_hash, ntags
        )
        if v == nv:
            break
        if ntags == rep_start.size:
            rep_start = grow(rep_start)
            rep_len = grow(rep_len)
            rep_hash = grow(rep_hash)
        if 2 * (ntags + 1) > table.size:
            table = np.full(4 * table.size, -1, dtype=np.int32)
            mask = table.size - 1
            for u in range(ntags):
                j = rep_hash[u] & mask
                while table[j] >= 0:
                    j = (j + 1) & mask
                table[j] = u
    return tag_id, rep_start[:ntags].copy(), rep_len[:ntags].copy()
