#!/usr/bin/env bash
# Install pegboard as a systemd service on Raspberry Pi OS Bookworm (64-bit).
#
#   sudo systemd/install.sh                 # install or update, enable the service
#   sudo systemd/install.sh --web           # ... and let the pub page be reached on the LAN
#   systemd/install.sh --dry-run            # print what it would do, change nothing
#
# What it does, each step skipped when already done (so it is safe to run again):
#   1. apt packages: python3-venv, python3-dev, python3-lgpio (gpiozero's backend on Bookworm),
#      espeak-ng and alsa-utils (the spoken calls, [sound]: eSpeak NG into aplay)
#   2. I2C and SPI on (raspi-config nonint, or dtparam lines in /boot/firmware/config.txt),
#      I2C at 400 kHz (dtparam=i2c_arm_baudrate=400000), i2c-dev loaded at boot; when the
#      config in use (the one in /etc/pegboard, else the example) drives WS2812 over SPI, the
#      clock pinned: core_freq=250 on a Pi Zero/1/2/3 (the default example's), core_freq_min=500
#      on a Pi 4; with --i2s-amp the MAX98357A amplifier's overlay (dtoverlay=max98357a,no-sdmode)
#   3. groups gpio, i2c, spi, input, audio and a system user "pegboard" in them
#   4. a venv in /opt/pegboard/venv with pegboard and its Pi extras (with --league also the
#      league extra, paho-mqtt), and the pegboard command on PATH: /usr/local/bin/pegboard, a
#      link to the venv's (so `sudo pegboard selftest` works)
#   5. /etc/pegboard/config.toml from an example (never overwritten once there)
#   6. /etc/systemd/system/pegboard.service, daemon-reload, enable (and restart with --start);
#      with --web and --league, their drop-ins in /etc/systemd/system/pegboard.service.d/ (the
#      unit keeps the daemon off the network; [web] and [league] each need theirs). A drop-in
#      not asked for is never installed, and one already there is kept (and said so).
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/pegboard
SERVICE_USER=pegboard
CONFIG_DIR=/etc/pegboard
UNIT_DIR=/etc/systemd/system
BIN_DIR=/usr/local/bin
BOOT_CONFIG=""
MODEL_FILE=/proc/device-tree/model
EXAMPLE="$SRC/hardware/pi-zero-2w-ssd1306-ws2812.toml"
EXTRAS="pi"
DRY_RUN=0
START=0
SPI_WS2812=0
I2S_AMP=0
WEB=0
LEAGUE=0
REBOOT_NEEDED=0

usage() {
    cat <<USAGE
usage: install.sh [--dry-run] [--start] [--web] [--league] [--example zero|pi5|FILE]
                  [--spi-ws2812] [--i2s-amp] [--prefix DIR] [--bin-dir DIR] [--user NAME]
                  [--extras LIST] [--boot-config FILE] [--unit-dir DIR]
                  [--config-dir DIR] [--model-file FILE]

  --dry-run        print every step and change nothing (no root needed)
  --start          (re)start the service now instead of at the next boot
  --web            install the drop-in for [web] enabled = true (systemd/pegboard-web.conf):
                   the pub page on this machine's LAN (private addresses) only
  --league         install the drop-in for [league] (systemd/pegboard-league-board.conf),
                   and the league extra (paho-mqtt) with the others in --extras;
                   edit its IPAddressAllow= to the hub's address afterwards
  --example        the config copied to $CONFIG_DIR/config.toml when there is none yet:
                   zero (Pi Zero 2 W + SSD1306 + WS2812, the default), zero-amp (the same
                   with a MAX98357A amplifier: its pin map), pi5 (Pi 5 + SH1106 + APA102)
                   or a file of your own
  --spi-ws2812     fix the core clock (core_freq=250) whatever the config and the model say
                   (without it: when the config drives WS2812 over SPI, by the Pi's model)
  --i2s-amp        a MAX98357A I2S amplifier on GPIO 18, 19, 21: its overlay in config.txt
  --prefix DIR     where the venv goes (default $PREFIX)
  --bin-dir DIR    where the pegboard command is linked, on PATH (default $BIN_DIR)
  --user NAME      the service user (default $SERVICE_USER)
  --extras LIST    pip extras to install (default "$EXTRAS"; "hw" skips the LED libraries)
  --boot-config F  the firmware config file (default /boot/firmware/config.txt)
  --unit-dir DIR   where the unit and its drop-ins go (default $UNIT_DIR)
  --config-dir DIR where config.toml goes (default $CONFIG_DIR)
  --model-file F   where the Pi's model is read (default $MODEL_FILE)
USAGE
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --start) START=1 ;;
        --spi-ws2812) SPI_WS2812=1 ;;
        --i2s-amp) I2S_AMP=1 ;;
        --web) WEB=1 ;;
        --league) LEAGUE=1 ;;
        --example)
            case "${2:?--example needs a value}" in
                zero) EXAMPLE="$SRC/hardware/pi-zero-2w-ssd1306-ws2812.toml" ;;
                zero-amp) EXAMPLE="$SRC/hardware/pi-zero-2w-ssd1306-ws2812-max98357a.toml" ;;
                pi5) EXAMPLE="$SRC/hardware/pi5-sh1106-apa102.toml" ;;
                *) EXAMPLE="$2" ;;
            esac
            shift ;;
        --prefix) PREFIX="${2:?--prefix needs a directory}"; shift ;;
        --bin-dir) BIN_DIR="${2:?--bin-dir needs a directory}"; shift ;;
        --user) SERVICE_USER="${2:?--user needs a name}"; shift ;;
        --extras) EXTRAS="${2:?--extras needs a list}"; shift ;;
        --boot-config) BOOT_CONFIG="${2:?--boot-config needs a file}"; shift ;;
        --unit-dir) UNIT_DIR="${2:?--unit-dir needs a directory}"; shift ;;
        --config-dir) CONFIG_DIR="${2:?--config-dir needs a directory}"; shift ;;
        --model-file) MODEL_FILE="${2:?--model-file needs a file}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

# the board's league publisher needs paho-mqtt, which only the league extra holds
if [ "$LEAGUE" = 1 ]; then
    case ",$EXTRAS," in
        *,league,*) ;;
        *) EXTRAS="$EXTRAS,league" ;;
    esac
fi

if [ -z "$BOOT_CONFIG" ]; then
    # Bookworm moved the firmware config; older releases kept it in /boot
    if [ -e /boot/firmware/config.txt ] || [ ! -e /boot/config.txt ]; then
        BOOT_CONFIG=/boot/firmware/config.txt
    else
        BOOT_CONFIG=/boot/config.txt
    fi
fi

say() { printf '==> %s\n' "$*"; }

# run a command, or only print it in a dry run
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf 'would run: %s\n' "$*"
    else
        "$@"
    fi
}

# append a line to a file unless the exact line is already there
ensure_line() {
    local file="$1" line="$2"
    if [ -f "$file" ] && grep -qxF -- "$line" "$file"; then
        printf 'ok: %s already has %s\n' "$file" "$line"
        return 0
    fi
    REBOOT_NEEDED=1
    if [ "$DRY_RUN" = 1 ]; then
        printf 'would append to %s: %s\n' "$file" "$line"
    else
        printf '%s\n' "$line" >> "$file"
        printf 'appended to %s: %s\n' "$file" "$line"
    fi
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo), or with --dry-run to see what it would do" >&2
    exit 1
fi
if [ ! -f "$EXAMPLE" ]; then
    echo "install.sh: no such example config: $EXAMPLE" >&2
    exit 1
fi

say "1/6 packages"
missing=()
for pkg in python3-venv python3-dev python3-lgpio espeak-ng alsa-utils; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    run apt-get update
    run apt-get install -y "${missing[@]}"
else
    echo "ok: packages already installed"
fi

say "2/6 I2C and SPI"
if command -v raspi-config >/dev/null 2>&1; then
    # raspi-config's nonint mode: 0 means "enable"; get_* prints 0 when already enabled
    if [ "$(raspi-config nonint get_i2c 2>/dev/null || echo 1)" != 0 ]; then
        run raspi-config nonint do_i2c 0
        REBOOT_NEEDED=1
    else
        echo "ok: I2C already enabled"
    fi
    if [ "$(raspi-config nonint get_spi 2>/dev/null || echo 1)" != 0 ]; then
        run raspi-config nonint do_spi 0
        REBOOT_NEEDED=1
    else
        echo "ok: SPI already enabled"
    fi
else
    ensure_line "$BOOT_CONFIG" "dtparam=i2c_arm=on"
    ensure_line "$BOOT_CONFIG" "dtparam=spi=on"
    ensure_line /etc/modules-load.d/pegboard.conf "i2c-dev"
fi
# 400 kHz I2C: a full SSD1306 frame in about 23 ms instead of 92 ms at the default 100 kHz
ensure_line "$BOOT_CONFIG" "dtparam=i2c_arm_baudrate=400000"
# WS2812 over SPI: the SPI clock follows the VPU clock, which the firmware scales with the
# load; pinned, the WS2812 timing holds (hardware/README.md): core_freq=250 on a Pi 0-3,
# core_freq_min=500 on a Pi 4; a Pi 5 needs nothing. Whenever the config in use drives a
# strip so, not only with --spi-ws2812.
CONFIG_IN_USE="$CONFIG_DIR/config.toml"
if [ ! -f "$CONFIG_IN_USE" ]; then
    CONFIG_IN_USE="$EXAMPLE"
fi
SPI_STRIP=0
if [ ! -r "$CONFIG_IN_USE" ]; then
    echo "note: cannot read $CONFIG_IN_USE (run as root) to tell whether it drives WS2812 over SPI"
elif grep -Eq "^[[:space:]]*kind[[:space:]]*=[[:space:]]*[\"']spi-ws2812[\"']" "$CONFIG_IN_USE"; then
    SPI_STRIP=1
fi
MODEL=""
if [ -r "$MODEL_FILE" ]; then
    MODEL="$(tr -d '\000' < "$MODEL_FILE")"
fi
case "$MODEL" in
    "Raspberry Pi Zero"* | "Raspberry Pi Model"* | "Raspberry Pi 2 "* | "Raspberry Pi 3 "* | \
    "Raspberry Pi Compute Module Rev"* | "Raspberry Pi Compute Module 3"*)
        CLOCK="core_freq=250" ;;
    "Raspberry Pi 4 "* | "Raspberry Pi 400 "* | "Raspberry Pi Compute Module 4"*)
        CLOCK="core_freq_min=500" ;;
    "Raspberry Pi 5 "* | "Raspberry Pi 500 "* | "Raspberry Pi Compute Module 5"*)
        CLOCK="none" ;;
    *) CLOCK="" ;;
esac
if [ "$SPI_WS2812" = 1 ]; then
    ensure_line "$BOOT_CONFIG" "core_freq=250"
elif [ "$SPI_STRIP" = 1 ] && [ "$CLOCK" = none ]; then
    echo "ok: WS2812 over SPI on a $MODEL needs no clock setting"
elif [ "$SPI_STRIP" = 1 ] && [ -n "$CLOCK" ]; then
    echo "WS2812 over SPI ($CONFIG_IN_USE) on a $MODEL: the clock is pinned ($CLOCK)"
    ensure_line "$BOOT_CONFIG" "$CLOCK"
elif [ "$SPI_STRIP" = 1 ]; then
    echo "note: $CONFIG_IN_USE drives WS2812 over SPI, and the Pi's model is unknown" \
        "(${MODEL:-no $MODEL_FILE}): a Pi 0-3 needs core_freq=250 in $BOOT_CONFIG, a Pi 4" \
        "core_freq_min=500 (install.sh --spi-ws2812 adds core_freq=250)"
fi
if [ "$I2S_AMP" = 1 ]; then
    # the MAX98357A on the PCM pins (GPIO18 BCLK, 19 LRCLK, 21 DIN); its SD pin is left to the
    # breakout's pull-up, so the overlay claims no GPIO for it (GPIO4 stays free)
    ensure_line "$BOOT_CONFIG" "dtoverlay=max98357a,no-sdmode"
fi

say "3/6 groups and user"
for group in gpio i2c spi input audio; do
    if getent group "$group" >/dev/null; then
        echo "ok: group $group exists"
    else
        run groupadd --system "$group"
    fi
done
if id "$SERVICE_USER" >/dev/null 2>&1; then
    echo "ok: user $SERVICE_USER exists"
else
    run useradd --system --user-group --home-dir /var/lib/pegboard --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod -a -G gpio,i2c,spi,input,audio "$SERVICE_USER"

say "4/6 venv in $PREFIX/venv, pegboard on PATH"
if [ -x "$PREFIX/venv/bin/python" ]; then
    echo "ok: venv exists"
else
    # system site packages: python3-lgpio comes from apt
    run python3 -m venv --system-site-packages "$PREFIX/venv"
fi
run "$PREFIX/venv/bin/pip" install --quiet --upgrade pip
run "$PREFIX/venv/bin/pip" install --quiet --upgrade "$SRC[$EXTRAS]"
if [ -f "$SRC/README.md" ]; then
    run install -m 0644 "$SRC/README.md" "$PREFIX/README.md"
fi
# the command on PATH: a link to the venv's entry point, so an upgrade needs nothing more
COMMAND="$PREFIX/venv/bin/pegboard"
LINK="$BIN_DIR/pegboard"
if [ -L "$LINK" ] && [ "$(readlink "$LINK")" = "$COMMAND" ]; then
    echo "ok: $LINK links to $COMMAND"
elif [ -e "$LINK" ] && [ ! -L "$LINK" ]; then
    echo "install.sh: $LINK is not a link; left as it is (the command is $COMMAND)" >&2
else
    if [ ! -d "$BIN_DIR" ]; then
        run install -d -m 0755 "$BIN_DIR"
    fi
    run ln -sfn "$COMMAND" "$LINK"
fi

say "5/6 config"
if [ -f "$CONFIG_DIR/config.toml" ]; then
    echo "ok: $CONFIG_DIR/config.toml exists (left as it is)"
else
    run install -d -m 0755 "$CONFIG_DIR"
    run install -m 0640 -o root -g "$SERVICE_USER" "$EXAMPLE" "$CONFIG_DIR/config.toml"
fi

say "6/6 service"
UNIT="$SRC/systemd/pegboard.service"
if [ "$SERVICE_USER" != pegboard ] || [ "$PREFIX" != /opt/pegboard ]; then
    if [ "$DRY_RUN" = 1 ]; then
        printf 'would write %s with User=%s and %s\n' "$UNIT_DIR/pegboard.service" \
            "$SERVICE_USER" "$PREFIX"
    else
        sed -e "s|^User=pegboard$|User=$SERVICE_USER|" -e "s|^Group=pegboard$|Group=$SERVICE_USER|" \
            -e "s|/opt/pegboard|$PREFIX|g" "$UNIT" > "$UNIT_DIR/pegboard.service"
        chmod 0644 "$UNIT_DIR/pegboard.service"
    fi
elif cmp -s "$UNIT" "$UNIT_DIR/pegboard.service"; then
    echo "ok: $UNIT_DIR/pegboard.service is up to date"
else
    run install -m 0644 "$UNIT" "$UNIT_DIR/pegboard.service"
fi
# the drop-ins that open the sandbox's network: only those asked for
DROPIN_DIR="$UNIT_DIR/pegboard.service.d"
dropin() {
    local wanted="$1" source="$SRC/systemd/$2" target="$DROPIN_DIR/$3" what="$4"
    if [ "$wanted" = 1 ]; then
        if cmp -s "$source" "$target"; then
            echo "ok: $target is up to date ($what)"
        else
            if [ ! -d "$DROPIN_DIR" ]; then
                run install -d -m 0755 "$DROPIN_DIR"
            fi
            run install -m 0644 "$source" "$target"
        fi
    elif [ -e "$target" ]; then
        echo "kept: $target ($what; remove it to keep the daemon off the network)"
    else
        echo "not installed: $target (for $what: install.sh $5)"
    fi
}
dropin "$WEB" pegboard-web.conf web.conf "the pub page, [web]" --web
dropin "$LEAGUE" pegboard-league-board.conf league.conf "the league, [league]" --league
if [ "$LEAGUE" = 1 ]; then
    echo "note: set IPAddressAllow= in $DROPIN_DIR/league.conf to your hub's address"
fi
run systemctl daemon-reload
run systemctl enable pegboard.service
if [ "$START" = 1 ]; then
    run systemctl restart pegboard.service
fi

if [ "$REBOOT_NEEDED" = 1 ]; then
    say "done; reboot once so the I2C/SPI (and sound) settings take effect (sudo reboot)"
else
    say "done; pegboard starts at boot (now: sudo systemctl start pegboard; logs: journalctl -u pegboard -f)"
fi
say "test the wiring: sudo pegboard selftest --config $CONFIG_DIR/config.toml (it stops the service for the test and starts it again)"
