//! The `Range` request header, for resumed and parallel file downloads: one
//! byte range (`bytes=N-`, `bytes=N-M` or `bytes=-S`, RFC 9110 §14).

/// What part of a file of `len` bytes to send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ByteRange {
    /// No usable Range header: the whole file, 200.
    Whole,
    /// Bytes `first` to `last` inclusive, 206.
    Part { first: u64, last: u64 },
    /// A range that starts past the end, 416.
    Unsatisfiable,
}

/// The range a `Range` header asks for. A header the server does not follow
/// (another unit, several ranges, a malformed one) is ignored, as RFC 9110
/// allows: the whole file is sent.
pub(super) fn byte_range(header: Option<&str>, len: u64) -> ByteRange {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return ByteRange::Whole;
    };
    let Some((first, last)) = spec.trim().split_once('-') else {
        return ByteRange::Whole;
    };
    let number = |text: &str| -> Option<u64> {
        let text = text.trim();
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        digits.then(|| text.parse().ok()).flatten()
    };
    match (first.trim().is_empty(), number(first), number(last)) {
        // The last `suffix` bytes.
        (true, _, Some(suffix)) => {
            if suffix == 0 || len == 0 {
                ByteRange::Unsatisfiable
            } else {
                ByteRange::Part {
                    first: len - suffix.min(len),
                    last: len - 1,
                }
            }
        }
        (false, Some(first), None) if last.trim().is_empty() => from(first, u64::MAX, len),
        (false, Some(first), Some(last)) if last >= first => from(first, last, len),
        _ => ByteRange::Whole,
    }
}

fn from(first: u64, last: u64, len: u64) -> ByteRange {
    if first >= len {
        ByteRange::Unsatisfiable
    } else {
        ByteRange::Part {
            first,
            last: last.min(len - 1),
        }
    }
}

#[cfg(test)]
#[path = "range_tests.rs"]
mod tests;
