"""The table speaks the language it is given: ``[game] language`` in the config (a key file's
header does not drop it; a header's own ``language`` wins over the config), and ``--lang``
before or after ``run``, which wins over both."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.config.settings import config_from_mapping
from pegboard.i18n import Language
from pegboard.table.keyscript import parse_script
from pegboard.table.simulator import config_for_script

KEYS = Path(__file__).parents[1] / "keys" / "readme-session.keys"
HEADER = "# variant: six-card\n# names: Ann, Bob\n5\n3\n"


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An English locale and no config of the user's: only the test chooses German."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "PEGBOARD_CONFIG", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("config_language", "header", "spoken"),
    [
        pytest.param("de", "", Language.GERMAN, id="header-without-language-keeps-the-config's"),
        pytest.param("en", "# language: de\n", Language.GERMAN, id="header-language-wins"),
        pytest.param("de", "# language: en\n", Language.ENGLISH, id="header-english-wins"),
    ],
)
def test_a_key_files_header_keeps_the_configs_language_unless_it_says_its_own(
    config_language: str, header: str, spoken: Language
) -> None:
    config = config_from_mapping({"game": {"language": config_language}})
    script = parse_script(header + HEADER, source="t.keys")
    played = config_for_script(config, script)
    assert played.game.language is spoken
    assert played.game.rules == config_from_mapping({}).game.rules


def test_a_header_language_that_is_not_one_is_refused() -> None:
    from pegboard.table.keyscript import KeyScriptError

    with pytest.raises(
        KeyScriptError, match=r"language must be one of en, de, got 'fr' \(e\.g\. 'de'\)"
    ):
        parse_script("# language: fr\n" + HEADER, source="t.keys")


def _oled(tmp_path: Path, name: str, *argv: str) -> bytes:
    """The OLED's last frame after the README's headless run with *argv* (around ``run``)."""
    out = tmp_path / name
    before = [a for a in argv if a.startswith("<")]
    after = [a for a in argv if not a.startswith("<")]
    run = ["run", "--simulate", "--headless", "--keys", str(KEYS), "--out", str(out)]
    assert main([a[1:] for a in before] + run + after) == 0
    return (out / "oled.png").read_bytes()


def test_the_config_language_and_lang_before_or_after_run_make_the_oled_german(
    tmp_path: Path,
) -> None:
    config = tmp_path / "de.toml"
    config.write_text('[game]\nlanguage = "de"\n')
    english = _oled(tmp_path, "en")
    german = _oled(tmp_path, "config", "--config", str(config))
    assert german != english
    assert _oled(tmp_path, "before", "<--lang", "<de") == german
    assert _oled(tmp_path, "after", "--lang", "de") == german
    assert _oled(tmp_path, "over-config", "--config", str(config), "--lang", "en") == english


def test_lang_wins_over_a_key_files_language_header(tmp_path: Path) -> None:
    keys = tmp_path / "de.keys"
    keys.write_text("# language: de\n" + KEYS.read_text())
    out = tmp_path / "out"
    argv = ["run", "--simulate", "--headless", "--keys", str(keys), "--out", str(out)]
    assert main([*argv, "--lang", "en"]) == 0
    assert (out / "oled.png").read_bytes() == _oled(tmp_path, "en")
