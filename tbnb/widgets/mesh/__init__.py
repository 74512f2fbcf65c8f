"""The meshes dashboard: 3-D meshes and point clouds per (run, tag), runs side by side.

``tbnb.meshes(...)`` (:mod:`~tbnb.widgets.mesh.factory`) builds a
:class:`~tbnb.widgets.mesh.widget.MeshWidget`; :mod:`~tbnb.widgets.mesh.prepare` holds
the pure row -> payload steps and :mod:`~tbnb.widgets.mesh.plotly` the ``.to_plotly()``
figure. Its front end is ``js/src/widgets/mesh/`` on the WebGL kit (``js/src/gl``).
"""

from __future__ import annotations

from tbnb.widgets.mesh.factory import MeshOptions, meshes
from tbnb.widgets.mesh.widget import MeshWidget

__all__ = ["MeshOptions", "MeshWidget", "meshes"]
