//! A live feed text frame (see marketcurves_live::fuzzing::live_message).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| marketcurves_live::fuzzing::live_message(data));
