//! Times as ISO-8601 UTC text with milliseconds.

use std::time::{SystemTime, UNIX_EPOCH};

/// The current time as ISO-8601 UTC text with milliseconds (`2024-05-01T12:34:56.789Z`).
pub fn now_utc() -> String {
    format_utc(SystemTime::now())
}

/// Formats a time as ISO-8601 UTC text with milliseconds (`2024-05-01T12:34:56.789Z`); times
/// before 1970 are handled too. Text of years 0–9999 sorts chronologically.
pub fn format_utc(t: SystemTime) -> String {
    let ms: i128 = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_millis() as i128,
        Err(e) => -(e.duration().as_millis() as i128),
    };
    let secs = ms.div_euclid(1000) as i64;
    let milli = ms.rem_euclid(1000);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    )
}

/// Converts days since 1970-01-01 to a proleptic Gregorian `(year, month 1–12, day 1–31)`
/// (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097); // 400-year eras
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from March 1, [0, 365]
    let mp = (5 * doy + 2) / 153; // month from March, [0, 11]
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn is_leap(y: i64) -> bool {
        (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    }

    #[test]
    fn civil_from_days_known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
    }

    #[test]
    fn civil_from_days_matches_day_by_day_walk() {
        // Walk 1900-01-01 .. 2400-12-31 one day at a time.
        let mut days = -25_567; // 1900-01-01
        for y in 1900..=2400 {
            for m in 1..=12u32 {
                let len = match m {
                    2 if is_leap(y) => 29,
                    2 => 28,
                    4 | 6 | 9 | 11 => 30,
                    _ => 31,
                };
                for d in 1..=len {
                    assert_eq!(civil_from_days(days), (y, m, d), "day {days}");
                    days += 1;
                }
            }
        }
    }

    #[test]
    fn format_utc_examples() {
        assert_eq!(format_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        assert_eq!(format_utc(t), "2023-11-14T22:13:20.123Z");
        let t = UNIX_EPOCH - Duration::from_millis(1);
        assert_eq!(format_utc(t), "1969-12-31T23:59:59.999Z");
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
