//! A REST body, read as the answer of every endpoint (see marketcurves_live::fuzzing::rest_records).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| marketcurves_live::fuzzing::rest_records(data));
