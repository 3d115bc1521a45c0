"""Tournament night: a club's evening of seated games, scored, corrected and ranked.

A pure core, like ``engine/``: ``night`` holds the evening (entrants, rounds, results,
corrections) and the rules for changing it, ``seating`` seats a round, ``standings`` keeps
the scorecards and the ranking with the full tie-break chain, ``bracket`` the qualifier cut
and the playoff, ``pots`` the side pots. No I/O, no clock: times come in as text, randomness
as a ``random.Random``.
"""
