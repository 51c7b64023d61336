#!/usr/bin/env bash
# Dreamtable on a Raspberry Pi: install (or update) the table companion, start it at boot as a
# kiosk, and remove it again. See docs/INSTALL.md for the whole story, from a blank SD card.
#
# Run it as the user who will sit at the table (not root): it asks sudo for the system steps.
# Every step looks before it acts, so running it again updates Dreamtable and changes nothing
# else. The config and the game database (the journal) are never touched by an update or an
# uninstall.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: systemd/install.sh [OPTIONS] [install]    install or update Dreamtable and its kiosk
       systemd/install.sh [OPTIONS] uninstall    remove the units and the virtual environment
       systemd/install.sh [OPTIONS] render UNIT  print a unit as it would be installed

Options:
  --dry-run          print every step and command, change nothing
  --headless         no screen: enable dreamtable-mirror.service (the phones' page) instead
                     of the touchscreen app
  --display MODE     kms: draw straight to the screen, no desktop (Raspberry Pi OS Lite)
                     desktop: a full-screen window on the running desktop
                     (default: desktop when the Pi boots to a desktop, else kms)
  --source SPEC      what pip installs (default: this checkout, with the "pi" extra)
  --user NAME        render only: the user the unit runs as (default: you; a user of
                     another machine is fine, with the usual /home/NAME)
  -h, --help         this help

Environment: DREAMTABLE_VENV (default ~/.local/lib/dreamtable-venv), XDG_CONFIG_HOME,
XDG_DATA_HOME (the config and the game database live under these, as for the app).
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$SCRIPT_DIR")
UNIT_DIR=/etc/systemd/system
APP_UNIT=dreamtable.service
MIRROR_UNIT=dreamtable-mirror.service
APP_GROUPS=(video render input gpio)

command=install
dry_run=0
headless=0
display=auto
source_spec=""
render_name=""
render_user=""

die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

usage_error() {
    printf 'install.sh: %s\n' "$*" >&2
    printf "Run 'systemd/install.sh --help' for the options.\n" >&2
    exit 2
}

while [ "$#" -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --headless) headless=1 ;;
        --display)
            [ "$#" -ge 2 ] || usage_error "--display needs kms or desktop"
            display=$2
            shift
            ;;
        --display=*) display=${1#--display=} ;;
        --source)
            [ "$#" -ge 2 ] || usage_error "--source needs a pip requirement or path"
            source_spec=$2
            shift
            ;;
        --source=*) source_spec=${1#--source=} ;;
        --user)
            [ "$#" -ge 2 ] || usage_error "--user needs a user name"
            render_user=$2
            shift
            ;;
        --user=*) render_user=${1#--user=} ;;
        -h | --help)
            usage
            exit 0
            ;;
        install | uninstall) command=$1 ;;
        render)
            command=render
            [ "$#" -ge 2 ] || usage_error "render needs a unit: $APP_UNIT or $MIRROR_UNIT"
            render_name=$2
            shift
            ;;
        *) usage_error "unknown argument '$1'" ;;
    esac
    shift
done

case "$display" in
    auto | kms | desktop) ;;
    *) usage_error "--display must be kms or desktop, not '$display'" ;;
esac
if [ -n "$render_user" ] && [ "$command" != render ]; then
    usage_error "--user is only for render: install as the user who will use the table"
fi

# --- who and where -------------------------------------------------------------------------

if [ "$command" = render ] && [ -n "$render_user" ]; then
    app_user=$render_user
else
    app_user=$(id -un)
fi
if [ "$app_user" = root ] || { [ "$command" != render ] && [ "$(id -u)" -eq 0 ]; }; then
    die "refusing to run as root: the table app must not run as root. Run this as the user who
will use the table (for example: pi), without sudo; it asks sudo for the system steps itself."
fi
passwd_entry=$(getent passwd "$app_user" || true)
if [ -n "$passwd_entry" ]; then
    app_home=$(printf '%s' "$passwd_entry" | cut -d: -f6)
    app_uid=$(printf '%s' "$passwd_entry" | cut -d: -f3)
elif [ "$command" = render ]; then
    # A preview for a Pi's user from another machine: assume the usual home.
    app_home=/home/$app_user
    app_uid=unknown
else
    die "no user '$app_user' on this system"
fi

config_home=${XDG_CONFIG_HOME:-$app_home/.config}
data_home=${XDG_DATA_HOME:-$app_home/.local/share}
venv=${DREAMTABLE_VENV:-$app_home/.local/lib/dreamtable-venv}
config_file=$config_home/dreamtable/config.toml
database_file=$data_home/dreamtable/games.sqlite3

# Unit files take these paths bare: keep to characters that need no quoting there.
for path in "$app_home" "$config_home" "$data_home" "$venv" "$REPO_DIR"; do
    case "$path" in
        /*) ;;
        *) die "'$path' must be an absolute path" ;;
    esac
    case "$path" in
        *[!A-Za-z0-9._/+-]*)
            die "'$path' has a space or a character systemd units would need quoted;" \
                "use a plain path (letters, digits, . _ / + -)"
            ;;
    esac
done

detect_display() {
    # A Pi that boots to a desktop has graphical.target as default and a display manager.
    if [ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ] &&
        [ -e /etc/systemd/system/display-manager.service ]; then
        echo desktop
    else
        echo kms
    fi
}
if [ "$display" = auto ]; then
    display=$(detect_display)
fi

# --- rendering the units ---------------------------------------------------------------------

existing_groups() {
    local group found=()
    for group in "${APP_GROUPS[@]}"; do
        if getent group "$group" >/dev/null; then
            found+=("$group")
        fi
    done
    printf '%s' "${found[*]}"
}

# Prints UNIT filled in for this user and display mode.
render_unit() {
    local name=$1 template="$SCRIPT_DIR/$1" keep drop groups
    [ -f "$template" ] || die "no unit template $template"
    if [ "$display" = desktop ]; then keep=DESKTOP drop=KMS; else keep=KMS drop=DESKTOP; fi
    # A group missing from this system would stop the unit from starting at all.
    groups=$(existing_groups)
    printf '# %s for %s (display: %s), written by systemd/install.sh from\n' "$name" "$app_user" "$display"
    printf '# %s. Re-run the script to update it; local changes: systemctl edit %s\n' "$template" "$name"
    sed -e '1,/^$/d' \
        -e "/^@${drop}@/d" \
        -e "s/^@${keep}@//" \
        -e "s/^SupplementaryGroups=.*/SupplementaryGroups=${groups}/" \
        -e "s|@USER@|${app_user}|g" \
        -e "s|@HOME@|${app_home}|g" \
        -e "s|@VENV@|${venv}|g" \
        -e "s|@CONFIG_HOME@|${config_home}|g" \
        -e "s|@DATA_HOME@|${data_home}|g" \
        -e "s|@DOCS@|${REPO_DIR}/docs|g" \
        "$template"
}

if [ "$command" = render ]; then
    case "$render_name" in
        "$APP_UNIT" | "$MIRROR_UNIT") ;;
        *) usage_error "render knows $APP_UNIT and $MIRROR_UNIT, not '$render_name'" ;;
    esac
    rendered=$(render_unit "$render_name")
    if printf '%s\n' "$rendered" | grep -q '@[A-Z_]*@'; then
        die "internal: a placeholder was left in $render_name"
    fi
    printf '%s\n' "$rendered"
    exit 0
fi

# --- doing things, or saying what would be done ------------------------------------------------

step() {
    printf '==> %s\n' "$*"
}

note() {
    printf '    %s\n' "$*"
}

warn() {
    printf '    warning: %s\n' "$*" >&2
}

# Runs a command, or with --dry-run prints it; either way the line shows what it is.
run() {
    local quoted
    quoted=$(printf '%q ' "$@")
    if [ "$dry_run" -eq 1 ]; then
        printf '    would run: %s\n' "${quoted% }"
    else
        printf '    $ %s\n' "${quoted% }"
        "$@"
    fi
}

# Root-only steps go through sudo.
as_root() {
    run sudo "$@"
}

tmp_dir=$(mktemp -d)
trap 'rm -rf "$tmp_dir"' EXIT

if [ "$dry_run" -eq 1 ]; then
    printf 'Dry run: nothing will be changed.\n'
elif ! command -v sudo >/dev/null; then
    die "sudo is needed for the system steps (apt, units, groups); install it or ask an admin"
fi

describe_machine() {
    local model="not a Raspberry Pi" os="unknown system"
    if [ -r /proc/device-tree/model ]; then
        model=$(tr -d '\0' </proc/device-tree/model)
    fi
    if [ -r /etc/os-release ]; then
        # shellcheck source=/dev/null
        os=$(. /etc/os-release && printf '%s' "${PRETTY_NAME:-$ID}")
    fi
    note "$model, $os; user $app_user (uid $app_uid); display: $display"
}

# --- install ---------------------------------------------------------------------------------

wanted_packages() {
    # The venv and pip; what pip cannot build on a Pi: the camera stack and the GPIO library.
    local packages=(python3-venv python3-pip python3-picamera2 python3-lgpio)
    if [ "$headless" -eq 0 ]; then
        # Kivy's SDL2 draws through EGL/GLES on KMS (libgl1-mesa-dri holds the Pi's GPU
        # driver) and reads touch through mtdev.
        packages+=(libegl1 libgles2 libgbm1 libdrm2 libgl1-mesa-dri libmtdev1)
    fi
    printf '%s\n' "${packages[@]}"
}

install_packages() {
    local package wanted absent=() available missing=() unknown=()
    mapfile -t wanted < <(wanted_packages)
    step "Debian packages: ${wanted[*]}"
    if ! command -v apt-get >/dev/null; then
        [ "$dry_run" -eq 1 ] || die "apt-get not found: this script is for Raspberry Pi OS (or Debian)"
        warn "apt-get not found: on a Pi these would be installed"
        return
    fi
    for package in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
            absent+=("$package")
        fi
    done
    if [ "${#absent[@]}" -gt 0 ]; then
        # One apt-cache call: which of them the apt sources offer at all.
        available=$(apt-cache policy "${absent[@]}" 2>/dev/null |
            awk '/^[^ ].*:$/ { name = substr($0, 1, length($0) - 1) }
                 /^  Candidate:/ && $2 != "(none)" { print name }')
        for package in "${absent[@]}"; do
            if printf '%s\n' "$available" | grep -qx "$package"; then
                missing+=("$package")
            else
                unknown+=("$package")
            fi
        done
    fi
    if [ "${#unknown[@]}" -gt 0 ]; then
        warn "not in this system's apt sources (not Raspberry Pi OS?), skipped: ${unknown[*]}"
    fi
    if [ "${#missing[@]}" -eq 0 ]; then
        note "nothing to install"
        return
    fi
    as_root apt-get update
    as_root apt-get install -y --no-install-recommends "${missing[@]}"
}

add_groups() {
    local group
    step "Groups for the display, touch and GPIO: ${APP_GROUPS[*]}"
    for group in "${APP_GROUPS[@]}"; do
        if ! getent group "$group" >/dev/null; then
            note "no group '$group' on this system: skipped (and left out of the unit)"
        elif id -nG "$app_user" | tr ' ' '\n' | grep -qx "$group"; then
            note "$app_user is in $group"
        else
            as_root usermod -aG "$group" "$app_user"
        fi
    done
}

make_venv() {
    step "Virtual environment $venv (with the system's packages: picamera2, lgpio)"
    if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        die "Dreamtable needs Python 3.11 or newer (Raspberry Pi OS Bookworm or later);" \
            "python3 here is $(python3 --version 2>&1 || echo missing)"
    fi
    if [ -x "$venv/bin/python" ] &&
        grep -qiE '^include-system-site-packages *= *true' "$venv/pyvenv.cfg" 2>/dev/null; then
        note "exists"
        return
    fi
    run mkdir -p "$(dirname "$venv")"
    # On an existing venv this only rewrites pyvenv.cfg, so the system packages become visible.
    run python3 -m venv --system-site-packages "$venv"
}

pip_install() {
    local spec=$source_spec constraints="$tmp_dir/constraints.txt" numpy_version
    if [ -z "$spec" ]; then
        [ -f "$REPO_DIR/pyproject.toml" ] ||
            die "no pyproject.toml in $REPO_DIR: give what to install with --source"
        spec="${REPO_DIR}[pi]"
    fi
    step "Dreamtable into the virtual environment: $spec"
    if [ -z "$source_spec" ]; then
        # pip builds in the source folder; build from a copy so the checkout may be read-only
        # and stays clean.
        note "building from a copy of $REPO_DIR"
        spec="$tmp_dir/src[pi]"
        if [ "$dry_run" -eq 0 ]; then
            mkdir "$tmp_dir/src"
            # Dot folders (.git, .venv, caches) and build leftovers are not part of the source.
            tar -C "$REPO_DIR" --exclude='./.*' --exclude=./build --exclude='*.egg-info' \
                --exclude=__pycache__ -cf - . | tar -C "$tmp_dir/src" -xf -
        fi
    fi
    : >"$constraints"
    # picamera2's compiled helpers are built against the system numpy; a newer numpy in the
    # venv (pulled in by a recent OpenCV) would break them. Hold numpy at the system's version.
    if numpy_version=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null); then
        printf 'numpy==%s\n' "$numpy_version" >"$constraints"
        note "numpy held at the system's $numpy_version"
    fi
    run "$venv/bin/python" -m pip install --upgrade --constraint "$constraints" "$spec"
}

write_config() {
    step "Config $config_file"
    if [ -e "$config_file" ]; then
        note "kept as it is"
        if [ "$dry_run" -eq 0 ] && ! "$venv/bin/companion" --config "$config_file" >/dev/null; then
            warn "the config above has an error: the app will not start until it is fixed"
        fi
    elif [ "$dry_run" -eq 1 ]; then
        note "would write the default config (companion.config.DEFAULT_CONFIG_TEXT) there"
    else
        note "writing the default config (companion.config.DEFAULT_CONFIG_TEXT)"
        "$venv/bin/python" - "$config_file" <<'PYTHON'
import pathlib, sys
from companion.config import DEFAULT_CONFIG_TEXT
path = pathlib.Path(sys.argv[1])
path.parent.mkdir(parents=True, exist_ok=True)
path.write_text(DEFAULT_CONFIG_TEXT, encoding="utf-8")
PYTHON
    fi
    step "Game database $database_file"
    if [ -e "$database_file" ]; then
        note "kept as it is: every game in it survives the update"
    else
        note "the app creates it when it first starts"
        run mkdir -p "$(dirname "$database_file")"
    fi
}

unit_changed=0

install_unit() {
    local name=$1 rendered="$tmp_dir/$1"
    render_unit "$name" >"$rendered"
    if cmp -s "$rendered" "$UNIT_DIR/$name"; then
        note "$UNIT_DIR/$name is up to date"
        return
    fi
    as_root install -m 0644 "$rendered" "$UNIT_DIR/$name"
    unit_changed=1
}

is_enabled() {
    systemctl is-enabled --quiet "$1" 2>/dev/null
}

install_units() {
    local chosen=$APP_UNIT other=$MIRROR_UNIT
    if [ "$headless" -eq 1 ]; then
        chosen=$MIRROR_UNIT
        other=$APP_UNIT
    fi
    step "systemd units in $UNIT_DIR; $chosen starts at boot"
    install_unit "$APP_UNIT"
    install_unit "$MIRROR_UNIT"
    if [ "$unit_changed" -eq 1 ]; then
        as_root systemctl daemon-reload
    fi
    if is_enabled "$other"; then
        as_root systemctl disable "$other"
    fi
    if is_enabled "$chosen"; then
        note "$chosen is enabled"
    else
        as_root systemctl enable "$chosen"
    fi
    if [ "$headless" -eq 1 ]; then
        as_root systemctl restart "$chosen"
    else
        # A running kiosk picks up the new code now; a stopped one waits for the reboot (starting
        # it from here would take the console from under a user typing on it).
        as_root systemctl try-restart "$chosen"
    fi
}

cmdline_file() {
    local path
    for path in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        if [ -f "$path" ]; then
            printf '%s' "$path"
            return
        fi
    done
}

disable_blanking() {
    local cmdline
    step "Screen blanking off"
    if command -v raspi-config >/dev/null; then
        # raspi-config's own switch covers the console and each desktop (X, Wayfire, labwc).
        as_root raspi-config nonint do_blanking 1
    else
        note "raspi-config not found (not Raspberry Pi OS?): desktop blanking left as it is"
    fi
    if [ "$display" = kms ]; then
        # The kernel blanks the console after 10 minutes unless told otherwise at boot.
        cmdline=$(cmdline_file)
        if [ -z "$cmdline" ]; then
            note "no cmdline.txt in /boot/firmware or /boot: console blanking left as it is"
        elif grep -qE '(^| )consoleblank=0( |$)' "$cmdline"; then
            note "$cmdline already has consoleblank=0"
        elif grep -qE '(^| )consoleblank=' "$cmdline"; then
            as_root sed -i -E '1 s/(^| )consoleblank=[0-9]+/\1consoleblank=0/' "$cmdline"
        else
            as_root sed -i '1 s/$/ consoleblank=0/' "$cmdline"
        fi
    fi
}

do_install() {
    step "Checking the system"
    describe_machine
    if [ "$dry_run" -eq 0 ]; then
        sudo -v || die "sudo refused: the system steps need it"
    fi
    install_packages
    add_groups
    make_venv
    pip_install
    write_config
    install_units
    if [ "$headless" -eq 0 ]; then
        disable_blanking
    fi
    step "Done"
    if [ "$headless" -eq 1 ]; then
        note "the mirror runs now and at every boot: systemctl status $MIRROR_UNIT"
    else
        if [ "$display" = desktop ]; then
            note "the app waits for the desktop: let it log in by itself (raspi-config:"
            note "System Options > Boot / Auto Login > Desktop Autologin)"
        fi
        note "reboot to start the table: sudo reboot   (or now: sudo systemctl start $APP_UNIT)"
    fi
    note "logs: journalctl -u dreamtable -u dreamtable-mirror -b"
    note "config: $config_file   games: $database_file"
}

# --- uninstall -------------------------------------------------------------------------------

do_uninstall() {
    local name removed=0
    step "systemd units"
    for name in "$APP_UNIT" "$MIRROR_UNIT"; do
        if [ -e "$UNIT_DIR/$name" ]; then
            as_root systemctl disable --now "$name"
            as_root rm -f "$UNIT_DIR/$name"
            removed=1
        else
            note "$UNIT_DIR/$name is not installed"
        fi
    done
    if [ "$removed" -eq 1 ]; then
        as_root systemctl daemon-reload
    fi
    step "Virtual environment $venv"
    if [ -f "$venv/pyvenv.cfg" ]; then
        run rm -rf "$venv"
    else
        note "not there"
    fi
    step "Kept"
    note "config: $config_file"
    note "games: $database_file (every game played; delete it yourself to forget them)"
    note "Debian packages, group memberships and the blanking setting stay as they are"
}

case "$command" in
    install) do_install ;;
    uninstall) do_uninstall ;;
esac
