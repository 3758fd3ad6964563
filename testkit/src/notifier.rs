//! A scheduler notifier that records what it was asked to deliver.

use std::sync::Mutex;

use kaboom_bot::scheduler::{Delivery, Notice, Notifier};
use kaboom_bot::storage::settings::NudgeVia;

/// A notifier that records notices (tests and benchmarks); DMs to `refuse_dms` users
/// "fail" and fall back to the thread, like Discord's error 50007.
#[derive(Debug, Default)]
pub struct RecordingNotifier {
    sent: Mutex<Vec<(Notice, Delivery)>>,
    /// Users whose DMs are closed.
    pub refuse_dms: Vec<u64>,
}

impl RecordingNotifier {
    /// A recorder for which DMs to `refuse_dms` fail.
    pub fn refusing_dms(refuse_dms: Vec<u64>) -> RecordingNotifier {
        RecordingNotifier {
            sent: Mutex::default(),
            refuse_dms,
        }
    }

    /// Everything delivered so far, in order.
    pub fn sent(&self) -> Vec<(Notice, Delivery)> {
        self.sent.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Forgets what was recorded.
    pub fn clear(&self) {
        self.sent.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

#[async_trait::async_trait]
impl Notifier for RecordingNotifier {
    async fn deliver(&self, notice: &Notice) -> Delivery {
        let delivery = match notice {
            Notice::Nudge {
                via: NudgeVia::Dm,
                user_id,
                ..
            } if self.refuse_dms.contains(&user_id.get()) => Delivery::FellBackToThread,
            Notice::Nudge {
                via: NudgeVia::Dm, ..
            } => Delivery::Dm,
            _ => Delivery::Channel,
        };
        self.sent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((notice.clone(), delivery));
        delivery
    }
}
