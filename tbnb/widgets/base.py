"""The widget platform: one base class every tbnb widget derives from.

A widget is one Python folder ``tbnb/widgets/<key>/`` (a subclass of
:class:`TbnbWidget` with ``_widget_key = "<key>"``) and one front-end folder
``js/src/widgets/<key>/``, bundled by ``js/build.mjs`` into ``tbnb/static/<key>.js``
and served as the anywidget ``_esm`` (inside a dashboard, a stub taking the view from
the one bundle its page loads once: :mod:`tbnb.widgets.bundle`). Traits hold state;
requests from the browser arrive as custom messages ``{"type": ..., "id": ...}`` (sent by the kit's
``request(model, type, payload)``, ``js/src/core/request.js``) and are answered by
the method ``_request_<type>`` with arrays sent as binary buffers (see
:mod:`tbnb.widgets.serializers`); an exception becomes an ``{"error"}`` reply, which
rejects the browser's promise. Run colours come from :mod:`tbnb.widgets.colors`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar

import anywidget

from tbnb.widgets.bundle import esm_for
from tbnb.widgets.serializers import pack, unpack
from tbnb.widgets.traits import check_regexes

if TYPE_CHECKING:
    import os

    import plotly.graph_objects as go
    from matplotlib.figure import Figure

    from tbnb.widgets.spec import ViewSpec

__all__ = ["STATIC", "TbnbWidget", "bundle_path", "check_kwargs", "optional"]

log = logging.getLogger(__name__)

#: Package folder holding the built front-end bundles.
STATIC = resources.files("tbnb") / "static"


def bundle_path(key: str) -> Any:
    """Path of the built front-end bundle of widget ``key``.

    Examples
    --------
    >>> bundle_path("scalars").name
    'scalars.js'
    """
    return STATIC / f"{key}.js"


def optional(module: str, extra: str, what: str) -> Any:
    """Import an optional package, or say which extra installs it.

    Examples
    --------
    >>> optional("math", "plotly", "to_plotly()").sqrt(4.0)
    2.0
    >>> optional("nopkg", "plotly", "to_plotly()")
    Traceback (most recent call last):
    ...
    ImportError: to_plotly() needs nopkg, which is not installed: pip install 'tbnb[plotly]'
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        package = module.split(".", maxsplit=1)[0]
        raise ImportError(
            f"{what} needs {package}, which is not installed: pip install 'tbnb[{extra}]'"
        ) from None


def check_kwargs(func: str, kwargs: dict[str, Any], allowed: Iterable[str]) -> None:
    """Raise ``TypeError`` for keyword arguments ``func`` does not take.

    Examples
    --------
    >>> check_kwargs("scalars", {"height": 1}, ["height"])
    >>> check_kwargs("scalars", {"smothing": 1}, ["smoothing"])
    Traceback (most recent call last):
    ...
    TypeError: scalars() got an unexpected keyword argument 'smothing' (did you mean 'smoothing'?)
    """
    allowed = set(allowed)
    for name in kwargs:
        if name not in allowed:
            import difflib

            close = difflib.get_close_matches(name, sorted(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise TypeError(f"{func}() got an unexpected keyword argument {name!r}{hint}")


class TbnbWidget(anywidget.AnyWidget):
    """Base of every tbnb widget: bundle lookup and the request/answer channel.

    Subclasses set ``_widget_key`` and define ``_request_<type>(self, content)``
    methods; one gets the message content (arrays unpacked) and returns a dict
    (arrays allowed) that is sent back with the request's ``id`` and ``type``.
    Errors, and requests of a type with no handler, are answered at once as
    ``{"type", "id", "error"}``, so the browser never waits.
    """

    _widget_key: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        key = cls.__dict__.get("_widget_key")
        if key:
            # The bundle's text (not a Path): no file watching, same in every frontend.
            cls._esm = bundle_path(key).read_text(encoding="utf-8")

    def __init__(self, **kwargs: Any) -> None:
        check_regexes(type(self), kwargs)
        stub = esm_for(self._widget_key)  # in a dashboard: the view from its one bundle
        if stub is not None:
            kwargs.setdefault("_esm", stub)
        super().__init__(**kwargs)
        self.on_msg(self._dispatch)

    def _dispatch(self, _widget: Any, content: Any, buffers: list[Any]) -> None:
        if not isinstance(content, dict) or "type" not in content:
            return
        reply = self.answer(unpack(content, list(buffers or [])))
        if reply is not None:
            body, bufs = pack(reply)
            self.send(body, buffers=bufs)

    def answer(self, content: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to one request (what the browser receives, before packing).

        Public so tests and other Python code can ask exactly what the browser asks.
        """
        kind = str(content.get("type"))
        handler = getattr(self, f"_request_{kind}", None) if kind.isidentifier() else None
        base = {"type": kind, "id": content.get("id")}
        if handler is None:  # a front end asking what this widget cannot answer: a bug
            log.error("tbnb widget %s has no handler for request %r", type(self).__name__, kind)
            return {**base, "error": f"{type(self).__name__} cannot answer {kind!r} requests"}
        try:
            return {**base, **handler(content)}
        except Exception as err:  # reported to the browser, which shows it
            log.exception("tbnb widget request %r failed", kind)
            return {**base, "error": f"{type(err).__name__}: {err}"}

    def _request_ping(self, _content: dict[str, Any]) -> dict[str, Any]:
        """A sign of life: the browser asks when a request is slow; the kernel answers in
        order, so an earlier request still unanswered when this reply arrives was lost
        and is sent again (``js/src/core/request.js``)."""
        return {}

    def wait_ready(self, timeout: float | None = 60.0) -> bool:
        """Wait until what the widget computes in the background is in its traits (False if
        ``timeout`` seconds passed first). Exports call it so a page carries it all."""
        return True

    def view_spec(self) -> ViewSpec:
        """What the widget shows now, as data (:class:`~tbnb.widgets.spec.ViewSpec`)."""
        raise NotImplementedError(f"{type(self).__name__} has no view spec")

    def to_plotly(self) -> go.Figure:
        """A ``plotly.graph_objects.Figure`` of what is shown (its :meth:`view_spec`)."""
        from tbnb.widgets.plotly_figure import plotly_figure

        return plotly_figure(self.view_spec())

    def to_matplotlib(self) -> Figure:
        """A ``matplotlib.figure.Figure`` of what is shown (its :meth:`view_spec`): the same
        series, smoothing, colours, selection, scales and labels as the browser, with no
        notebook or display needed (``pip install 'tbnb[matplotlib]'``)."""
        from tbnb.widgets.matplotlib_figure import matplotlib_figure

        return matplotlib_figure(self.view_spec())

    def savefig(self, path: str | os.PathLike[str], **kwargs: Any) -> None:
        """Write what is shown to ``path`` as a figure for a paper: PDF and SVG are vector,
        PNG raster (the format follows the extension; ``kwargs`` go to matplotlib's
        ``Figure.savefig``, e.g. ``dpi=300``)."""
        kwargs.setdefault("bbox_inches", "tight")
        self.to_matplotlib().savefig(path, **kwargs)
