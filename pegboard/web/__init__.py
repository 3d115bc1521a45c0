"""The pub page: a read-only scoreboard served over HTTP (``web.server``), fed its payload by
``web.publisher``, and its static page.

Importing this package imports nothing else: the daemon loads ``web.server`` (and with it the
standard library's ``http.server``) and ``web.publisher`` only when ``[web] enabled = true``.
"""
