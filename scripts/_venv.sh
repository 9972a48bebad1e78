# Sourced by the other scripts: a virtualenv with the package's Python tools.
# MARKETCURVES_VENV chooses where it lives (default .venv in the checkout);
# CARGO_TARGET_DIR, as usual, where Rust builds go.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_network.sh"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${MARKETCURVES_VENV:-$repo_root/.venv}"

for tool in cargo python3; do
    command -v "$tool" >/dev/null || { echo "error: $tool is required" >&2; exit 1; }
done

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
python="$venv/bin/python"
retrying "$python" -m pip install --quiet --disable-pip-version-check --upgrade pip
