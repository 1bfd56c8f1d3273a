#!/usr/bin/env bash
# Makes sure a Chrome or Chromium is installed; installs Debian's chromium
# when running as root on a machine that has none.
set -euo pipefail

if [ -n "${CHROME_PATH:-}" ] && [ -x "$CHROME_PATH" ]; then exit 0; fi
for name in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$name" >/dev/null 2>&1 || [ -x "/usr/bin/$name" ] || [ -x "/snap/bin/$name" ]; then exit 0; fi
done
case "$(uname -s)" in
  Darwin)
    for app in "/Applications/Google Chrome.app" "/Applications/Chromium.app"; do
      [ -d "$app" ] && exit 0
    done ;;
esac

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "cdpskill: no Chrome found; installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
cat >&2 <<'MSG'
cdpskill: no Chrome or Chromium found.
Install one of them, for example:
  Debian/Ubuntu:  sudo apt-get install chromium
  macOS:          brew install --cask google-chrome
or set CHROME_PATH to the browser's executable, then run this again.
MSG
exit 1
