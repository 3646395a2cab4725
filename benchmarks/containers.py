"""The container drill: compose.yaml built and run with podman, and a match played through it.

    python -m benchmarks.containers [--fresh] [--keep]

What an operator does with podman ("One command: the containers" in docs/operations.md), on a
machine that reaches no image registry, as this one, in six steps, each timed:

1. **The base image**, unless podman has it: ``FROM debian:bookworm-slim`` is made here by
   ``debootstrap --variant=minbase`` of Debian 12 from Debian's archive, with the machine's own
   extra CA certificates (those ``update-ca-certificates`` adds, from
   /usr/local/share/ca-certificates) so that apt and pip inside the builds trust what the machine
   trusts, imported with ``podman import`` under that name.
2. **Build**: ``podman-compose build`` in a copy of the files git knows, as a fresh clone has them
   (nothing built, no .env), with an .env of new secrets and the plain-HTTP switches.
3. **Up**: ``podman-compose up -d``, then until the migrations have run and every service is
   healthy. podman runs health checks from systemd timers, which this machine lacks: the drill
   runs them itself (``podman healthcheck run``) every 2 s.
4. **A match**: examples/bot.py plays a heads-up match against a random server bot through the
   published port — its moves through web, the bot's by the worker, its turns by its feed's stream.
5. **The named volume**: ``down`` and ``up`` again; the match is read back as it ended.
6. ``down``, the volume removed (``--keep``: all left running).

podman itself runs with the drill's own containers.conf (``CONTAINERS_CONF``): the runtime ``runc``
and ``default_ulimits`` of 16,384 — podman asks by default for more open files and processes than
this machine's hard limits grant. That is the drill's business, not an operator's. ``--fresh``
removes the drill's images first (the base too), to time a build from nothing. Needs root and
Debian's podman, podman-compose, runc, debootstrap and iptables. The figures in
docs/operations.md come from this script.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import shape

ROOT = Path(__file__).resolve().parents[1]
BASE = "debian:bookworm-slim"
IMAGES = (
    "localhost/switch-service:latest",
    "localhost/switch-postgresql:15",
    "localhost/switch-redis:7",
)
PROJECT = "switchdrill"
ULIMIT = 16384
CONTAINERS_CONF = f"""\
[containers]
default_ulimits = ["nofile={ULIMIT}:{ULIMIT}", "nproc={ULIMIT}:{ULIMIT}"]

[engine]
runtime = "runc"
"""
SLIM_FOLDERS = ("usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale")
SLIM = "".join(f"path-exclude /{folder}/*\n" for folder in SLIM_FOLDERS)
SLIM += "path-include /usr/share/doc/*/copyright\n"
LOCAL_CERTIFICATES = Path("/usr/local/share/ca-certificates")
NEEDED = ("podman", "podman-compose", "runc", "debootstrap", "iptables")
HEALTHY_SECONDS = 600
MATCH_SECONDS = 600


class Drill:
    """The drill's directory (the tree's copy, logs, containers.conf) and podman's environment."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.tree = directory / "tree"
        self.log = directory / "commands.log"
        conf = directory / "containers.conf"
        conf.write_text(CONTAINERS_CONF)
        self.env = {**os.environ, "CONTAINERS_CONF": str(conf)}

    def run(
        self, command: Sequence[str], seconds: float = 900, cwd: Path | None = None, **options: Any
    ) -> str:
        """``command``'s output; its failure stops the drill with the end of what it said."""
        with self.log.open("a") as log:
            log.write(f"$ {' '.join(command)}\n")
        done = subprocess.run(
            command,
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=seconds,
            **options,
        )
        with self.log.open("a") as log:
            log.write(done.stdout + done.stderr)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
            sys.exit(f"{' '.join(command[:3])} … failed ({done.returncode}):\n{tail}")
        return done.stdout

    def compose(self, *arguments: str, seconds: float = 900) -> str:
        return self.run(["podman-compose", "-p", PROJECT, *arguments], seconds, cwd=self.tree)

    def has_image(self, name: str) -> bool:
        return subprocess.run(["podman", "image", "exists", name], env=self.env).returncode == 0

    def make_base(self) -> None:
        """Debian 12 from its archive, with this machine's extra certificates, as ``BASE``."""
        rootfs = self.directory / "rootfs"
        command = ["debootstrap", "--variant=minbase", "--include=ca-certificates", "bookworm"]
        self.run([*command, str(rootfs)])
        # The suites of Debian's own image: the release, its updates and its security updates.
        sources = rootfs / "etc" / "apt" / "sources.list"
        mirror = sources.read_text().split()[1]
        suites = (
            f"{mirror} bookworm",
            f"{mirror} bookworm-updates",
            f"{mirror}-security bookworm-security",
        )
        sources.write_text("".join(f"deb {suite} main\n" for suite in suites))
        for certificate in LOCAL_CERTIFICATES.glob("*.crt"):
            shutil.copy(certificate, rootfs / "usr" / "local" / "share" / "ca-certificates")
        self.run(["chroot", str(rootfs), "update-ca-certificates"])
        # Slim as Debian's own: no package cache, and no documentation, manual or translation of
        # the programs, now or in what the images install later (dpkg's excludes).
        (rootfs / "etc" / "dpkg" / "dpkg.cfg.d" / "slim").write_text(SLIM)
        for folder in ("var/lib/apt/lists", "var/cache/apt", *SLIM_FOLDERS):
            for path in (rootfs / folder).rglob("*"):
                if path.is_file() and path.name != "copyright":
                    path.unlink()
        with subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE) as tar:
            self.run(["podman", "import", "-", BASE], stdin=tar.stdout)
        shutil.rmtree(rootfs)

    def copy_tree(self, port: int) -> None:
        """The files git knows as they are in the work tree (a clone with this change), and an .env."""
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        for name in listed.stdout.decode().split("\0"):
            source = ROOT / name
            if name and source.is_file():
                target = self.tree / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        settings = {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "POSTGRES_PASSWORD": secrets.token_urlsafe(24),
            "ALLOWED_HOSTS": "localhost,127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_HSTS_SECONDS": "0",
            "SECURE_COOKIES": "false",
            "WEB_CONCURRENCY": "2",
            "SWITCH_PORT": str(port),
        }
        (self.tree / ".env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()))

    def containers(self) -> list[dict[str, Any]]:
        listed = self.run(
            [
                "podman",
                "ps",
                "--all",
                "--format",
                "json",
                "--filter",
                f"label=io.podman.compose.project={PROJECT}",
            ]
        )
        found: list[dict[str, Any]] = json.loads(listed or "[]")
        return found

    def wait_until_healthy(self) -> dict[str, float]:
        """Seconds until each service was healthy (``migrate``: had exited 0), from now."""
        start = time.monotonic()
        ready: dict[str, float] = {}
        while time.monotonic() - start < HEALTHY_SECONDS:
            running = self.containers()
            for container in running:
                service = container["Labels"]["com.docker.compose.service"]
                if service in ready:
                    continue
                if service == "migrate":
                    if container["State"] == "exited":
                        if container["ExitCode"] != 0:
                            sys.exit(f"the migrations failed: podman logs {container['Names'][0]}")
                        ready[service] = time.monotonic() - start
                    continue
                check = ["podman", "healthcheck", "run", container["Names"][0]]
                if subprocess.run(check, env=self.env, capture_output=True).returncode == 0:
                    ready[service] = time.monotonic() - start
            if running and len(ready) == len(running):
                return ready
            time.sleep(2)
        sys.exit(f"not healthy within {HEALTHY_SECONDS} s: only {sorted(ready)}")

    def remove_images(self) -> None:
        for image in (*IMAGES, BASE):
            subprocess.run(["podman", "rmi", "--force", image], env=self.env, capture_output=True)
        self.run(["podman", "image", "prune", "--force"])


def api(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **(shape.auth(token) if token else {})},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def play(port: int, username: str, password: str) -> tuple[int, int]:
    """examples/bot.py's match against a random bot, played by the bot kit (switch-bot, installed
    by make): (the match's id, the moves the bot posted)."""
    command = [
        str(Path(sys.executable).with_name("switch-bot")),
        "run",
        str(ROOT / "examples" / "bot.py"),
    ]
    command += ["--server", f"http://127.0.0.1:{port}", "--username", username, "--matches", "1"]
    command += ["--create", "switch", "--opponents", "random"]
    env = {**os.environ, "SWITCH_PASSWORD": password}
    done = subprocess.run(command, capture_output=True, text=True, timeout=MATCH_SECONDS, env=env)
    if done.returncode != 0 or " ended: " not in done.stdout:
        said = (done.stdout + done.stderr)[-3000:]
        sys.exit(f"the match was not played to its end (exit status {done.returncode}):\n{said}")
    created = re.search(r"^created match (\d+)", done.stdout, re.MULTILINE)
    assert created is not None, done.stdout[:500]
    moves = len(re.findall(r"^match \d+ v\d+: (?!.*trying again)", done.stdout, re.MULTILINE))
    return int(created.group(1)), moves


def the_match(port: int, username: str, password: str, match: int) -> dict[str, Any]:
    token = api(port, "POST", "/auth/token/", {"username": username, "password": password})["token"]
    view: dict[str, Any] = api(port, "GET", f"/matches/{match}/", token=token)
    return view


def timings(ready: dict[str, float]) -> str:
    return ", ".join(
        f"{service} {seconds:.0f} s"
        for service, seconds in sorted(ready.items(), key=lambda i: i[1])
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--fresh", action="store_true", help="remove the drill's images first, the base too"
    )
    parser.add_argument("--keep", action="store_true", help="leave the service running at the end")
    args = parser.parse_args(argv)
    missing = [program for program in NEEDED if shutil.which(program) is None]
    if missing:
        sys.exit(f"the drill needs {', '.join(missing)}: apt-get install {' '.join(missing)}")
    drill = Drill(Path(tempfile.mkdtemp(prefix="switch-containers-")))
    print(f"the drill's directory: {drill.directory} (commands and their output: {drill.log.name})")
    if args.fresh:
        drill.remove_images()
    if drill.has_image(BASE):
        print(f"base image: {BASE} already made")
    else:
        start = time.monotonic()
        drill.make_base()
        print(f"base image: {BASE} made by debootstrap in {time.monotonic() - start:.0f} s")

    port = shape.free_port()
    drill.copy_tree(port)
    try:
        kept = drive(drill, port)
    except BaseException:
        if not args.keep:
            subprocess.run(
                ["podman-compose", "-p", PROJECT, "down", "-v"],
                cwd=drill.tree,
                env=drill.env,
                capture_output=True,
            )
        print(f"what the commands said: {drill.log}")
        raise
    if args.keep:
        print(
            f"left running: http://127.0.0.1:{port}/ — podman-compose -p {PROJECT} down -v in {drill.tree}"
        )
        return
    drill.compose("down", "-v")
    shutil.rmtree(drill.directory)
    if not kept:
        sys.exit("the named volume did not keep the match")


def drive(drill: Drill, port: int) -> bool:
    """Build, up, a match, down and up again: whether the match was kept."""
    start = time.monotonic()
    drill.compose("build", seconds=1800)
    sizes = [
        drill.run(["podman", "image", "inspect", "--format", "{{.Size}}", image])
        for image in IMAGES
    ]
    mib = ", ".join(
        f"{image} {int(size) / 2**20:.0f} MiB" for image, size in zip(IMAGES, sizes, strict=True)
    )
    print(f"build: {time.monotonic() - start:.0f} s ({mib})")

    start = time.monotonic()
    drill.compose("up", "-d")
    began = time.monotonic() - start
    ready = drill.wait_until_healthy()
    print(
        f"up: started in {began:.0f} s, all healthy {began + max(ready.values()):.0f} s after `up` ({timings(ready)})"
    )

    username, password = "drill", secrets.token_urlsafe(16)
    start = time.monotonic()
    match, moves = play(port, username, password)
    ended = the_match(port, username, password, match)
    print(
        f"match {match}: played to its end in {time.monotonic() - start:.0f} s through port {port}: "
        f"{moves} moves posted by the player, version {ended['version']}, status {ended['status']}"
    )

    start = time.monotonic()
    drill.compose("down")
    drill.compose("up", "-d")
    ready = drill.wait_until_healthy()
    again = the_match(port, username, password, match)
    kept = again["version"] == ended["version"] and again["status"] == ended["status"]
    print(
        f"down and up again: all healthy in {time.monotonic() - start:.0f} s ({timings(ready)}); "
        f"match {match} {'kept' if kept else 'NOT kept'} (version {again['version']}, {again['status']})"
    )
    return kept


if __name__ == "__main__":
    main()
