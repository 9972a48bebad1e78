# Sourced after _venv.sh by scripts/dev and scripts/test: a stamp in the venv
# saying what its marketcurves was built from (this checkout, installed
# editable or as a wheel, and a hash of every input), so that a test run
# rebuilds only when something changed. The stamp also holds a hash of the
# installed package's RECORD: a package installed by anything else
# (scripts/quickstart, pip, the other mode) never passes for the one recorded.
stamp="$venv/marketcurves-built-from"

built_from() { # MODE (editable or wheel): the stamp's inputs, as they are now
    local inputs=(Cargo.lock Cargo.toml pyproject.toml src crates)
    # An editable install reads python/ where it is; a wheel holds a copy.
    [ "$1" = editable ] || inputs+=(python)
    echo "$repo_root $1 dev $(cd "$repo_root" && find "${inputs[@]}" -type f \
        ! -name '*.so' ! -name '*.pyc' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum |
        sha256sum | cut -c1-32)"
}

installed() { # a hash of the venv's marketcurves RECORD (of nothing if none)
    { cat "$venv"/lib/python3*/site-packages/marketcurves-*.dist-info/RECORD 2>/dev/null ||
        true; } | sha256sum | cut -c1-32
}

develop() { # installs this checkout editable, its compiled core built in place
    local inputs
    inputs="$(built_from editable)"
    # maturin also installs the `dev` group (its default), with pip quiet.
    PIP_QUIET=1 PIP_DISABLE_PIP_VERSION_CHECK=1 VIRTUAL_ENV="$venv" \
        "$venv/bin/maturin" develop --locked --profile dev --quiet "$@"
    echo "$inputs $(installed)" >"$stamp"
}
