# Sourced by .ci/smoke-pythons and .ci/lowest-versions: where the CPythons are.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/_network.sh"

# Prints the path of a working CPython 3.$1 with the GIL (an abi3 wheel cannot
# load into a free-threaded one) and venv, or nothing. pyenv's shims answer
# to python3.N even when that version is not active, so each is run.
find_python() {
    local candidates=() candidate
    if command -v "python3.$1" >/dev/null; then
        candidates+=("$(command -v "python3.$1")")
    fi
    for candidate in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3."$1".*/bin/python3."$1"; do
        [ -x "$candidate" ] && candidates+=("$candidate")
    done
    for candidate in "${candidates[@]}"; do
        if "$candidate" -c '
import sys, sysconfig, venv
ok = sys.implementation.name == "cpython" and not sysconfig.get_config_var("Py_GIL_DISABLED")
sys.exit(0 if ok and sys.version_info[:2] == (3, '"$1"') else 1)' 2>/dev/null; then
            echo "$candidate"
            return
        fi
    done
}
