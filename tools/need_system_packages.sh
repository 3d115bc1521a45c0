#!/usr/bin/env bash
# The system packages that `make test` needs, installed from Debian's archive when missing.
#
#   tools/need_system_packages.sh COMMAND=PACKAGE ...    e.g. chromium=chromium
#
# Each COMMAND missing from PATH (and from /usr/sbin and /sbin, where daemons such as
# mosquitto live, outside a user's PATH) stands for its Debian PACKAGE; a COMMAND that is an
# absolute path is a file (a font) that the PACKAGE installs. As root, or with sudo that
# asks no password, the missing packages are installed with apt-get (apt-get update first
# when apt does not know one of them yet); nothing is downloaded from anywhere else.
# Otherwise it stops with one line saying what to install. NEED_SYSTEM_PACKAGES_NO_INSTALL=1
# only says it (a test of this script uses that).
set -euo pipefail

missing=()
for pair in "$@"; do
    command=${pair%%=*}
    package=${pair#*=}
    case $command in
        /*) [ -e "$command" ] || missing+=("$package") ;;  # a file, such as a font
        *) command -v "$command" >/dev/null 2>&1 || [ -x "/usr/sbin/$command" ] \
            || [ -x "/sbin/$command" ] || missing+=("$package") ;;
    esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

say() {  # the one line, on stderr
    echo "make test: needs Debian's ${missing[*]}: sudo apt-get install ${missing[*]}" >&2
    exit 1
}

[ "${NEED_SYSTEM_PACKAGES_NO_INSTALL:-0}" = 1 ] && say
command -v apt-get >/dev/null 2>&1 || say
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    say
fi

echo "make test: installing Debian's ${missing[*]} (apt-get install -y ${missing[*]})" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
    "${as_root[@]}" apt-get update -q
fi
"${as_root[@]}" apt-get install -y -q "${missing[@]}"
