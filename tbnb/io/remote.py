"""Errors of remote logdirs (s3://, gs://, az://, ...) that say what failed and what to do.

Remote filesystems fail with their own exceptions (botocore, google-auth, aiohttp,
azure), often as long tracebacks that never name the logdir. :func:`logdir_error`
turns one into a :class:`LogdirError`: one message naming the logdir, what failed,
and how to pass credentials or options; the original stays on ``error.original``.

Examples
--------
>>> error = logdir_error("s3://bucket/runs", PermissionError("Access Denied"))
>>> print(error)  # doctest: +NORMALIZE_WHITESPACE
tbnb: cannot read logdir 's3://bucket/runs': PermissionError: Access Denied. Pass
credentials or options with tbnb.load(..., storage_options={...}) (for S3, e.g.
{'key': ..., 'secret': ...}, {'profile': 'name'}, {'anon': True} for a public bucket,
{'client_kwargs': {'endpoint_url': ...}} for another endpoint), or set them where s3fs
looks for them (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, ~/.aws/credentials).
"""

from __future__ import annotations

__all__ = ["LogdirError", "is_storage_error", "logdir_error", "missing_package_error"]

_STORAGE_MODULES = (
    "botocore",
    "aiobotocore",
    "s3fs",
    "gcsfs",
    "google.auth",
    "google.api_core",
    "google.cloud",
    "aiohttp",
    "adlfs",
    "azure",
    "requests",
    "urllib3",
    "fsspec",
)

_HINTS = {
    "s3": (
        "S3",
        "{'key': ..., 'secret': ...}, {'profile': 'name'}, {'anon': True} for a public "
        "bucket, {'client_kwargs': {'endpoint_url': ...}} for another endpoint",
        "s3fs",
        "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, ~/.aws/credentials",
    ),
    "gs": (
        "Google Cloud Storage",
        "{'token': 'path/to/key.json'}, {'project': ...}, {'token': 'anon'} for a public bucket",
        "gcsfs",
        "GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login",
    ),
    "az": (
        "Azure Blob Storage",
        "{'account_name': ..., 'account_key': ...}, {'connection_string': ...}, {'anon': True}",
        "adlfs",
        "AZURE_STORAGE_ACCOUNT_NAME and AZURE_STORAGE_ACCOUNT_KEY",
    ),
}
_ALIASES = {"s3a": "s3", "gcs": "gs", "abfs": "az", "abfss": "az"}

_EXTRAS = {"s3": "s3", "gs": "gcs", "az": "azure"}


class LogdirError(OSError):
    """A logdir could not be opened or read; the message says which and what to do.

    Attributes
    ----------
    original : BaseException or None
        The filesystem's own exception.
    """

    original: BaseException | None = None


def _protocol(url: str) -> str:
    scheme = url.split("://", 1)[0].lower() if "://" in url else "file"
    return _ALIASES.get(scheme, scheme)


def is_storage_error(error: BaseException) -> bool:
    """Whether ``error`` comes from storage (an ``OSError`` or a remote filesystem's error).

    Examples
    --------
    >>> is_storage_error(FileNotFoundError("x")), is_storage_error(KeyError("x"))
    (True, False)
    """
    if isinstance(error, OSError):
        return True
    module = type(error).__module__ or ""
    return module.startswith(_STORAGE_MODULES)


def _hint(url: str) -> str:
    protocol = _protocol(url)
    hint = _HINTS.get(protocol)
    if hint is None:
        return (
            "Pass credentials or options with tbnb.load(..., storage_options={...}); they "
            "go to fsspec's filesystem for this URL."
        )
    name, examples, package, where = hint
    return (
        f"Pass credentials or options with tbnb.load(..., storage_options={{...}}) "
        f"(for {name}, e.g. {examples}), or set them where {package} looks for them "
        f"({where})."
    )


def logdir_error(url: str, error: BaseException, *, doing: str = "read") -> LogdirError:
    """One clear error for a storage failure on logdir ``url``."""
    reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
    what = f"{type(error).__name__}: {reason}" if reason else type(error).__name__
    out = LogdirError(f"tbnb: cannot {doing} logdir {url!r}: {what.rstrip('.')}. {_hint(url)}")
    out.original = error
    return out


def missing_package_error(url: str, error: ImportError) -> LogdirError:
    """The error for a remote URL whose filesystem package is not installed.

    Examples
    --------
    >>> error = missing_package_error("s3://b/runs", ImportError("Install s3fs to access S3"))
    >>> str(error).split(": ", 2)[2]
    "pip install 'tbnb[s3]' (or pip install s3fs)"
    """
    protocol = _protocol(url)
    hint = _HINTS.get(protocol)
    if hint is not None:
        package = hint[2]
        extra = _EXTRAS[protocol]
        how = f"pip install 'tbnb[{extra}]' (or pip install {package})"
        out = LogdirError(f"tbnb: reading {url!r} needs {package}, which is not installed: {how}")
    else:
        out = LogdirError(
            f"tbnb: reading {url!r} needs a filesystem package that is not installed ({error})"
        )
    out.original = error
    return out
