//! A tenor name (see _core::fuzzing::tenor for the properties).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| _core::fuzzing::tenor(data));
