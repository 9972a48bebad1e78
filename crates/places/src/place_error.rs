//! A destination's failure as data: the place, what was being done there,
//! and why it failed. The message is made from these, so that a caller (a
//! binding, a test) reads the fields and never parses the words.

use std::fmt;

/// Who writes into a place: one of each kind at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writer {
    Recorder,
    Backfill,
}

impl Writer {
    pub fn noun(self) -> &'static str {
        match self {
            Writer::Recorder => "recorder",
            Writer::Backfill => "backfill",
        }
    }

    /// Why a second writer of this kind is refused, `who` holding the lock.
    fn refusal(self, shown: &str, who: &str) -> String {
        match self {
            Writer::Recorder => format!(
                "{shown} is being recorded into by another recorder ({who}): one recorder per \
                 destination, or each would write every value"
            ),
            Writer::Backfill => format!(
                "{shown} is being backfilled by another backfill ({who}): one backfill per \
                 destination at a time, or both would write the same days"
            ),
        }
    }
}

/// What was being done when a place failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Operation {
    Write,
    Read,
    List,
    Delete,
    /// Creating the place's folder.
    Create,
    /// Encoding rows into a file (or decoding them), before or after any
    /// place is touched: `cause` says what went wrong.
    Encode,
    /// Compacting a day's files into one.
    Compact,
    /// The file went while the writer or reader was `doing` its work.
    Gone(&'static str),
    /// Files went on vanishing while `doing` the work, after `listings`
    /// listings of the place; `cause` names the last file to go.
    KeptVanishing {
        doing: &'static str,
        listings: usize,
    },
    /// Taking a writer's lock on a folder.
    Lock(Writer),
    /// Taking a writer's lease on a store.
    TakeLease(Writer),
    /// Reading the lease another writer may hold.
    ReadLease(Writer),
    /// Refused: another writer of the kind holds the place (`cause` names it).
    Held(Writer),
    /// The writer's lease went to another writer: it stops writing.
    Lost(Writer),
    /// The place refuses writes, and more ticks are held than the limit allows.
    Hold {
        held: usize,
        limit: usize,
    },
    /// The writer stopped with `unwritten` ticks not written; `fate` says
    /// what becomes of them.
    Stop {
        unwritten: u64,
        fate: String,
    },
    /// The writer did not stop within its time, what it held unwritten.
    StopOverdue(Writer),
    /// The writer's task ended abnormally.
    Run(Writer),
    /// Starting the thread that does `what` (the place's files' work).
    StartThread(&'static str),
    /// Handing work to the thread that does `what`, which has stopped.
    ThreadStopped(&'static str),
    /// The thread's work on `what` ended without an answer.
    ThreadFailed(&'static str),
}

/// A failed operation on a place: `place` as shown (a folder's path or a
/// store's URL, with the file's name when one file is at fault; empty for
/// a thread's work, which no one place owns), `operation`, and `cause` in
/// the words of the system or store that refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceError {
    pub place: String,
    pub operation: Operation,
    pub cause: String,
}

impl PlaceError {
    pub fn new(place: impl Into<String>, operation: Operation, cause: impl fmt::Display) -> Self {
        PlaceError {
            place: place.into(),
            operation,
            cause: cause.to_string(),
        }
    }
}

impl PlaceError {
    /// Rows that cannot be encoded (or a table decoded), in `cause`'s words.
    pub fn encoding(cause: String) -> PlaceError {
        PlaceError::new("", Operation::Encode, cause)
    }
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let PlaceError {
            place,
            operation,
            cause,
        } = self;
        match operation {
            Operation::Write => write!(f, "cannot write {place}: {cause}"),
            Operation::Read => write!(f, "cannot read {place}: {cause}"),
            Operation::List => write!(f, "cannot list {place}: {cause}"),
            Operation::Delete => write!(f, "cannot delete {place}: {cause}"),
            Operation::Create => write!(f, "cannot create {place}: {cause}"),
            Operation::Encode if place.is_empty() => f.write_str(cause),
            Operation::Encode => write!(f, "cannot encode {place}: {cause}"),
            Operation::Compact => write!(f, "cannot compact {place}: {cause}"),
            Operation::Gone(doing) => write!(f, "{place} vanished while {doing}"),
            Operation::KeptVanishing { doing, listings } => write!(
                f,
                "{cause} vanished while {doing} {place}, and files went on vanishing after \
                 {listings} listings: is the lake being rewritten?"
            ),
            Operation::Lock(writer) => {
                write!(f, "cannot lock {place} for the {}: {cause}", writer.noun())
            }
            Operation::TakeLease(writer) => {
                write!(f, "cannot take {place}'s {} lease: {cause}", writer.noun())
            }
            Operation::ReadLease(writer) => {
                write!(f, "cannot read {place}'s {} lease: {cause}", writer.noun())
            }
            Operation::Held(writer) => f.write_str(&writer.refusal(place, cause)),
            Operation::Lost(writer) => write!(
                f,
                "{place} is no longer this {}'s: {cause}; it stops so that one {} writes there",
                writer.noun(),
                writer.noun()
            ),
            Operation::Hold { held, limit } => write!(
                f,
                "{place} has refused writes ({cause}); {held} ticks are held, more than \
                 hold_limit ({limit}). Nothing written is lost, and what is held is not \
                 either: once the destination takes writes again, a restarted recorder \
                 fetches it again from the service"
            ),
            Operation::Stop { unwritten, fate } => {
                write!(
                    f,
                    "stopped with {unwritten} ticks unwritten: {cause}. {fate}"
                )
            }
            Operation::StopOverdue(writer) => write!(
                f,
                "the {} did not stop in time; what it held unwritten is fetched again by \
                 the next run",
                writer.noun()
            ),
            Operation::Run(writer) => write!(f, "the {} failed: {cause}", writer.noun()),
            Operation::StartThread(what) => {
                write!(f, "cannot start a thread for {what}: {cause}")
            }
            Operation::ThreadStopped(what) => write!(f, "the thread for {what} has stopped"),
            Operation::ThreadFailed(what) => write!(f, "{what} failed (an internal error)"),
        }
    }
}

impl From<PlaceError> for crate::ClientError {
    fn from(error: PlaceError) -> crate::ClientError {
        crate::ClientError::Destination(error)
    }
}

#[cfg(test)]
#[path = "place_error_tests.rs"]
mod tests;
