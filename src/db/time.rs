//! Times as ISO-8601 UTC text with milliseconds (RFC 3339, through the `humantime` crate).

use std::time::{SystemTime, UNIX_EPOCH};

/// The current time as ISO-8601 UTC text with milliseconds (`2024-05-01T12:34:56.789Z`).
pub fn now_utc() -> String {
    format_utc(SystemTime::now())
}

/// Formats a time as ISO-8601 UTC text with milliseconds (`2024-05-01T12:34:56.789Z`, RFC 3339
/// §5.6). The text of years 1970–9999 sorts chronologically; a time before 1970 (a clock set
/// wrong) is written as the epoch, `1970-01-01T00:00:00.000Z`.
pub fn format_utc(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t.max(UNIX_EPOCH)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn format_utc_examples() {
        assert_eq!(format_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        assert_eq!(format_utc(t), "2023-11-14T22:13:20.123Z");
        let t = UNIX_EPOCH - Duration::from_millis(1);
        assert_eq!(format_utc(t), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 86_399); // 2000-02-29 23:59:59
        assert_eq!(format_utc(t), "2000-02-29T23:59:59.000Z");
    }

    #[test]
    fn now_is_iso() {
        let s = now_utc();
        assert_eq!(s.len(), 24, "{s}");
        assert!(s.ends_with('Z') && s.as_bytes()[10] == b'T', "{s}");
    }
}
