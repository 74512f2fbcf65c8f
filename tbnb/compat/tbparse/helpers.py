"""tbparse 0.0.9's static helpers of ``SummaryReader``, for code ported from tbparse.

Equal to tbparse's on the same inputs: histogram tensors to dictionaries, encoded
images and audio to arrays (decoded as TensorFlow decodes them, without TensorFlow),
and a histogram's buckets to a CDF, a PDF or TensorBoard's display bins (the same
arithmetic, in the same order, so results are bitwise equal).

Examples
--------
>>> import numpy as np
>>> counts, limits = np.array([0, 2, 2]), np.array([0.0, 1.0, 2.0])
>>> TbparseHelpers.histogram_to_cdf(counts, limits, np.array([-1.0, 0.5, 1.0, 3.0])).tolist()
[0.0, 0.25, 0.5, 1.0]
>>> centers, bins = TbparseHelpers.histogram_to_bins(counts, limits, 0.0, 2.0, n_bins=2)
>>> centers, [float(b) for b in bins]
([0.5, 1.5], [2.0, 2.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.compat.tbparse.decoding import decode_image, read_wav, tensor_to_histogram

__all__ = ["TbparseHelpers"]


def _cdf(counts: Any, limits: Any, x: Any) -> np.ndarray:
    counts, limits, x = np.array(counts), np.array(limits), np.array(x)
    if len(counts) != len(limits):
        raise ValueError(f"counts and limits differ in length: {len(counts)} != {len(limits)}")
    if not np.all(np.diff(x) > 0):
        raise ValueError("x must be increasing")
    n = np.sum(counts)
    cumsum = np.cumsum(counts)
    # tbparse walks x and the buckets together: 0 up to limits[0], then for
    # limits[i] < x <= limits[i + 1] the weighted mean of the cumulative counts at
    # both edges, then n past limits[-1]; the same expression, element by element.
    y = np.zeros(len(x), dtype=np.result_type(cumsum, x, float))
    i = np.searchsorted(limits, x, side="left") - 1
    inside = (x > limits[0]) & (i + 1 < len(limits))
    k = i[inside]
    lower, upper, xi = limits[k], limits[k + 1], x[inside]
    y[inside] = (cumsum[k] * (upper - xi) + cumsum[k + 1] * (xi - lower)) / (upper - lower)
    y[(x > limits[0]) & ~inside] = n
    out: np.ndarray = y / n
    return out


class TbparseHelpers:
    """The static helpers tbparse's ``SummaryReader`` has, as tbparse defines them."""

    @staticmethod
    def tensor_to_histogram(tensor: np.ndarray) -> dict[str, Any]:
        """A TF2 ``[k, 3]`` histogram tensor (left, right, count) as a dictionary:
        ``limits`` (k + 1 edges), ``counts`` (a 0 first), ``min``, ``max``, ``num``,
        ``sum`` and ``sum_squares`` (NaN: a tensor does not hold them)."""
        return tensor_to_histogram(tensor)

    @staticmethod
    def buckets_to_histogram_dict(lst: np.ndarray) -> dict[str, Any]:
        """Deprecated in tbparse: :meth:`tensor_to_histogram`."""
        return tensor_to_histogram(lst)

    @staticmethod
    def tensor_to_image(tensor: np.ndarray) -> dict[str, Any]:
        """An image summary's tensor (``[width, height, encoded image, ...]``) as
        ``{"image", "width", "height"}``; several images stack on a first axis, one is
        ``(height, width, channels)``. Decoded as ``tf.image.decode_image`` (Pillow)."""
        image = np.stack([decode_image(bytes(data)) for data in tensor[2:]], axis=0)
        if image.shape[0] == 1:
            image = image.squeeze(axis=0)
        return {"image": image, "width": int(tensor[0]), "height": int(tensor[1])}

    @staticmethod
    def tensor_to_audio(tensor: np.ndarray) -> dict[str, Any]:
        """An audio summary's ``[k, 2]`` tensor (encoded WAV, label) as ``{"audio",
        "content_type", "length_frames", "sample_rate"}``; several clips stack on a first
        axis. Decoded as ``tf.audio.decode_wav`` (16-bit PCM to float32 in [-1, 1))."""
        if tensor[:, 1].tolist() != [b""] * tensor.shape[0]:
            raise ValueError("tbparse reads audio tensors whose labels are all empty")
        clips = [read_wav(bytes(data)) for data in tensor[:, 0]]
        audio = np.stack([samples for samples, _ in clips], axis=0)
        sample_rate = np.stack([rate for _, rate in clips], axis=0)
        length = audio.shape[1]
        if audio.shape[0] == 1:
            audio = audio.squeeze(axis=0)
            sample_rate = sample_rate.squeeze(axis=0)
        return {
            "audio": audio,
            "content_type": "audio/wav",
            "length_frames": length,
            "sample_rate": sample_rate,
        }

    @staticmethod
    def histogram_to_cdf(counts: np.ndarray, limits: np.ndarray, x: np.ndarray) -> np.ndarray:
        """The cumulative probability at increasing ``x``, interpolated linearly inside
        buckets (``counts[0]`` must be 0; ``limits`` are the right edges, ``limits[0]``
        the first left edge)."""
        return _cdf(counts, limits, x)

    @staticmethod
    def histogram_to_pdf(
        counts: np.ndarray, limits: np.ndarray, x: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(centers, density)`` between consecutive ``x``: the midpoints and the slope
        of :meth:`histogram_to_cdf`."""
        y = _cdf(counts, limits, x)
        x = np.asarray(x)
        return (x[1:] + x[:-1]) / 2, (y[1:] - y[:-1]) / (x[1:] - x[:-1])

    @staticmethod
    def histogram_to_bins(
        counts: np.ndarray,
        limits: np.ndarray,
        lower_bound: float | None = None,
        upper_bound: float | None = None,
        n_bins: int = 30,
    ) -> tuple[list[float], list[float]]:
        """``(centers, counts)`` of ``n_bins`` equal bins between the bounds, each bucket's
        count spread by overlap, as TensorBoard's histogram dashboard draws them."""
        if len(counts) != len(limits) or counts[0] != 0:
            raise ValueError("counts and limits must have one length, and counts[0] be 0")
        if lower_bound is None or upper_bound is None:
            lower_bound = upper_bound = 0
        if upper_bound == lower_bound:  # a zero-width range: a default one around it
            upper_bound = lower_bound * 1.1 + 1
            lower_bound = lower_bound / 1.1 - 1
        width = (upper_bound - lower_bound) / n_bins
        bucket = 1
        centers: list[float] = []
        bins: list[float] = []
        for i in range(n_bins):
            left = lower_bound + i * width
            right = left + width
            total: Any = 0
            while bucket < len(counts):
                bucket_right = min(upper_bound, limits[bucket])
                bucket_left = max(lower_bound, limits[bucket - 1])
                if bucket_right - bucket_left > 0:
                    overlap = min(bucket_right, right) - max(bucket_left, left)
                    share = (overlap / (bucket_right - bucket_left)) * counts[bucket]
                    total += share if overlap > 0 else 0
                else:
                    last = right >= upper_bound
                    inside = bucket_left >= left and (
                        bucket_right <= right if last else bucket_right < right
                    )
                    total += counts[bucket] if inside else 0
                if bucket_right > right:
                    break
                bucket += 1
            centers.append(left + width / 2)
            bins.append(total)
        return centers, bins
