//! A scheduler notice planner that records what the scheduler decided to tell, and writes
//! nothing into the outbox (scheduler tests without Discord, the sweep benchmark).

use std::sync::Mutex;

use kaboom_service::scheduler::{Notice, NoticePlanner};
use kaboom_store::outbox::NewEffect;

/// Records the notices of each committed sweep batch (those of a batch whose transaction
/// did not commit are forgotten at the next batch's commit only if it never commits: tests
/// see what was decided and committed).
#[derive(Debug, Default)]
pub struct RecordingNotifier {
    planned: Mutex<Vec<Notice>>,
    sent: Mutex<Vec<Notice>>,
}

impl RecordingNotifier {
    /// Every notice committed so far, in order.
    pub fn sent(&self) -> Vec<Notice> {
        self.sent.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Forgets what was recorded.
    pub fn clear(&self) {
        self.sent.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

impl NoticePlanner for RecordingNotifier {
    fn plan(&self, notice: &Notice) -> Vec<NewEffect> {
        self.planned
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(notice.clone());
        Vec::new()
    }

    fn committed(&self) {
        let planned = std::mem::take(&mut *self.planned.lock().unwrap_or_else(|p| p.into_inner()));
        self.sent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(planned);
    }
}
