//! Virtual time: whole milliseconds since the start of a run.

/// A point in virtual time, or a duration, in milliseconds.
pub type Millis = u64;

/// Converts seconds, as users write them, to whole milliseconds (rounded to the nearest).
pub fn from_secs(secs: f64) -> Millis {
    (secs * 1000.0).round().max(0.0) as Millis
}

/// Converts milliseconds to seconds for display and JSON.
pub fn to_secs(ms: Millis) -> f64 {
    ms as f64 / 1000.0
}

/// Runs shorter than this (Snowflake's milliseconds) are told in milliseconds on every axis
/// and parameter line.
pub const SHORT_RUN_MS: Millis = 1_000;

/// Formats milliseconds as seconds without trailing zeros: `12000` -> `12`, `12500` -> `12.5`.
pub fn fmt_secs(ms: Millis) -> String {
    let whole = ms / 1000;
    let frac = ms % 1000;
    if frac == 0 {
        whole.to_string()
    } else {
        let s = format!("{whole}.{frac:03}");
        s.trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_round_trip_at_millisecond_resolution() {
        assert_eq!(from_secs(9.5), 9500);
        assert_eq!(from_secs(0.001), 1);
        assert_eq!(from_secs(23.4996), 23500);
        assert_eq!(fmt_secs(12000), "12");
        assert_eq!(fmt_secs(12500), "12.5");
        assert_eq!(fmt_secs(1), "0.001");
        assert_eq!(to_secs(26500), 26.5);
    }
}
