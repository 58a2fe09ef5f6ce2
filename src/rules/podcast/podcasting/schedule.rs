//! Times: live items' start and end, and `podcast:updateFrequency`'s
//! recurrence rules (ISO 8601, RFC 5545).

use std::ops::Range;

use super::elements_of;
use crate::findings::diagnostic::shorten;
use crate::rules::{rule, Checker, Rule};
use crate::text::iso8601::parse_iso8601;

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
                parse_iso8601(start.value().trim()).ok()?,
                parse_iso8601(end.value().trim()).ok()?,
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
