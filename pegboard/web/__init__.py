"""The pub page: a read-only scoreboard served over HTTP (``web.server``) and its static page.

Importing this package imports nothing else: the daemon loads ``web.server`` (and with it the
standard library's ``http.server``) only when ``[web] enabled = true``.
"""
