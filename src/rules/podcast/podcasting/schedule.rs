//! Times: live items' start and end, and `podcast:updateFrequency`'s
//! recurrence rules (ISO 8601, RFC 5545).

use std::ops::Range;

use super::elements_of;
use crate::findings::diagnostic::shorten;
use crate::rules::{rule, Checker, Rule};

/// An ISO 8601 date (`2021-09-26`) or date and time
/// (`2021-09-26T07:30:00.000-0600`, `...Z`, `...+06:00`), as seconds since
/// 1970 (a date alone is its midnight in UTC); `None` for anything else.
pub(crate) fn iso8601_seconds(value: &str) -> Option<i64> {
    let digits =
        |s: &str| -> Option<i64> { (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())? };
    let (date, time) = match value.split_once(['T', 't', ' ']) {
        Some((date, time)) => (date, Some(time)),
        None => (value, None),
    };
    let mut parts = date.split('-');
    let (year, month, day) = (digits(parts.next()?)?, digits(parts.next()?)?, digits(parts.next()?)?);
    if parts.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let days = crate::text::date::days_from_civil(year, u32::try_from(month).ok()?, u32::try_from(day).ok()?);
    let Some(time) = time else { return Some(days * 86400) };
    // The zone: Z, or ±HH, ±HHMM, ±HH:MM.
    let (clock, offset) = if let Some(clock) = time.strip_suffix(['Z', 'z']) {
        (clock, 0)
    } else if let Some(at) = time.rfind(['+', '-']) {
        let zone = time.get(at + 1..)?.replace(':', "");
        let sign = if time.as_bytes()[at] == b'-' { -1 } else { 1 };
        let (hours, minutes) = match zone.len() {
            2 => (digits(&zone)?, 0),
            // Bytes, not characters: a zone like `1é1` is four bytes long.
            4 => (digits(zone.get(..2)?)?, digits(zone.get(2..)?)?),
            _ => return None,
        };
        (time.get(..at)?, sign * (hours * 3600 + minutes * 60))
    } else {
        (time, 0)
    };
    let clock = clock.split('.').next()?;
    let fields: Vec<&str> = clock.split(':').collect();
    let (hours, minutes, seconds) = match fields[..] {
        [h, m] => (digits(h)?, digits(m)?, 0),
        [h, m, s] => (digits(h)?, digits(m)?, digits(s)?),
        _ => return None,
    };
    if hours > 24 || minutes > 59 || seconds > 60 {
        return None;
    }
    Some(days * 86400 + hours * 3600 + minutes * 60 + seconds - offset)
}

pub static PODCAST_LIVE_ITEM_ENDS_BEFORE_START: Rule = rule!(
    PodcastLiveItemEndsBeforeStart, Warning, Doc, Some(podcast_live_item_ends_before_start),
    groups: [Podcast],
    summary: "a podcast:liveItem whose end is not after its start",
    spec: "Podcasting 2.0, tags/live-item.md",
);

fn podcast_live_item_ends_before_start(cx: &mut Checker) {
    let feed = cx.feed;
    let backwards: Vec<(Range<usize>, Range<usize>)> = elements_of(feed, "liveItem")
        .into_iter()
        .filter_map(|live| {
            let start = live.attribute_node("start")?;
            let end = live.attribute_node("end")?;
            let (from, to) = (
                iso8601_seconds(start.value().trim())?,
                iso8601_seconds(end.value().trim())?,
            );
            (to <= from).then(|| (end.range_value(), start.range_value()))
        })
        .collect();
    for (end, start) in backwards {
        cx.report(
            Checker::at(end, "this live item ends before it starts, or as it starts")
                .label("the end")
                .secondary(start, "the start")
                .note("tags/live-item.md: start \"denotes the time when the stream is intended to start\", end \"the time when the stream is intended to end\"; apps schedule the stream by them")
                .help("write the end after the start (mind their time zones)"),
        );
    }
}

pub static PODCAST_INVALID_RRULE: Rule = rule!(
    PodcastInvalidRrule, Error, Doc, Some(podcast_invalid_rrule),
    groups: [Podcast],
    summary: "a podcast:updateFrequency whose rrule is not an RFC 5545 recurrence rule, or has COUNT without dtstart",
    spec: "Podcasting 2.0, tags/update-frequency.md; RFC 5545 §3.3.10",
);

/// Why a recurrence rule is not one of RFC 5545 §3.3.10, if it is not.
fn rrule_error(rrule: &str) -> Option<String> {
    const PARTS: &[&str] = &[
        "FREQ",
        "UNTIL",
        "COUNT",
        "INTERVAL",
        "BYSECOND",
        "BYMINUTE",
        "BYHOUR",
        "BYDAY",
        "BYMONTHDAY",
        "BYYEARDAY",
        "BYWEEKNO",
        "BYMONTH",
        "BYSETPOS",
        "WKST",
    ];
    const FREQUENCIES: &[&str] = &["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"];
    let rrule = rrule.strip_prefix("RRULE:").unwrap_or(rrule);
    let mut seen = Vec::new();
    for part in rrule.split(';') {
        let Some((name, value)) = part.split_once('=') else {
            return Some(format!("`{}` is not NAME=VALUE", shorten(part)));
        };
        let name = name.to_ascii_uppercase();
        if !PARTS.contains(&name.as_str()) {
            return Some(format!("{} is not a part of a recurrence rule", shorten(&name)));
        }
        if seen.contains(&name) {
            return Some(format!("{name} is given twice"));
        }
        let valid = match name.as_str() {
            "FREQ" => FREQUENCIES.iter().any(|f| f.eq_ignore_ascii_case(value)),
            "COUNT" | "INTERVAL" => value.parse::<u32>().is_ok_and(|n| n > 0),
            "WKST" => ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
                .iter()
                .any(|d| d.eq_ignore_ascii_case(value)),
            "UNTIL" => value
                .get(..8)
                .is_some_and(|date| date.bytes().all(|b| b.is_ascii_digit())),
            _ => !value.is_empty(),
        };
        if !valid {
            return Some(format!("{name}={} is not a valid {name}", shorten(value)));
        }
        seen.push(name);
    }
    if !seen.iter().any(|n| n == "FREQ") {
        return Some("it has no FREQ, which every recurrence rule needs".to_owned());
    }
    if seen.iter().any(|n| n == "COUNT") && seen.iter().any(|n| n == "UNTIL") {
        return Some("it has both COUNT and UNTIL, which RFC 5545 says \"MUST NOT occur in the same\" rule".to_owned());
    }
    None
}

fn podcast_invalid_rrule(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for frequency in elements_of(feed, "updateFrequency") {
        let Some(rrule) = frequency.attribute_node("rrule") else {
            continue;
        };
        let value = rrule.value().trim();
        if let Some(why) = rrule_error(value) {
            findings.push((
                rrule.range_value(),
                format!("rrule `{}` is not a recurrence rule: {why}", shorten(value)),
            ));
        } else if value.to_ascii_uppercase().contains("COUNT=") && !frequency.has_attribute("dtstart") {
            findings.push((
                rrule.range_value(),
                "the rrule counts occurrences (COUNT), but there is no dtstart to count from".to_owned(),
            ));
        }
    }
    for (at, message) in findings {
        cx.report(
            Checker::at(at, message)
                .label("not a recurrence rule")
                .note("tags/update-frequency.md: rrule is \"A recurrence rule as defined in iCalendar RFC 5545 Section 3.3.10\"; \"If the rrule contains a value for COUNT, then this attribute [dtstart] is required\"")
                .help("write a rule such as FREQ=WEEKLY or FREQ=MONTHLY;INTERVAL=2, with dtstart where it has COUNT"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_times_compare_across_zones() {
        let start = iso8601_seconds("2021-09-26T07:30:00.000-0600").unwrap();
        assert_eq!(iso8601_seconds("2021-09-26T13:30:00Z"), Some(start));
        assert_eq!(iso8601_seconds("2021-09-26T15:30:00+02:00"), Some(start));
        assert_eq!(iso8601_seconds("1970-01-01"), Some(0));
        for bad in ["2021-13-01", "2021-09-26T25:00", "yesterday", "2021-09-26T07:30:00+6"] {
            assert_eq!(iso8601_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn recurrence_rules_by_rfc_5545() {
        for good in [
            "FREQ=DAILY",
            "FREQ=WEEKLY;INTERVAL=2",
            "FREQ=MONTHLY;BYDAY=1MO",
            "FREQ=WEEKLY;COUNT=10",
        ] {
            assert_eq!(rrule_error(good), None, "{good}");
        }
        for bad in [
            "WEEKLY",
            "FREQ=FORTNIGHTLY",
            "INTERVAL=2",
            "FREQ=DAILY;COUNT=3;UNTIL=20250101",
            "FREQ=DAILY;FREQ=WEEKLY",
        ] {
            assert!(rrule_error(bad).is_some(), "{bad}");
        }
    }
}
