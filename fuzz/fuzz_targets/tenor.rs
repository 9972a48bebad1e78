//! A tenor name (see marketcurves_live::fuzzing::tenor for the properties).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| marketcurves_live::fuzzing::tenor(data));
