//! ISO 8601 dates and times as the Podcasting 2.0 tags write them
//! (`podcast:liveItem` `start` and `end`, `dtstart`): one reading for
//! every rule, on [`super::date`]'s calendar.
// Text is never sliced at a byte offset that is not checked to be a
// character boundary.
#![warn(clippy::string_slice)]

use super::date::{days_from_civil, days_in_month, digits, fail, zone_offset, DateError, MONTH_NAMES};

/// Reads an ISO 8601 (ISO 8601-1) calendar date, or a date and time of
/// day, as the Podcasting 2.0 tags write them (`start`, `end`,
/// `dtstart`): `2021-09-26`, or `2021-09-26T07:30:00.000-0600`, `...Z`,
/// `...+06:00`, `...+06`, with or without seconds, a fraction or a zone; in
/// the extended form (with `-` and `:`) or the basic one (`20210926T073000Z`).
/// A time with no zone is local, and counted as UTC. Hour 24 is only
/// `24:00:00`, the end of the day. The one reading of every rule that
/// takes ISO 8601, so that a value one rule accepts no other refuses: its
/// instant in seconds since 1970, or what is wrong.
pub fn parse_iso8601(text: &str) -> Result<i64, DateError> {
    let mut at = Cursor { text, at: 0 };
    if text.is_empty() {
        return fail("it is empty");
    }
    let year = at.number(4, "year")?;
    let extended = at.optional('-');
    let month = at.number(2, "month")?;
    if extended {
        at.required('-', "after the month")?;
    }
    let day = at.number(2, "day")?;
    if !(1..=12).contains(&month) {
        return fail(format!("month {month:02} does not exist"));
    }
    if day == 0 || day > days_in_month(i64::from(year), month) {
        return fail(format!("{} has no day {day}", MONTH_NAMES[month as usize - 1]));
    }
    let days = days_from_civil(i64::from(year), month, day);
    match at.next() {
        None => return Ok(days * 86_400),
        Some('T' | 't') => {}
        Some(' ') => return fail("a space between the date and the time: ISO 8601 writes 'T'"),
        Some(c) => return fail(format!("expected 'T' between the date and the time, found '{c}'")),
    }
    at.at += 1;
    let hour = at.number(2, "hour")?;
    let extended = at.optional(':');
    let minute = at.number(2, "minute")?;
    let mut second = 0;
    let mut fraction_zero = true;
    let has_seconds = if extended {
        at.optional(':')
    } else {
        at.next().is_some_and(|c| c.is_ascii_digit())
    };
    if has_seconds {
        second = at.number(2, "second")?;
        if at.optional('.') || at.optional(',') {
            let digits = at.rest().bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return fail("a decimal sign with no digits after the seconds");
            }
            fraction_zero = at.rest().bytes().take(digits).all(|b| b == b'0');
            at.at += digits;
        }
    }
    if hour > 24 || (hour == 24 && (minute, second, fraction_zero) != (0, 0, true)) {
        return fail(format!(
            "hour {hour} is not a time of day (24 is only 24:00:00, the end of the day)"
        ));
    }
    if minute > 59 || second > 60 {
        return fail(format!("{hour:02}:{minute:02}:{second:02} is not a time of day"));
    }
    let offset = match at.next() {
        None => 0,
        Some('Z' | 'z') => {
            at.at += 1;
            0
        }
        Some(' ') => return fail("a space after the time: ISO 8601 writes the time zone right after it"),
        Some(sign @ ('+' | '-')) => {
            at.at += 1;
            let hours = at.number(2, "offset hours")?;
            at.optional(':');
            let minutes = if at.next().is_some() {
                at.number(2, "offset minutes")?
            } else {
                0
            };
            zone_offset(sign, hours, minutes)?
        }
        Some(_) => {
            return fail(format!(
                "unexpected text after the time: \"{}\"",
                crate::base::shown::shorten(at.rest())
            ))
        }
    };
    if !at.rest().is_empty() {
        return fail(format!(
            "unexpected text after the time zone: \"{}\"",
            crate::base::shown::shorten(at.rest())
        ));
    }
    Ok(days * 86_400 + i64::from(hour) * 3_600 + i64::from(minute) * 60 + i64::from(second.min(59)) - offset * 60)
}

/// A place in a date being read, for [`parse_iso8601`].
struct Cursor<'t> {
    text: &'t str,
    at: usize,
}

impl Cursor<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.at..).unwrap_or_default()
    }

    fn next(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Reads `n` digits.
    fn number(&mut self, n: usize, what: &str) -> Result<u32, DateError> {
        let value = digits(self.text, self.at, n, what)?;
        self.at += n;
        Ok(value)
    }

    /// Steps over `c` if it is next.
    fn optional(&mut self, c: char) -> bool {
        let found = self.next() == Some(c);
        self.at += usize::from(found);
        found
    }

    fn required(&mut self, c: char, context: &str) -> Result<(), DateError> {
        if self.optional(c) {
            return Ok(());
        }
        match self.next() {
            Some(found) => fail(format!("expected '{c}' {context}, found '{found}'")),
            None => fail(format!("the date ends where '{c}' {context} was expected")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_times_compare_across_zones_and_forms() {
        let start = parse_iso8601("2021-09-26T07:30:00.000-0600").unwrap();
        for same in [
            "2021-09-26T13:30:00Z",
            "2021-09-26T15:30:00+02:00",
            "2021-09-26T15:30+02",
            "20210926T133000Z",
            "2021-09-26T13:30:00,000z",
        ] {
            assert_eq!(parse_iso8601(same), Ok(start), "{same}");
        }
        assert_eq!(parse_iso8601("1970-01-01"), Ok(0));
        assert_eq!(parse_iso8601("1970-01-01T24:00:00"), parse_iso8601("1970-01-02"));
    }

    #[test]
    fn iso8601_errors_say_what_is_wrong() {
        for (bad, why) in [
            ("2021-13-01", "month 13"),
            ("2021-02-29", "February has no day 29"),
            ("2021-09-26T25:00", "hour 25"),
            ("2021-09-26T24:30:00", "24 is only 24:00:00"),
            ("2021-09-26T24:00:00.001", "24 is only 24:00:00"),
            ("yesterday", "year"),
            ("2021-09-26T07:30:00+6", "offset hours"),
            ("2021-09-26 07:30:00", "a space between the date and the time"),
            // The same space, whether a fraction comes before it or not.
            ("2021-09-26T24:00:00.000 -0500", "a space after the time"),
            ("2021-09-26T23:00:00 -0500", "a space after the time"),
            ("2021-09-26T07:30:00.-0600", "no digits"),
            ("2021-09-26T07:30:00Zulu", "after the time zone"),
            ("", "empty"),
            ("2021-9-26", "month"),
        ] {
            let error = parse_iso8601(bad).expect_err(bad).0;
            assert!(error.contains(why), "{bad}: {error}");
        }
    }
}
