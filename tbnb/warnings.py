"""Warning classes: every problem tbnb reports names the file and what was wrong.

Examples
--------
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     warnings.warn("runs/a/events.out.tfevents.1: bad data CRC at offset 40",
...                   CorruptRecordWarning)
>>> caught[0].category.__name__
'CorruptRecordWarning'
"""

from __future__ import annotations


class TbnbWarning(UserWarning):
    """Base class of tbnb's warnings."""


class CorruptRecordWarning(TbnbWarning):
    """An event file holds corrupt records; they were skipped and every good record kept."""


class LogdirWarning(TbnbWarning):
    """Part of a logdir could not be read (an unlistable directory, an unreadable file)."""


class DataWarning(TbnbWarning):
    """A summary value could not be decoded into its kind (wrong shape, bad dtype)."""


class EmptyResultWarning(TbnbWarning):
    """A load found nothing to show: an empty logdir, or filters that match nothing."""
