//! A timestamp as the service writes it (see marketcurves_live::fuzzing::timestamp).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| marketcurves_live::fuzzing::timestamp(data));
