//! A bulk partition path or download URL (see _core::fuzzing::bulk_path).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| _core::fuzzing::bulk_path(data));
