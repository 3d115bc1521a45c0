"""A league of boards over MQTT (issue 15): the board's publisher and the league service.

An existing, proven broker (Mosquitto) carries everything; nothing here is a home-made network.
``topics`` names the topics, ``standings`` is the pure table of match points, ``publisher`` is
the board's side (the journal's outbox, the live view, online/offline) and ``service`` the
league's (a persistent subscriber, its own SQLite, the standings page). paho-mqtt (the
``league`` extra) is imported only inside ``publisher`` and ``service``, and only when a board
has ``[league]`` or the league service runs.
"""
