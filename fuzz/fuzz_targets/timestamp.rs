//! A timestamp as the service writes it (see marketcurves_client::fuzzing::timestamp).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| marketcurves_client::fuzzing::timestamp(data));
