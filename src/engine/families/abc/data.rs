//! What the A/B/C observer records about the data node: each holder's reads, each `setData` as
//! the service judged it, and the updates an applied write wiped out.

use super::NAMES;
use crate::engine::invariants;
use crate::engine::time::Millis;
use crate::engine::trace::data::{DataFacts, DataOutcome, DataRead, DataWriteRecord};
use crate::engine::world::ActorId;

/// Where the data node lives in the service's tree, for the words.
pub const DATA_PATH: &str = "/counter";

#[derive(Debug)]
pub(super) struct DataLog {
    facts: DataFacts,
}

impl DataLog {
    pub(super) fn new(initial_version: i32, initial_value: u64) -> Self {
        Self {
            facts: DataFacts {
                path: DATA_PATH,
                initial_version,
                initial_value,
                reads: Vec::new(),
                writes: Vec::new(),
                final_version: initial_version,
                final_value: initial_value,
            },
        }
    }

    pub(super) fn read(&mut self, at_ms: Millis, reader: ActorId, version: i32, value: u64) {
        self.facts.reads.push(DataRead {
            at_ms,
            reader,
            version,
            value,
        });
    }

    /// Records a `setData` the service judged; returns the record, so the caller can check it.
    pub(super) fn write(
        &mut self,
        at_ms: Millis,
        writer: ActorId,
        expected: i32,
        outcome: DataOutcome,
        value: u64,
    ) -> DataWriteRecord {
        let read_version = self
            .facts
            .reads
            .iter()
            .rev()
            .find(|r| r.reader == writer)
            .map(|r| r.version);
        // Versions grow by one per applied write: the version this write replaced is the one
        // before its own, and whoever wrote it lost that update if the writer never read it.
        let overwrote = match outcome {
            DataOutcome::Set { version } => {
                let replaced = version - 1;
                let by = self
                    .facts
                    .writes
                    .iter()
                    .rev()
                    .find(|w| w.outcome == DataOutcome::Set { version: replaced })
                    .map(|w| w.writer);
                by.filter(|_| invariants::lost_update(writer, read_version, replaced, by))
                    .map(|b| (b, replaced))
            }
            _ => None,
        };
        if let DataOutcome::Set { version } = outcome {
            self.facts.final_version = version;
            self.facts.final_value = value;
        }
        let record = DataWriteRecord {
            at_ms,
            writer,
            expected,
            read_version,
            outcome,
            value,
            overwrote,
        };
        self.facts.writes.push(record);
        record
    }

    pub(super) fn finish(self) -> DataFacts {
        self.facts
    }
}

/// The words for a lost update, in the invariant's detail.
pub(super) fn lost_detail(w: &DataWriteRecord) -> String {
    let (who, version) = w.overwrote.unwrap_or((w.writer, 0));
    format!(
        "{}'s setData with version {} replaced {}'s version {version}",
        NAMES[w.writer.0 as usize], w.expected, NAMES[who.0 as usize]
    )
}
