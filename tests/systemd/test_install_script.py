"""systemd/install.sh: shellcheck-clean, refuses root, and its dry run shows every step, in order."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from pi_install import APP_UNIT, INSTALL_SH, MIRROR_UNIT, require_tool

UNIT_DIR = "/etc/systemd/system"


def run_script(
    prefix: list[str], *args: str, env: dict[str, str], script: Path = INSTALL_SH
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*prefix, "bash", str(script), *args],
        env=env,
        cwd="/",
        capture_output=True,
        text=True,
        timeout=60,
    )


def steps(stdout: str) -> list[str]:
    return [line[4:] for line in stdout.splitlines() if line.startswith("==> ")]


def would_run(stdout: str) -> list[list[str]]:
    """The commands a dry run announces, each split back into its arguments."""
    marker = "    would run: "
    return [shlex.split(line[len(marker):]) for line in stdout.splitlines() if line.startswith(marker)]


def position(commands: list[list[str]], wanted: list[str]) -> int:
    """Where the command starting with `wanted` comes among `commands`."""
    for index, command in enumerate(commands):
        if command[: len(wanted)] == wanted:
            return index
    raise AssertionError(f"{wanted} is not among the commands: {commands}")


def test_install_script_passes_shellcheck() -> None:
    shellcheck = require_tool("shellcheck", "shellcheck")
    done = subprocess.run([shellcheck, str(INSTALL_SH)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_refuses_to_run_as_root(as_root: list[str], install_env: dict[str, str]) -> None:
    done = run_script(as_root, "--dry-run", env=install_env)
    assert done.returncode == 1
    assert "refusing to run as root" in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("args", [["--display", "wayland"], ["--frobnicate"], ["render"], ["--user", "pi"]])
def test_bad_arguments_exit_2_with_the_reason(args: list[str], install_env: dict[str, str]) -> None:
    done = run_script([], *args, env=install_env)
    assert done.returncode == 2
    assert done.stderr.startswith("install.sh: ")
    assert "--help" in done.stderr


def test_dry_run_shows_every_install_step_in_order_and_changes_nothing(
    as_plain_user: list[str],
    plain_user_script: Path,
    install_env: dict[str, str],
    shared_dir: Path,
) -> None:
    done = run_script(
        as_plain_user, "--dry-run", "--display", "kms", env=install_env, script=plain_user_script
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Dry run: nothing will be changed.")
    venv = install_env["DREAMTABLE_VENV"]
    config = f"{install_env['XDG_CONFIG_HOME']}/dreamtable/config.toml"
    games = f"{install_env['XDG_DATA_HOME']}/dreamtable/games.sqlite3"
    titles = steps(out)
    order = [
        "Checking the system",
        "Debian packages:",
        "Groups for the display, touch and GPIO:",
        f"Virtual environment {venv}",
        "Dreamtable into the virtual environment:",
        f"Config {config}",
        f"Game database {games}",
        f"systemd units in {UNIT_DIR}; {APP_UNIT} starts at boot",
        "Screen blanking off",
        "Done",
    ]
    found = [next(i for i, title in enumerate(titles) if title.startswith(start)) for start in order]
    assert found == sorted(found), titles
    packages = next(t for t in titles if t.startswith("Debian packages:")).split(":")[1].split()
    for needed in ("python3-venv", "python3-picamera2", "python3-lgpio", "libegl1", "libgles2"):
        assert needed in packages

    commands = would_run(out)
    make_venv = position(commands, ["python3", "-m", "venv", "--system-site-packages", venv])
    pip = position(commands, [f"{venv}/bin/python", "-m", "pip", "install", "--upgrade", "--constraint"])
    # The checkout itself, with the "pi" extra, built from a scratch copy of it.
    checkout = plain_user_script.parent.parent
    assert f"==> Dreamtable into the virtual environment: {checkout}[pi]" in out
    assert f"    building from a copy of {checkout}" in out
    assert commands[pip][-1].endswith("/src[pi]")
    install_app = position(commands, ["sudo", "install", "-m", "0644"])
    assert commands[install_app][-1] == f"{UNIT_DIR}/{APP_UNIT}"
    assert any(c[:3] == ["sudo", "install", "-m"] and c[-1] == f"{UNIT_DIR}/{MIRROR_UNIT}" for c in commands)
    reload = position(commands, ["sudo", "systemctl", "daemon-reload"])
    enable = position(commands, ["sudo", "systemctl", "enable", APP_UNIT])
    assert make_venv < pip < install_app < reload < enable
    assert "would write the default config (companion.config.DEFAULT_CONFIG_TEXT) there" in out
    # A dry run executes nothing and leaves no trace.
    assert "    $ " not in out
    assert sorted(os.listdir(shared_dir)) == []


def test_dry_run_headless_enables_the_mirror_and_leaves_the_screen_alone(
    as_plain_user: list[str], plain_user_script: Path, install_env: dict[str, str]
) -> None:
    done = run_script(
        as_plain_user, "--dry-run", "--headless", env=install_env, script=plain_user_script
    )
    assert done.returncode == 0, done.stderr
    commands = would_run(done.stdout)
    position(commands, ["sudo", "systemctl", "enable", MIRROR_UNIT])
    position(commands, ["sudo", "systemctl", "restart", MIRROR_UNIT])
    assert ["sudo", "systemctl", "enable", APP_UNIT] not in commands
    titles = steps(done.stdout)
    assert "Screen blanking off" not in titles
    packages = next(t for t in titles if t.startswith("Debian packages:")).split(":")[1].split()
    assert "python3-picamera2" in packages
    assert "libegl1" not in packages


def test_dry_run_on_a_desktop_leaves_the_kernel_command_line_alone(
    as_plain_user: list[str], plain_user_script: Path, install_env: dict[str, str]
) -> None:
    done = run_script(
        as_plain_user, "--dry-run", "--display", "desktop", env=install_env, script=plain_user_script
    )
    assert done.returncode == 0, done.stderr
    assert "display: desktop" in done.stdout
    assert "Desktop Autologin" in done.stdout
    assert "consoleblank" not in done.stdout
    position(would_run(done.stdout), ["sudo", "systemctl", "enable", APP_UNIT])


def test_reinstall_keeps_the_config_and_every_game(
    as_plain_user: list[str],
    plain_user_script: Path,
    install_env: dict[str, str],
    shared_dir: Path,
) -> None:
    config = shared_dir / "config" / "dreamtable" / "config.toml"
    games = shared_dir / "data" / "dreamtable" / "games.sqlite3"
    for path in (config, games):
        path.parent.mkdir(parents=True)
        path.parent.chmod(0o755)
    config.write_text('[app]\nfullscreen = true\n')
    games.write_bytes(b"a journal of finished games")
    for path in (config, games, shared_dir / "config", shared_dir / "data"):
        path.chmod(0o755 if path.is_dir() else 0o644)

    done = run_script(as_plain_user, "--dry-run", env=install_env, script=plain_user_script)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    after_config = lines[lines.index(f"==> Config {config}") + 1]
    after_games = lines[lines.index(f"==> Game database {games}") + 1]
    assert after_config == "    kept as it is"
    assert after_games.startswith("    kept as it is")
    for command in would_run(done.stdout):
        assert not any(str(config) in arg or str(games.parent) in arg for arg in command), command

    done = run_script(
        as_plain_user, "--dry-run", "uninstall", env=install_env, script=plain_user_script
    )
    assert done.returncode == 0, done.stderr
    for command in would_run(done.stdout):
        assert not any(str(config) in arg or str(games.parent) in arg for arg in command), command
    assert f"    games: {games} (every game played; delete it yourself to forget them)" in done.stdout
    assert config.read_text() == '[app]\nfullscreen = true\n'
    assert games.read_bytes() == b"a journal of finished games"


def test_uninstall_removes_only_the_virtual_environment_it_made(
    as_plain_user: list[str],
    plain_user_script: Path,
    install_env: dict[str, str],
    shared_dir: Path,
) -> None:
    venv = shared_dir / "venv"
    venv.mkdir(mode=0o755)
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
    (venv / "pyvenv.cfg").chmod(0o644)
    done = run_script(
        as_plain_user, "--dry-run", "uninstall", env=install_env, script=plain_user_script
    )
    assert done.returncode == 0, done.stderr
    assert ["rm", "-rf", str(venv)] in would_run(done.stdout)

    (venv / "pyvenv.cfg").unlink()  # not a virtual environment: some other folder of that name
    done = run_script(
        as_plain_user, "--dry-run", "uninstall", env=install_env, script=plain_user_script
    )
    assert done.returncode == 0, done.stderr
    assert not any(command[:2] == ["rm", "-rf"] for command in would_run(done.stdout))
