//! Handing back to the system the memory a pull, a replay's day or a
//! backfill's task freed.
//!
//! A pull decodes its pages on the runtime's worker threads, and glibc
//! gives each thread's allocations arenas of their own. Once a slice's pages
//! are merged and freed, those arenas keep the memory: after the 185 MB
//! intraday table of `benches/rest_pull.py` the process held 30 MB more
//! than it used, which the DataFrame made next could not use (Python
//! allocates on its own thread, from another arena). Likewise the memory of
//! a long replay, or of a backfill's worker after many tasks, rose with
//! their length before it levelled off, each arena keeping about the most
//! it had held. `malloc_trim` returns the free pages of every arena.

use arrow_array::RecordBatch;

/// Below this much table, what a pull leaves free is not worth a walk of
/// the heap.
const WORTH_IT_BYTES: usize = 16 << 20;

/// Returns freed memory to the system after a pull of `batches`, if large.
pub fn after_pull(batches: &[RecordBatch]) {
    let bytes: usize = batches.iter().map(RecordBatch::get_array_memory_size).sum();
    if bytes >= WORTH_IT_BYTES {
        trim();
    }
}

/// Returns what every arena holds free to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn trim() {
    // SAFETY: `malloc_trim` only releases memory that malloc holds free,
    // takes malloc's own locks and may be called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators (musl, macOS, Windows) return memory on their own terms.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn trim() {}
