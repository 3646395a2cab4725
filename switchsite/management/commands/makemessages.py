"""``makemessages`` with the project's settings (``make messages`` runs it).

- The rules library, pure Python, marks the strings people read with a no-op marker of its own
  (``N_``), translated where the service shows them: xgettext extracts it too.
- Each message says the files it comes from, not their lines, so that a line moved elsewhere in a
  file does not change the catalogue; messages no source uses any more are dropped.
- The catalogue's header says no date: each run would change it, and two people's runs clash.
- Only the service's sources are read: not the tests, benchmarks, examples, docs or scripts, nor
  the build, the collected static files or the client's node modules.
"""

import re
from pathlib import Path
from typing import Any

from django.core.management.commands import makemessages

IGNORED = [
    "tests",
    "benchmarks",
    "examples",
    "docs",
    "scripts",
    "build",
    "staticfiles",
    "node_modules",
    "*.egg-info",
]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]

    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*options["ignore_patterns"], *IGNORED]
        options["add_location"] = options["add_location"] or "file"
        options["no_obsolete"] = True
        super().handle(*args, **options)

    def write_po_file(self, potfile: str, locale: str) -> None:
        super().write_po_file(potfile, locale)
        catalogue = Path(potfile).parent / locale / "LC_MESSAGES" / f"{self.domain}.po"
        text = catalogue.read_text(encoding="utf-8")
        catalogue.write_text(re.sub(r'^"POT-Creation-Date: .*"\n', "", text, flags=re.M), "utf-8")
