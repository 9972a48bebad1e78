#!/usr/bin/env bash
# Fuzzes each parser for a set time with cargo-fuzz (libFuzzer, nightly Rust)
# and prints, per target, how long it ran, how many inputs it tried, how big
# its corpus grew and what it found.
#
#   bash benches/fuzz.sh                  # every target, 60 s each
#   FUZZ_SECONDS=600 bash benches/fuzz.sh tenor timestamp
#
# FUZZ_SECONDS   time per target (default 60)
# FUZZ_SANITIZER address (default) or none (faster, finds only panics)
# FUZZ_TARGET_DIR where the nightly build goes (default fuzz/target)
#
# The committed seeds (fuzz/corpus/<target>/) are only read; what the fuzzer
# adds goes to fuzz/generated/<target>/, crashes to fuzz/artifacts/<target>/,
# logs to fuzz/generated/<target>.log: all ignored by git. A crash input
# replays with `cargo +nightly fuzz run <target> <file>`. The same properties
# run on stable, in a few seconds, in `cargo test` (src/fuzzing_tests.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
sanitizer="${FUZZ_SANITIZER:-address}"
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/fuzz/target}"

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "error: cargo-fuzz needs a nightly toolchain, and none is installed." >&2
    echo "       Install one with: rustup toolchain install nightly" >&2
    echo "       (the same checks run on stable in \`cargo test\`: src/fuzzing_tests.rs)" >&2
    exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

echo "== building ${targets[*]} (release, sanitizer $sanitizer)"
build_started=$SECONDS
cargo +nightly fuzz build --sanitizer "$sanitizer"
echo "built in $((SECONDS - build_started)) s"

summary=()
failed=0
for target in "${targets[@]}"; do
    generated="fuzz/generated/$target"
    artifacts="fuzz/artifacts/$target"
    log="fuzz/generated/$target.log"
    mkdir -p "$generated" "$artifacts"
    corpora=("$generated")
    [ -d "fuzz/corpus/$target" ] && corpora+=("fuzz/corpus/$target")
    options=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1)
    [ -f "fuzz/dicts/$target.dict" ] && options+=(-dict="fuzz/dicts/$target.dict")
    before=$(find "$artifacts" -type f | wc -l)

    echo "== fuzzing $target for $seconds s (log: $log)"
    started=$SECONDS
    status=0
    cargo +nightly fuzz run --sanitizer "$sanitizer" "$target" "${corpora[@]}" -- "${options[@]}" \
        >"$log" 2>&1 || status=$?
    ran=$((SECONDS - started))

    executions=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo "?")
    corpus=$(find "$generated" -type f | wc -l)
    found=$(($(find "$artifacts" -type f | wc -l) - before))
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        failed=1
        grep -m1 -E "panicked at|ERROR: (libFuzzer|AddressSanitizer)" "$log" | sed 's/^/   /' || true
        echo "   new artifacts in $artifacts/: $found (exit status $status)"
    fi
    summary+=("$(printf '%-22s %6s s %14s execs %8s cov %7s corpus %4s crashes' \
        "$target" "$ran" "$executions" "$coverage" "$corpus" "$found")")
done

echo
echo "== summary ($seconds s per target, sanitizer $sanitizer)"
printf '%s\n' "${summary[@]}"
exit "$failed"
