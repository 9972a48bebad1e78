//! Dates and times written as the service prints them, digit by digit.
//!
//! Every record of every page carries a time and two dates; through
//! `format!` and chrono's `Display` they were a tenth of the time it took to
//! serve a page.

use chrono::{DateTime, Datelike, NaiveDate, Timelike, Utc};

/// `value`'s last `width` decimal digits, zero-padded.
fn push_digits(text: &mut String, value: u32, width: u32) {
    for place in (0..width).rev() {
        let digit = (value / 10u32.pow(place)) % 10;
        text.push(char::from(b'0' + digit as u8));
    }
}

/// `YYYY-MM-DD`. The world's days all have four-digit years.
pub(crate) fn push_date(text: &mut String, date: NaiveDate) {
    debug_assert!((0..=9999).contains(&date.year()), "{date}");
    push_digits(text, date.year() as u32, 4);
    text.push('-');
    push_digits(text, date.month(), 2);
    text.push('-');
    push_digits(text, date.day(), 2);
}

/// `YYYY-MM-DDTHH:MM:SS`, then the first `digits` digits of the microseconds
/// after a `.` (none and no `.` for 0).
pub(crate) fn push_timestamp(text: &mut String, time: DateTime<Utc>, digits: u8) {
    push_date(text, time.date_naive());
    text.push('T');
    push_digits(text, time.hour(), 2);
    text.push(':');
    push_digits(text, time.minute(), 2);
    text.push(':');
    push_digits(text, time.second(), 2);
    if digits > 0 {
        text.push('.');
        let digits = u32::from(digits.min(6));
        push_digits(
            text,
            time.timestamp_subsec_micros() / 10u32.pow(6 - digits),
            digits,
        );
    }
}

#[cfg(test)]
#[path = "iso_text_tests.rs"]
mod tests;
