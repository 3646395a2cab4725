"""The commit-msg hook (scripts/git-hooks/commit-msg; docs/contributing.md, "Commits") takes a
message shaped `area: imperative summary` in at most 72 characters, with a blank line before any
body, and refuses any other with one line that says what is wrong."""

import subprocess
from pathlib import Path

import pytest

HOOK = Path(__file__).resolve().parents[1] / "scripts" / "git-hooks" / "commit-msg"


def hook(message: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "COMMIT_EDITMSG").write_text(message)
    return subprocess.run(
        [HOOK, tmp_path / "COMMIT_EDITMSG"], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    "message",
    [
        "games: publish the bot's turn by the task's name\n",
        "docs/api.md, games: say what a 409 means\n\nThe why, wrapped at 72.\n",
        "# git's own comment\nrules: rank by tallies\n",
        f"records: {'x' * 63}\n",  # 72 characters
        "Merge branch 'house'\n",
        'Revert "rules: rank by tallies"\n',
        "fixup! rules: rank by tallies\n",
    ],
)
def test_a_message_of_the_house_passes(message: str, tmp_path: Path) -> None:
    done = hook(message, tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("Publish the bot's turn by name\n", "does not start with its area"),
        (f"records: {'x' * 64}\n", "73 characters long"),
        (
            "records: réécrire les coups joués à la main, en français et accents compris\n",
            "75 characters",
        ),
        ("games: publish by name.\n", "ends with a full stop"),
        ("games: publish by name\nThe why, at once.\n", "no blank line"),
    ],
)
def test_any_other_message_is_refused_with_its_reason(
    message: str, reason: str, tmp_path: Path
) -> None:
    done = hook(message, tmp_path)
    assert done.returncode == 1
    assert reason in done.stderr.splitlines()[0]
