//! A configuration value that changes at a planned instant, such as a semaphore's permit
//! count: the checks compare what the clients do with what is configured.

use crate::engine::msg::Timer;
use crate::engine::time::Millis;
use crate::engine::trace::EventKind;
use crate::engine::world::Cx;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Config {
    pub permits: u32,
    /// When the count changes, and to what.
    pub change: Option<(Millis, u32)>,
}

impl Config {
    pub fn on_start(&mut self, cx: &mut Cx) {
        if let Some((at, _)) = self.change {
            cx.set_timer_at(Timer::ConfigChange, at);
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut Cx) {
        if timer == Timer::ConfigChange
            && let Some((_, to)) = self.change.take()
        {
            self.permits = to;
            cx.event(EventKind::PermitsLowered { permits: to });
        }
    }
}
