//! Dates to instants: RFC 3339 `date-time` as Atom (RFC 4287 §3.3) and
//! RFC 6721 §3 restrict it, and RFC 822 dates as RSS 2.0 uses them (ISO
//! 8601 as the Podcasting 2.0 tags write it is [`super::iso8601`]'s).
//!
//! A small module of our own rather than `time` or `jiff`: the grammars
//! are small, the linter needs to say *which* part is wrong (a lowercase
//! `t`, a missing offset, February 30), and general-purpose parsers either
//! accept what Atom forbids or reject what RFC 3339 allows (leap seconds,
//! fractions of any length). Instants are compared, never strings.
// Text is never sliced at a byte offset that is not checked to be a
// character boundary (`get`, `split_at_checked`): a wide character there
// would panic, and take the document's findings with it.
#![warn(clippy::string_slice)]

use std::fmt;

/// A point in time, exactly as written: two instants are equal only when
/// they are the same instant, however many fraction digits they carry.
///
/// The fields compare in order: the second since 1970-01-01T00:00:00Z, then
/// whether it is a leap second (`23:59:60` counts as the second of
/// `23:59:59`, after it and before the next day's `00:00:00`), then the
/// fraction: its first nine digits as nanoseconds, and any digits after
/// those, trailing zeros removed (compared as text, which for digit strings
/// of a fraction is numeric order).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    pub seconds: i64,
    pub leap: bool,
    pub nanos: u32,
    /// Fraction digits past the ninth, without trailing zeros; rare, so
    /// boxed behind one thin pointer (an instant is kept per entry of every
    /// document: 24 bytes, where a boxed `str` would make it 32).
    pub beyond_nanos: Option<Box<Box<str>>>,
}

impl Instant {
    /// A whole second, as [`Instant`] counts it.
    pub fn from_seconds(seconds: i64) -> Instant {
        Instant {
            seconds,
            leap: false,
            nanos: 0,
            beyond_nanos: None,
        }
    }
}

/// What is wrong with a date, in words for a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateError(pub String);

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T, DateError> {
    Err(DateError(message.into()))
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
pub(crate) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

fn is_leap_year(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub(crate) fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

pub(crate) const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Reads exactly `n` ASCII digits.
pub(crate) fn digits(text: &str, at: usize, n: usize, what: &str) -> Result<u32, DateError> {
    let field = text
        .as_bytes()
        .get(at..at + n)
        .filter(|d| d.iter().all(u8::is_ascii_digit));
    match field {
        Some(d) => Ok(d.iter().fold(0, |value, b| value * 10 + u32::from(b - b'0'))),
        None => fail(format!("expected {n} digits for the {what} at character {}", at + 1)),
    }
}

fn expect(text: &str, at: usize, wanted: char, context: &str) -> Result<(), DateError> {
    match text.get(at..).and_then(|rest| rest.chars().next()) {
        Some(c) if c == wanted => Ok(()),
        Some(c) if c.eq_ignore_ascii_case(&wanted) => fail(format!(
            "lowercase '{c}' {context}: Atom requires an uppercase '{wanted}'"
        )),
        Some(c) => fail(format!("expected '{wanted}' {context}, found '{c}'")),
        None => fail(format!("the date ends where '{wanted}' {context} was expected")),
    }
}

/// The common form `YYYY-MM-DDThh:mm:ss` with `Z` or `±hh:mm`, without
/// fraction, read by position (a feed has thousands of dates); anything
/// else, valid or not, is left to [`parse_rfc3339`]'s full reading, which
/// also says what is wrong.
fn canonical_rfc3339(b: &[u8]) -> Option<Instant> {
    canonical_fields(b)?.instant().ok()
}

/// The fields of a date in the common form, read by position; not yet
/// checked against the calendar and clock.
struct Fields {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    /// Minutes east of UTC.
    offset: i64,
}

impl Fields {
    /// Checks the calendar and clock fields, saying what is wrong.
    fn check(&self) -> Result<(), DateError> {
        let Fields {
            year,
            month,
            day,
            hour,
            minute,
            second,
            ..
        } = *self;
        if !(1..=12).contains(&month) {
            return fail(format!("month {month:02} does not exist"));
        }
        let last = days_in_month(year, month);
        if day == 0 || day > last {
            let name = MONTH_NAMES[month as usize - 1];
            return fail(format!("{name} {year} has no day {day} (it has {last} days)"));
        }
        if hour > 23 {
            return fail(format!("hour {hour} is out of range (00 to 23)"));
        }
        if minute > 59 {
            return fail(format!("minute {minute} is out of range (00 to 59)"));
        }
        if second > 60 {
            return fail(format!(
                "second {second} is out of range (00 to 59, or 60 for a leap second)"
            ));
        }
        if second == 60 {
            // RFC 3339 §5.7: a leap second is the last second of a month's
            // last day, 23:59:60 in UTC, whatever the offset it is written in.
            let utc = i64::from(hour * 60 + minute) - self.offset;
            let (shift, minute_of_day) = (utc.div_euclid(1440), utc.rem_euclid(1440));
            let month_end = match shift {
                0 => day == last,
                1 => day + 1 == last,
                _ => day == 1,
            };
            if minute_of_day != 23 * 60 + 59 || !month_end {
                let at = format!("{:02}:{:02}:60 UTC", minute_of_day / 60, minute_of_day % 60);
                return fail(format!(
                    "second 60 is a leap second, which comes only at 23:59:60 UTC on the last day of a month (RFC 3339 §5.7), and this one is at {at}{}",
                    if month_end { "" } else { " on another day" }
                ));
            }
        }
        Ok(())
    }

    /// The instant of a whole second, once the fields are checked.
    fn instant(&self) -> Result<Instant, DateError> {
        self.check()?;
        // A leap second is the second of :59, after it (see `Instant`).
        let leap = self.second == 60;
        let local = days_from_civil(self.year, self.month, self.day) * 86_400
            + i64::from(self.hour) * 3_600
            + i64::from(self.minute) * 60
            + i64::from(self.second.min(59));
        Ok(Instant {
            leap,
            ..Instant::from_seconds(local - self.offset * 60)
        })
    }
}

/// Why `text` is not a W3C-DTF date (the W3C's profile of ISO 8601, which
/// Dublin Core recommends for dc:date), if it is not: a year (`2003`), a
/// month (`2003-12`), a day (`2003-12-13`), or a day and a time to the
/// minute, second or fraction with a time zone designator
/// (`2003-12-13T18:30Z`, `2003-12-13T18:30:02.25+01:00`).
pub fn w3cdtf_error(text: &str) -> Option<String> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let reason = |error: DateError| Some(error.to_string());
    match text.len() {
        4 if digits(text) => None,
        // Seven bytes are not always seven characters (`123é-0`).
        7 if text.get(..4).is_some_and(digits) && text.as_bytes()[4] == b'-' && text.get(5..).is_some_and(digits) => {
            let month: u32 = text.get(5..)?.parse().ok()?;
            (!(1..=12).contains(&month)).then(|| format!("month {month:02} does not exist"))
        }
        10 => parse_rfc3339(&format!("{text}T00:00:00Z")).err().and_then(reason),
        // A time to the minute has no seconds before its zone designator.
        len if len > 16 && text.is_char_boundary(16) && matches!(text.as_bytes()[16], b'Z' | b'+' | b'-') => {
            let (minutes, zone) = text.split_at_checked(16)?;
            parse_rfc3339(&format!("{minutes}:00{zone}")).err().and_then(reason)
        }
        _ if text.len() > 10 => parse_rfc3339(text).err().and_then(reason),
        _ => Some("it is none of YYYY, YYYY-MM, YYYY-MM-DD or a date and time with a time zone".to_owned()),
    }
}

/// Whether `text` is an RFC 3339 `date-time` as Atom requires: the verdict
/// of [`parse_rfc3339`], for a rule that needs no instant (every date of a
/// feed is checked, and the instant costs as much as the reading).
pub fn is_rfc3339(text: &str) -> bool {
    match canonical_fields(text.as_bytes()) {
        Some(fields) => fields.check().is_ok(),
        None => parse_rfc3339_fully(text).is_ok(),
    }
}

/// The two ASCII digits at `b[i..i + 2]` as a number.
#[inline(always)]
fn two(b: &[u8], i: usize) -> Option<u32> {
    let (tens, ones) = (b[i].wrapping_sub(b'0'), b[i + 1].wrapping_sub(b'0'));
    (tens < 10 && ones < 10).then(|| u32::from(tens) * 10 + u32::from(ones))
}

#[inline(always)]
fn canonical_fields(b: &[u8]) -> Option<Fields> {
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if b.len() < 20 || separators.iter().any(|&(i, c)| b[i] != c) {
        return None;
    }
    let year = i64::from(two(b, 0)? * 100 + two(b, 2)?);
    let offset = match (&b[19..], b.len()) {
        (b"Z", 20) => 0,
        ([sign @ (b'+' | b'-'), _, _, b':', _, _], 25) => {
            let (hours, minutes) = (two(b, 20)?, two(b, 23)?);
            if hours > 23 || minutes > 59 {
                return None;
            }
            let total = i64::from(hours * 60 + minutes);
            if *sign == b'-' {
                -total
            } else {
                total
            }
        }
        _ => return None,
    };
    Some(Fields {
        year,
        month: two(b, 5)?,
        day: two(b, 8)?,
        hour: two(b, 11)?,
        minute: two(b, 14)?,
        second: two(b, 17)?,
        offset,
    })
}

/// Parses an RFC 3339 `date-time` with Atom's restrictions: uppercase `T`
/// and `Z`, a time zone always present; any number of fraction digits.
pub fn parse_rfc3339(text: &str) -> Result<Instant, DateError> {
    match canonical_rfc3339(text.as_bytes()) {
        Some(instant) => Ok(instant),
        None => parse_rfc3339_fully(text),
    }
}

fn parse_rfc3339_fully(text: &str) -> Result<Instant, DateError> {
    if text.is_empty() {
        return fail("the date is empty");
    }
    if text.len() == 10 && text.as_bytes().get(4) == Some(&b'-') {
        return fail("a date without a time: the date is a date-time, e.g. 2003-12-13T18:30:02Z");
    }
    let year = i64::from(digits(text, 0, 4, "year")?);
    expect(text, 4, '-', "after the year")?;
    let month = digits(text, 5, 2, "month")?;
    expect(text, 7, '-', "after the month")?;
    let day = digits(text, 8, 2, "day")?;
    if text.as_bytes().get(10) == Some(&b' ') {
        return fail("a space between date and time: RFC 3339 joins them with a 'T'");
    }
    expect(text, 10, 'T', "between date and time")?;
    let hour = digits(text, 11, 2, "hour")?;
    expect(text, 13, ':', "after the hour")?;
    let minute = digits(text, 14, 2, "minute")?;
    if text.len() == 16 || matches!(text.as_bytes().get(16), Some(b'Z' | b'z' | b'+' | b'-')) {
        return fail("the seconds are missing: RFC 3339 requires hh:mm:ss");
    }
    expect(text, 16, ':', "after the minutes")?;
    let second = digits(text, 17, 2, "second")?;
    let mut at = 19;
    let mut fraction = "";
    if text.as_bytes().get(at) == Some(&b'.') {
        let after = text.get(at + 1..).unwrap_or_default();
        let len = after.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return fail("a '.' with no fraction digits after the seconds");
        }
        fraction = after.get(..len).unwrap_or_default();
        at += 1 + len;
    }
    let rest = text.get(at..).unwrap_or_default();
    let offset = match rest.chars().next() {
        None => return fail("no time zone: add 'Z' for UTC or a numeric offset such as +01:00"),
        Some('Z') if at + 1 == text.len() => 0,
        Some('z') => return fail("lowercase 'z': Atom requires an uppercase 'Z' for UTC"),
        Some(sign @ ('+' | '-')) => {
            let hours = digits(text, at + 1, 2, "offset hours")?;
            expect(text, at + 3, ':', "in the time zone offset")?;
            let minutes = digits(text, at + 4, 2, "offset minutes")?;
            if at + 6 != text.len() {
                return fail(format!(
                    "unexpected text after the time zone: \"{}\"",
                    crate::base::shown::shorten(rest.get(6..).unwrap_or_default())
                ));
            }
            zone_offset(sign, hours, minutes)?
        }
        Some(_) => {
            return fail(format!(
                "unexpected text after the time: \"{}\"",
                crate::base::shown::shorten(rest)
            ))
        }
    };
    let fields = Fields {
        year,
        month,
        day,
        hour,
        minute,
        second,
        offset,
    };
    let (nanos, beyond_nanos) = split_fraction(fraction);
    Ok(Instant {
        nanos,
        beyond_nanos,
        ..fields.instant()?
    })
}

/// Minutes east of UTC for a numeric zone `±hh:mm`, which RFC 3339 and
/// ISO 8601 both bound to hours under 24 and minutes under 60.
pub(crate) fn zone_offset(sign: char, hours: u32, minutes: u32) -> Result<i64, DateError> {
    if hours > 23 || minutes > 59 {
        return fail(format!(
            "time zone offset {sign}{hours:02}:{minutes:02} is out of range"
        ));
    }
    let total = i64::from(hours * 60 + minutes);
    Ok(if sign == '-' { -total } else { total })
}

/// A fraction's digits as nanoseconds and the exact digits past them.
fn split_fraction(digits: &str) -> (u32, Option<Box<Box<str>>>) {
    let (first, rest) = digits.split_at(digits.len().min(9));
    let nanos = first
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(9)
        .fold(0, |value, digit| value * 10 + u32::from(digit - b'0'));
    let rest = rest.trim_end_matches('0');
    (nanos, (!rest.is_empty()).then(|| Box::new(rest.into())))
}

const DAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTH_ABBREVIATIONS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Minutes east of UTC for an RFC 822 zone: `UT`, `GMT`, the North American
/// names, military letters (any case: RFC 822 §3.4.7), or `+hhmm`/`-hhmm`.
fn rfc822_zone(zone: &str) -> Result<i64, DateError> {
    let named = match zone.to_ascii_uppercase().as_str() {
        "UT" | "GMT" | "Z" => Some(0),
        "EST" => Some(-5 * 60),
        "EDT" => Some(-4 * 60),
        "CST" => Some(-6 * 60),
        "CDT" => Some(-5 * 60),
        "MST" => Some(-7 * 60),
        "MDT" => Some(-6 * 60),
        "PST" => Some(-8 * 60),
        "PDT" => Some(-7 * 60),
        // Military zones: RFC 822 got their signs backwards, so their
        // offsets cannot be trusted; they are accepted as UTC.
        z if z.len() == 1 && z.chars().all(|c| c.is_ascii_uppercase() && c != 'J') => Some(0),
        _ => None,
    };
    if let Some(offset) = named {
        return Ok(offset);
    }
    let bytes = zone.as_bytes();
    if bytes.len() == 5 && matches!(bytes[0], b'+' | b'-') && bytes[1..].iter().all(u8::is_ascii_digit) {
        let hours = i64::from(digits(zone, 1, 2, "zone hours")?);
        let minutes = i64::from(digits(zone, 3, 2, "zone minutes")?);
        if minutes > 59 {
            return fail(format!("time zone {zone} has minutes out of range"));
        }
        let total = hours * 60 + minutes;
        return Ok(if bytes[0] == b'-' { -total } else { total });
    }
    fail(format!(
        "\"{zone}\" is not an RFC 822 time zone (use GMT, a zone such as EST, or +hhmm)"
    ))
}

/// The text with RFC 822 comments (`(...)`, nested, with `\` quoting the
/// next character) turned into spaces: §3.1.4 allows them between any two
/// tokens, as in `+0000 (UTC)`.
fn without_comments(text: &str) -> Result<std::borrow::Cow<'_, str>, DateError> {
    if !text.contains(['(', ')']) {
        return Ok(text.into());
    }
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return fail("a ')' that closes no comment"),
            ')' => {
                depth -= 1;
                if depth == 0 {
                    out.push(' ');
                }
            }
            '\\' if depth > 0 => {
                chars.next();
            }
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    if depth > 0 {
        return fail("a comment '(' is never closed");
    }
    Ok(out.into())
}

/// The index (Monday 0) of a name in `names`, compared as RFC 822 §3.4.7
/// says: case does not matter.
fn position_ignoring_case(names: &[&str], name: &str) -> Option<usize> {
    names.iter().position(|n| n.eq_ignore_ascii_case(name))
}

/// The days of the week, Monday first, as English writes them.
pub const DAY_FULL_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// Parses an RFC 822 date-time as RSS 2.0 uses it: `[Day, ]DD Mon YYYY
/// HH:MM[:SS] ZONE`, with a two- or four-digit year, names in any case, and
/// comments anywhere between tokens. A day name that contradicts the date
/// does not make it unreadable (RFC 822 is silent on it; see
/// [`read_rfc822`]).
pub fn parse_rfc822(text: &str) -> Result<Instant, DateError> {
    read_rfc822(text).map(|date| date.instant)
}

/// An RFC 822 date as written.
pub struct Rfc822Date {
    pub instant: Instant,
    /// Where a day name contradicts the date: the name as written (its
    /// byte range in the text, when the text holds no comment before it)
    /// and the day the date is.
    pub wrong_day: Option<WrongDay>,
}

pub struct WrongDay {
    pub written: String,
    pub at: Option<std::ops::Range<usize>>,
    pub actual: &'static str,
    pub actual_full: &'static str,
    /// The date as written, "03 Jun 2003".
    pub date: String,
}

/// [`parse_rfc822`], with the day name checked against the date: RFC 5322
/// §3.3 (the revision of RFC 822's date syntax) requires a given day of the
/// week to be the day the date implies.
pub fn read_rfc822(text: &str) -> Result<Rfc822Date, DateError> {
    if text.len() >= 10 && text.as_bytes()[4] == b'-' && text.bytes().take(4).all(|b| b.is_ascii_digit()) {
        return fail("an ISO 8601 date: RSS dates use RFC 822, e.g. \"Tue, 03 Jun 2003 09:39:21 GMT\"");
    }
    let original = text;
    let text = without_comments(text)?;
    let mut rest: &str = &text;
    let mut weekday = None;
    if let Some((day_name, after)) = rest.split_once(',') {
        let day_name = day_name.trim();
        let Some(index) = position_ignoring_case(&DAY_NAMES, day_name) else {
            return fail(format!(
                "\"{day_name}\" is not a day name (Mon, Tue, Wed, Thu, Fri, Sat, Sun)"
            ));
        };
        weekday = Some((index, day_name));
        rest = after;
    }
    let mut parts = rest.split_whitespace();
    let (Some(day), Some(month), Some(year), Some(time), Some(zone), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return fail("expected \"[Day, ]DD Mon YYYY HH:MM[:SS] ZONE\", e.g. \"Tue, 03 Jun 2003 09:39:21 GMT\"");
    };
    let day: u32 = match day.len() {
        1 | 2 if day.bytes().all(|b| b.is_ascii_digit()) => day.parse().expect("digits"),
        _ => return fail(format!("\"{day}\" is not a day of the month")),
    };
    let Some(month) = position_ignoring_case(&MONTH_ABBREVIATIONS, month) else {
        return fail(format!(
            "\"{month}\" is not a month (Jan, Feb, Mar, Apr, May, Jun, Jul, Aug, Sep, Oct, Nov, Dec)"
        ));
    };
    let year: i64 = match year.len() {
        4 if year.bytes().all(|b| b.is_ascii_digit()) => year.parse().expect("digits"),
        // RSS 2.0 allows two-digit years; read them as RFC 2822 §4.3 does.
        2 if year.bytes().all(|b| b.is_ascii_digit()) => {
            let y: i64 = year.parse().expect("digits");
            if y < 50 {
                2000 + y
            } else {
                1900 + y
            }
        }
        _ => return fail(format!("\"{year}\" is not a year (four digits, or two)")),
    };
    let (hour, minute, second) = match time.len() {
        5 | 8 if time.as_bytes()[2] == b':' && (time.len() == 5 || time.as_bytes()[5] == b':') => (
            digits(time, 0, 2, "hour")?,
            digits(time, 3, 2, "minute")?,
            if time.len() == 8 {
                digits(time, 6, 2, "second")?
            } else {
                0
            },
        ),
        _ => return fail(format!("\"{time}\" is not a time (HH:MM or HH:MM:SS)")),
    };
    let offset = rfc822_zone(zone)?;
    let month = month as u32 + 1;
    let fields = Fields {
        year,
        month,
        day,
        hour,
        minute,
        second,
        offset,
    };
    let instant = fields.instant()?;
    let wrong_day = weekday.and_then(|(named, written)| {
        // The day of the week of the date as written, before its zone:
        // 1970-01-01 was a Thursday.
        let actual = (days_from_civil(year, month, day) + 3).rem_euclid(7) as usize;
        (actual != named).then(|| {
            // The name's place in the text, where no comment came before it
            // (the text read was then the text written).
            let leading = original.len() - original.trim_start().len();
            let at = original
                .get(leading..)
                .is_some_and(|rest| rest.starts_with(written))
                .then(|| leading..leading + written.len());
            WrongDay {
                written: written.to_owned(),
                at,
                actual: DAY_NAMES[actual],
                actual_full: DAY_FULL_NAMES[actual],
                date: format!("{day:02} {} {year}", MONTH_ABBREVIATIONS[month as usize - 1]),
            }
        })
    });
    Ok(Rfc822Date { instant, wrong_day })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_reading_agrees_with_the_full_one() {
        for text in [
            "2003-12-13T18:30:02Z",
            "2003-12-13T18:30:02+01:00",
            "2003-12-13T18:30:02-05:30",
            "2004-02-29T00:00:00Z",
            "2003-02-29T00:00:00Z",
            "2003-12-13T24:30:02Z",
            "2003-12-13T18:30:60Z",
            "2003-12-13t18:30:02Z",
            "2003-12-13T18:30:02z",
            "2003-12-13T18:30:02+24:00",
            "2003-12-13T18:30:02.5Z",
            "2003-13-13T18:30:02Z",
            "0000-01-01T00:00:00Z",
            "2003-12-13T18:30:02Z ",
            "2003-12-1xT18:30:02Z",
            "1900-02-29T00:00:00Z",
            "2000-02-29T00:00:00Z",
            "2003-04-31T00:00:00Z",
            "2003-04-00T00:00:00Z",
            "2003-12-13T18:60:02Z",
            "2003-12-13T18:30:61Z",
            "2003-12-13T18:30:02+01:60",
            "2003-12-13T18:30:02-23:59",
        ] {
            let quick = canonical_rfc3339(text.as_bytes());
            let full = parse_rfc3339_fully(text).ok();
            assert!(quick.is_none() || quick == full, "{text}: {quick:?} vs {full:?}");
            assert_eq!(parse_rfc3339(text).ok(), full, "{text}");
            assert_eq!(is_rfc3339(text), full.is_some(), "{text}");
        }
    }

    fn ok3339(text: &str) -> Instant {
        parse_rfc3339(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn err3339(text: &str) -> String {
        parse_rfc3339(text).expect_err(text).0
    }

    #[test]
    fn rfc3339_instants() {
        assert_eq!(ok3339("1970-01-01T00:00:00Z"), Instant::from_seconds(0));
        assert_eq!(ok3339("2003-12-13T18:30:02Z").seconds, 1_071_340_202);
        assert_eq!(ok3339("2003-12-13T18:30:02Z"), ok3339("2003-12-13T18:30:02.000Z"));
        assert_eq!(ok3339("2003-12-13T18:30:02Z"), ok3339("2003-12-13T19:30:02+01:00"));
        assert_eq!(ok3339("2003-12-13T18:30:02Z"), ok3339("2003-12-13T13:00:02-05:30"));
        assert_eq!(ok3339("2003-12-13T18:30:02.25Z").nanos, 250_000_000);
        assert!(ok3339("2003-12-13T18:30:02.123456789123Z") > ok3339("2003-12-13T18:30:02.1Z"));
        // A leap second is after 23:59:59 and before the next day.
        assert!(ok3339("2016-12-31T23:59:59.999Z") < ok3339("2016-12-31T23:59:60Z"));
        assert!(ok3339("2016-12-31T23:59:60.5Z") < ok3339("2017-01-01T00:00:00Z"));
        assert_eq!(ok3339("2016-12-31T23:59:60Z"), ok3339("2017-01-01T00:59:60+01:00"));
        assert_eq!(ok3339("2016-12-31T23:59:60Z"), ok3339("2016-12-31T15:59:60-08:00"));
        ok3339("2005-06-30T23:59:60Z");
        // Only then: not at another minute, nor on another day.
        for wrong in [
            "2003-12-13T18:30:60Z",
            "2016-12-31T23:59:60+01:00",
            "2016-12-30T23:59:60Z",
            "2017-01-01T00:59:60Z",
            "2016-12-31T23:58:60Z",
        ] {
            let error = parse_rfc3339(wrong).unwrap_err();
            assert!(error.to_string().contains("RFC 3339 §5.7"), "{wrong}: {error}");
        }
        // Fractions compare exactly, at any length.
        let tenth_digit = (
            ok3339("2003-12-13T18:30:02.0000000001Z"),
            ok3339("2003-12-13T18:30:02.0000000002Z"),
        );
        assert!(tenth_digit.0 < tenth_digit.1);
        assert_eq!(
            ok3339("2003-12-13T18:30:02.12345678912Z"),
            ok3339("2003-12-13T18:30:02.1234567891200Z")
        );
        assert!(ok3339("2003-12-13T18:30:02.123456789Z") < ok3339("2003-12-13T18:30:02.1234567890001Z"));
        assert!(ok3339("2003-12-13T18:30:02.9999999999999999999Z") < ok3339("2003-12-13T18:30:03Z"));
        // Kept per entry of every document: the rare digits past the ninth
        // behind one thin pointer (the size of a 64-bit target).
        if cfg!(target_pointer_width = "64") {
            assert_eq!(std::mem::size_of::<Option<Instant>>(), 24);
        }
        ok3339("2004-02-29T00:00:00Z");
        ok3339("2000-02-29T00:00:00Z");
    }

    #[test]
    fn w3c_dates_are_the_six_forms_of_the_note() {
        for good in [
            "2003",
            "2003-12",
            "2003-12-13",
            "2003-12-13T18:30Z",
            "2003-12-13T18:30+01:00",
            "2003-12-13T18:30:02Z",
            "2003-12-13T18:30:02.25-05:00",
        ] {
            assert_eq!(w3cdtf_error(good), None, "{good}");
        }
        for bad in [
            "",
            "03",
            "2003-13",
            "2003-02-30",
            "2003-12-13T18:30",
            "2003-12-13 18:30:02Z",
            "Sat, 13 Dec 2003 18:30:02 GMT",
            "2003-12-13T25:30Z",
        ] {
            assert!(w3cdtf_error(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn rfc3339_errors_say_what_is_wrong() {
        assert!(err3339("2003-12-13t18:30:02Z").contains("lowercase 't'"));
        assert!(err3339("2003-12-13T18:30:02z").contains("lowercase 'z'"));
        assert!(err3339("2003-12-13T18:30:02").contains("no time zone"));
        assert!(err3339("2003-12-13T18:30Z").contains("seconds are missing"));
        assert!(err3339("2003-13-13T18:30:02Z").contains("month 13"));
        assert!(err3339("2003-02-29T18:30:02Z").contains("no day 29"));
        assert!(err3339("1900-02-29T18:30:02Z").contains("no day 29"));
        assert!(err3339("2003-12-13T24:00:00Z").contains("hour 24"));
        assert!(err3339("2003-12-13T18:60:00Z").contains("minute 60"));
        assert!(err3339("2003-12-13").contains("without a time"));
        assert!(err3339("2003-12-13 18:30:02Z").contains("space"));
        assert!(err3339("Sat, 13 Dec 2003 18:30:02 GMT").contains("4 digits for the year"));
        assert!(err3339("2003-12-13T18:30:02+0100").contains("':' in the time zone"));
        assert!(err3339("").contains("empty"));
    }

    #[test]
    fn rfc822_dates() {
        let gmt = parse_rfc822("Tue, 03 Jun 2003 09:39:21 GMT").unwrap();
        assert_eq!(gmt, ok3339("2003-06-03T09:39:21Z"));
        assert_eq!(parse_rfc822("03 Jun 2003 05:39:21 EDT").unwrap(), gmt);
        assert_eq!(parse_rfc822("Tue, 3 Jun 2003 11:39:21 +0200").unwrap(), gmt);
        assert_eq!(parse_rfc822("Tue, 03 Jun 03 09:39:21 GMT").unwrap(), gmt);
        assert_eq!(
            parse_rfc822("Tue, 03 Jun 2003 09:39 GMT").unwrap().seconds,
            gmt.seconds - 21
        );
        // RFC 822 §3.4.7: case does not matter; §3.1.4: comments between tokens.
        assert_eq!(parse_rfc822("tue, 03 jun 2003 09:39:21 gmt").unwrap(), gmt);
        assert_eq!(parse_rfc822("TUE, 03 JUN 2003 09:39:21 Gmt").unwrap(), gmt);
        assert_eq!(parse_rfc822("Tue, 03 Jun 2003 09:39:21 +0000 (UTC)").unwrap(), gmt);
        assert_eq!(
            parse_rfc822("(sent) Tue, 03 Jun (a (nested) comment) 2003 09:39:21 GMT").unwrap(),
            gmt
        );
        assert_eq!(parse_rfc822("Tue, 03 Jun 2003 09:39:21 GMT (\\) quoted)").unwrap(), gmt);
        // The weekday is checked against the date as written (a leap day, a
        // negative offset that moves the instant to the day before).
        let right_day = |t: &str| read_rfc822(t).expect(t).wrong_day.is_none();
        assert!(right_day("sun, 29 Feb 2004 00:00:00 GMT"));
        assert!(right_day("Mon, 01 Jan 2024 00:30:00 +0100"));
    }

    #[test]
    fn a_contradicting_day_name_is_read_and_named_at_its_place() {
        let gmt = parse_rfc822("Tue, 03 Jun 2003 09:39:21 GMT").unwrap();
        let date = read_rfc822("  Wed, 03 Jun 2003 09:39:21 GMT").unwrap();
        assert_eq!(date.instant, gmt);
        let wrong = date.wrong_day.expect("Wed is wrong");
        assert_eq!(
            (wrong.written.as_str(), wrong.at, wrong.actual, wrong.date.as_str()),
            ("Wed", Some(2..5), "Tue", "03 Jun 2003")
        );
        // A comment before the name: the place is not the text's.
        let commented = read_rfc822("(x) Wed, 03 Jun 2003 09:39:21 GMT").unwrap();
        assert_eq!(commented.wrong_day.expect("wrong").at, None);
    }

    #[test]
    fn rfc822_errors() {
        let err = |t: &str| parse_rfc822(t).expect_err(t).0;
        assert!(err("2003-06-03T09:39:21Z").contains("ISO 8601"));
        assert!(err("Tuesday, 03 Jun 2003 09:39:21 GMT").contains("not a day name"));
        assert!(err("Tue, 03 June 2003 09:39:21 GMT").contains("not a month"));
        assert!(err("Tue, 03 Jun 2003 09:39:21").contains("expected"));
        assert!(err("Tue, 03 Jun 2003 09:39:21 CEST").contains("not an RFC 822 time zone"));
        assert!(err("Tue, 31 Jun 2003 09:39:21 GMT").contains("no day 31"));
        assert!(err("Tue, 03 Jun 2003 9:39:21 GMT").contains("not a time"));
        assert!(err("Tue, 03 Jun 2003 09:39:21 +0000 (UTC").contains("never closed"));
        assert!(err("Tue, 03 Jun 2003 09:39:21 +0000 UTC)").contains("closes no comment"));
    }
}
