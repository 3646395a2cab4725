"""scripts/run_once.py runs a command once for each version of its inputs on a machine: again
when an input changes or the command failed, never when it passed on the same inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from scripts import run_once


def test_a_command_runs_again_only_when_an_input_changed_or_it_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source, runs = tmp_path / "source.py", tmp_path / "runs"
    source.write_text("one")
    count_a_run = f"open({str(runs)!r}, 'a').write('x')"
    command = ["checks", str(source), "--", sys.executable, "-c", count_a_run]

    assert run_once.main(command) == 0
    assert run_once.main(command) == 0
    assert runs.read_text() == "x"
    assert "checks: passed on these 1 inputs already on this machine" in capsys.readouterr().out

    source.write_text("two")
    assert run_once.main(command) == 0
    assert runs.read_text() == "xx"

    failing = ["failing", str(source), "--", sys.executable, "-c", "raise SystemExit(3)"]
    assert run_once.main(failing) == 3
    assert run_once.main(failing) == 3
    assert run_once.main(["no-command-given", str(source)]) == 2
