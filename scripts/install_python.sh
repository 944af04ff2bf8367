#!/usr/bin/env bash
# Makes Debian's /usr/bin/python3 find the odesens module built in build/:
# writes odesens.pth, naming build/python, into that interpreter's
# site-packages (/usr/local/lib/python3.X/dist-packages as root, the user's
# site-packages otherwise; ODESENS_PYTHON_SITE overrides). The module stays
# in the build tree, so a rebuild updates it and nothing goes stale; moving
# the checkout needs this script again (scripts/setup.sh runs it).
# Idempotent; does nothing when the module was not built.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${ODESENS_PYTHON:-/usr/bin/python3}
package_dir="$PWD/build/python"
if [ ! -f "$package_dir/odesens/__init__.py" ]; then
  echo "install_python: build/python/odesens is absent (cmake's output says why the module" \
       "was not built); skipped"
  exit 0
fi
if [ -n "${ODESENS_PYTHON_SITE:-}" ]; then
  site=$ODESENS_PYTHON_SITE
elif [ "$(id -u)" -eq 0 ]; then
  site=$("$python" -c 'import site; print(site.getsitepackages()[0])')
else
  site=$("$python" -m site --user-site)
fi
mkdir -p "$site"
if [ "$(cat "$site/odesens.pth" 2>/dev/null)" != "$package_dir" ]; then
  echo "$package_dir" >"$site/odesens.pth"
  echo "install_python: $site/odesens.pth -> $package_dir"
fi
# The check a user would make (from elsewhere, so that the checkout's own
# folders are not on the path).
if [ -z "${ODESENS_PYTHON_SITE:-}" ]; then
  (cd / && "$python" -c 'import odesens') ||
    { echo "install_python: $python cannot import odesens" >&2; exit 1; }
fi
