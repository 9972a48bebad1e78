//! A timestamp as the service writes it (see _core::fuzzing::timestamp).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| _core::fuzzing::timestamp(data));
