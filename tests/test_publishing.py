"""Tasks are published by name (switchsite/tasks.py): a service names the task it publishes and
imports nothing of the tasks module, which imports the services."""

import subprocess
import sys

import pytest

from switchsite.tasks import publish_after_commit

# A process that has imported no tasks module, as a web process has not: the names are found.
FIND_BY_NAME = """
import sys
import django
django.setup()
from switchsite.tasks import registered_task
assert "games.tasks" not in sys.modules and "tournaments.tasks" not in sys.modules
for name in ("games.tasks.play_bot_turns", "tournaments.tasks.recompute_tournament"):
    assert registered_task(name).name == name
"""


def test_a_task_is_found_by_its_name_in_a_process_that_never_imported_it() -> None:
    found = subprocess.run(
        [sys.executable, "-c", FIND_BY_NAME],
        capture_output=True,
        text=True,
        env={"DJANGO_SETTINGS_MODULE": "tests.settings", "PATH": ""},
    )
    assert found.returncode == 0, found.stderr


@pytest.mark.django_db
def test_a_name_that_names_no_task_fails_its_caller_before_the_commit(
    django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(KeyError):
        publish_after_commit("games.tasks.play_bot_turn", 1)
    assert callbacks == []
