"""TensorBoard's own plugins as oracles: their HTTP routes over TensorBoard's multiplexer.

:func:`plugin_routes` loads a logdir with TensorBoard's ``EventMultiplexer`` (every value
kept) and answers a plugin's routes as TensorBoard's server would, without a server:
independent of tbnb from the file to the response.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def plugin_routes(logdir: str, plugin_class: Any, plugin_name: str) -> Callable[..., bytes]:
    """``get(route, **query) -> body`` of ``plugin_class`` serving ``logdir``."""
    from tensorboard.backend.event_processing import data_provider as dp
    from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
    from tensorboard.plugins import base_plugin
    from werkzeug.test import Client
    from werkzeug.wrappers import Response

    multiplexer = pem.EventMultiplexer(
        size_guidance={"tensors": 0}, tensor_size_guidance={plugin_name: 0}
    )
    multiplexer.AddRunsFromDirectory(logdir)
    multiplexer.Reload()
    context = base_plugin.TBContext(
        logdir=logdir,
        data_provider=dp.MultiplexerDataProvider(multiplexer, logdir),
        multiplexer=multiplexer,
        sampling_hints={plugin_name: 10**9},
    )
    apps = plugin_class(context).get_plugin_apps()

    def get(route: str, **query: Any) -> bytes:
        response = Client(apps[route], Response).get(route, query_string=query)
        assert response.status_code == 200, (route, query, response.data[:200])
        return bytes(response.data)

    return get
