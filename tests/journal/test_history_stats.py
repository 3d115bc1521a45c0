"""History and player statistics from the journal: exact sums over whole games.

The expected figures are worked out by hand from the cards (``games.SCRIPT``'s comments, and the
key files' own comments), not from the code under test.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pegboard.engine.history import Part, members_of, replay_match
from pegboard.engine.match import MatchFormat
from pegboard.engine.players import ByHand, PartFigures, RoleFigures, standings
from pegboard.engine.rules import Rules, Variant
from pegboard.journal import Journal

from .games import cli, key_journal, scripted_journal


def _history(db: Path) -> list:  # type: ignore[type-arg]
    with Journal(db, readonly=True) as store:
        return store.history()


def _keyed(by_hand: tuple[tuple[ByHand, int], ...]) -> dict[str, int]:
    """Points pegged by hand by their English key, as the JSON shows them."""
    return {str(why): points for why, points in by_hand}


def test_the_scripted_game_gives_the_totals_worked_out_by_hand(tmp_path: Path) -> None:
    (match,) = _history(scripted_journal(tmp_path / "g.db"))
    assert match.winner == 0 and match.game_points == (3, 0)
    (game,) = match.games
    assert game.result.scores == (121, 30)
    one, two, three = game.deals
    assert (one.pegging, one.hands, one.crib, one.scores) == ((3, 4), (5, 0), (0, 10), (8, 14))
    assert (two.pegging, two.hands, two.crib, two.scores) == ((1, 2), (6, 14), (2, 0), (17, 30))
    assert (three.pegging, three.scores, three.complete) == ((104, 0), (121, 30), False)
    assert one.play == two.play == (Part.COUNTED, Part.COUNTED)
    assert one.hand == two.hand == (Part.COUNTED, Part.COUNTED)
    assert one.crib_part is two.crib_part is Part.COUNTED
    assert three.play == (Part.BY_HAND, Part.NONE) and three.crib_part is Part.NONE

    table = standings([match])
    ann, bob = table.players
    # Ann dealt deal 2 (1 + 6 + 2 = 9) and was pone in deals 1 (3 + 5) and 3 (104 by hand)
    assert ann.dealer == RoleFigures(1, 9, PartFigures(1, 1), PartFigures(1, 6), PartFigures(1, 2))
    assert ann.pone == RoleFigures(2, 112, PartFigures(1, 3), PartFigures(1, 5), None)
    # Bob dealt deals 1 (4 + 0 + 10) and 3 (nothing); pone in deal 2 (2 + 14)
    crib = PartFigures(1, 10)
    assert bob.dealer == RoleFigures(2, 14, PartFigures(1, 4), PartFigures(1, 0), crib)
    assert bob.pone == RoleFigures(1, 16, PartFigures(1, 2), PartFigures(1, 14), None)
    assert ann.pone.pegging.average == 3.0 and bob.dealer.crib is not None
    assert bob.dealer.crib.average == 10.0
    assert ann.by_hand == ((ByHand("pegging", "catch up"), 104),) and bob.by_hand == ()
    assert (ann.games_won, ann.matches_won, ann.game_points) == (1, 1, 3)
    assert (ann.double_skunks_given, bob.double_skunks_taken, bob.lurches_taken) == (1, 1, 0)
    assert [(h.points, h.cards, h.is_crib) for h in bob.best_hands[:2]] == [
        (14, "2H 3H 4H 5H", False),
        (10, "5C 5D JC QH", True),
    ]
    pair = table.between("bob", "ANN")
    assert pair is not None
    assert (pair.names, pair.games_won, pair.game_points) == (("Bob", "Ann"), (0, 1), (0, 3))


def test_the_lurch_key_file_gives_the_totals_its_comments_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deals 1 and 2 keyed card by card, 3 and 4 pegged by hand (tests/keys/six-card-lurch)."""
    (match,) = _history(key_journal("six-card-lurch", tmp_path, monkeypatch))
    ann, bob = standings([match]).players
    # Ann dealt deals 2 (play 1+1, hand 20, crib 9) and 4 (4 + 24 + 28 by hand)
    assert ann.dealer == RoleFigures(2, 31 + 56, PartFigures(1, 2), PartFigures(1, 20),
                                     PartFigures(1, 9))  # fmt: skip
    # Ann was pone in deals 1 (play 1+4+1, hand 5) and 3 (3 + 20 by hand)
    assert ann.pone == RoleFigures(2, 11 + 23, PartFigures(1, 6), PartFigures(1, 5), None)
    # Bob dealt deals 1 (play 3+1, hand 14, crib 7) and 3 (heels 2, 8 and 15 by hand)
    assert bob.dealer == RoleFigures(2, 25 + 25, PartFigures(1, 4), PartFigures(1, 14),
                                     PartFigures(1, 7))  # fmt: skip
    # Bob was pone in deals 2 (play 3, hand 12) and 4 (2 + 6 by hand)
    assert bob.pone == RoleFigures(2, 15 + 8, PartFigures(1, 3), PartFigures(1, 12), None)
    assert ann.dealer.points + ann.pone.points == 121 and bob.dealer.points + bob.pone.points == 73
    assert _keyed(ann.by_hand) == {"pegging (no reason)": 27, "hands (told)": 24, "crib (told)": 28}
    assert _keyed(bob.by_hand) == {"pegging (no reason)": 25, "hands (told)": 6}
    assert (ann.twenty_eights, ann.best_hands[0].points, ann.best_hands[0].cards) == (1, 28, "")
    assert (ann.lurches_given, bob.lurches_taken, ann.game_points) == (1, 1, 2)


@pytest.mark.parametrize("keys", ["six-card-lurch", "five-card-game", "three-handed-deal"])
def test_every_deal_splits_its_points_as_the_journals_history_tables_do(
    keys: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = key_journal(keys, tmp_path, monkeypatch)
    rows = sqlite3.connect(db).execute(
        "SELECT deal, side, pegging, hands, crib, heels, other FROM deal_points ORDER BY rowid"
    )
    stored = [tuple(row) for row in rows]
    (match,) = _history(db)
    replayed = [
        (deal.number, name, deal.pegging[s], deal.hands[s], deal.crib[s], deal.heels[s],
         deal.other[s])
        for game in match.games
        for deal in game.deals
        for s, name in enumerate(game.names)
    ]  # fmt: skip
    assert replayed == stored
    games = [*match.games, *([match.current] if match.current else [])]
    for game in games:
        for side in range(len(game.names)):
            assert sum(d.total(side) for d in game.deals) == game.scores[side]


def test_the_five_card_key_file_counts_three_for_last_and_its_one_counted_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (match,) = _history(key_journal("five-card-game", tmp_path, monkeypatch))
    ann, bob = standings([match]).players
    # deal 1, Ann deals: Bob's three for last, play 1, hand 10; Ann hand 6, crib 6
    assert bob.pone.pegging == PartFigures(1, 1) and bob.pone.hand == PartFigures(1, 10)
    assert ann.dealer.crib == PartFigures(1, 6) and ann.dealer.hand == PartFigures(1, 6)
    assert (bob.games_won, bob.game_points, ann.lurches_taken) == (1, 1, 0)
    assert bob.pone.points + bob.dealer.points == 61


def test_undone_commands_leave_no_trace(tmp_path: Path) -> None:
    plain, undone = tmp_path / "a.db", tmp_path / "b.db"
    for db in (plain, undone):
        cli("game", "new", "--players", "Ann,Bob", "--db", str(db))
    cli("game", "do", "--db", str(plain), "cut 9H 3C", "starter 7H", "play 3S", "play 4D")
    cli("game", "do", "--db", str(undone), "cut 9H 3C", "starter 5H", "peg Ann 9", "undo",
        "undo", "starter 7H", "play 3S", "play 2S", "undo", "play 4D", "undo", "redo")  # fmt: skip
    a, b = _history(plain)[0].current, _history(undone)[0].current
    assert a.deals == b.deals and a.scores == b.scores == (0, 0)


def test_partnerships_count_for_their_members_and_three_players_meet_in_pairs(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.db"
    cli("game", "new", "--variant", "four-handed", "--players", "Ann+Cat,Bob+Dan", "--match",
        "single", "--db", str(db))  # fmt: skip
    cli("game", "do", "--db", str(db), "cut 5H 3C", "next", "peg ann+cat 61", "peg Ann+Cat 60")
    cli("game", "new", "--variant", "three-handed", "--players", "Ann,Bob,Eve", "--db", str(db))
    cli("game", "do", "--db", str(db), "cut 5H 3C 7D", "next", "peg Eve 61", "peg Eve 60")
    table = standings(_history(db))
    names = [(p.name, p.kind, p.games_played, p.games_won) for p in table.players]
    assert names == [
        ("Ann+Cat", "partnership", 1, 1),
        ("Bob+Dan", "partnership", 1, 0),
        ("Ann", "player", 2, 1),
        ("Cat", "player", 1, 1),
        ("Bob", "player", 2, 0),
        ("Dan", "player", 1, 0),
        ("Eve", "player", 1, 1),
    ]
    ann = table.player("ann")
    assert ann is not None and ann.members == () and ann.double_skunks_given == 1
    assert table.player("Ann+Cat").members == ("Ann", "Cat")  # type: ignore[union-attr]
    pair = table.between("Ann", "Eve")
    assert pair is not None
    assert (pair.games, pair.games_won, pair.game_points) == (1, (0, 1), (0, 0))
    assert members_of("Ann") == () and members_of("+Ann+") == ()
    assert standings(_history(db), variant=Variant.THREE_HANDED).player("Cat") is None


def test_a_29_counts_with_its_cards_and_a_28_told_by_points(tmp_path: Path) -> None:
    rules = Rules.six_card()
    texts = ["cut 9H 3C", "starter 5C", "next", "show 5H 5D 5S JC", "show 28", "crib 0"]
    times = [(t, f"2025-03-0{1 + i // 9}T20:00:00+00:00") for i, t in enumerate(texts)]
    match = replay_match(rules, ("Ann", "Bob"), MatchFormat.SINGLE, times)
    game = match.current
    assert game is not None
    (deal, _) = game.deals
    assert deal.hand == (Part.COUNTED, Part.BY_HAND) and deal.play == (Part.NONE, Part.NONE)
    out = [("peg Ann 61", "x"), ("peg Ann 61", "x")]
    finished = replay_match(rules, ("Ann", "Bob"), MatchFormat.SINGLE, [*times, *out])
    ann, bob = standings([finished]).players
    assert (ann.twenty_nines, ann.best_hands[0].cards, ann.best_hands[0].starter) == (
        1,
        "5H 5D 5S JC",
        "5C",
    )
    assert (bob.twenty_eights, bob.best_hands[0].cards) == (1, "")
    assert bob.by_hand == ((ByHand("hands", told=True), 28),)


def test_a_journal_without_the_history_tables_still_has_its_history(tmp_path: Path) -> None:
    """Old journals kept only the commands: the history is read from them, nothing is written."""
    db = scripted_journal(tmp_path / "g.db")
    with sqlite3.connect(db) as conn:
        conn.executescript("DROP TABLE shown_hands; DROP TABLE deal_points; DROP TABLE "
                           "game_sides; DROP TABLE games;")  # fmt: skip
    conn.close()
    before = db.read_bytes()
    (match,) = _history(db)
    assert match.games[0].result.scores == (121, 30)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]
