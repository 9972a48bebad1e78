//! A live feed text frame (see _core::fuzzing::live_message).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| _core::fuzzing::live_message(data));
