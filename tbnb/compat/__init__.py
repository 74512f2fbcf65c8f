"""Layer ``compat``: other libraries' interfaces on top of the loader.

:mod:`tbnb.compat.tbparse` is a drop-in for tbparse's ``SummaryReader``.
"""
