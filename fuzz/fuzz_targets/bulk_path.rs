//! A bulk partition path or download URL (see marketcurves_live::fuzzing::bulk_path).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| marketcurves_live::fuzzing::bulk_path(data));
