# Sourced by the scripts that download packages: a flaky network is retried
# rather than failing a run. pip resumes an interrupted download
# (PIP_RESUME_RETRIES, read by pip 25.1 or later and ignored by older ones)
# and retries a failed connection (PIP_RETRIES); uv does the same
# (UV_HTTP_RETRIES). A download that still breaks off at the same byte
# every time (a proxy cutting it) is started afresh by `retrying`, after a
# pause. A value the caller has set is kept.
export PIP_RETRIES="${PIP_RETRIES:-10}"
export PIP_RESUME_RETRIES="${PIP_RESUME_RETRIES:-20}"
export PIP_TIMEOUT="${PIP_TIMEOUT:-60}"
export UV_HTTP_RETRIES="${UV_HTTP_RETRIES:-10}"

# Runs a download command up to three times, 15 then 30 s apart.
retrying() {
    local attempt
    for attempt in 1 2; do
        "$@" && return 0
        echo "warning: attempt $attempt of 3 failed: $*; trying again in $((attempt * 15)) s" >&2
        sleep $((attempt * 15))
    done
    "$@"
}
