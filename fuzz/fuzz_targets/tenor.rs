//! A tenor name (see marketcurves_client::fuzzing::tenor for the properties).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| marketcurves_client::fuzzing::tenor(data));
