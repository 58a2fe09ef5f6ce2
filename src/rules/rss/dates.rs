//! RSS dates: RFC 822 date-times, and the day names they give.

use crate::findings::diagnostic::shorten;
use crate::rules::{rule, Checker, Rule};

pub static RSS_INVALID_DATE: Rule = rule!(
    RssInvalidDate, Error, Doc, Some(rss_invalid_date),
    groups: [RssCore],
    summary: "an RSS lastBuildDate or pubDate is not an RFC 822 date",
    spec: "RSS 2.0; RFC 822 §5",
);

fn rss_invalid_date(cx: &mut Checker) {
    let feed = cx.feed;
    let findings: Vec<_> = feed
        .rss_dates()
        .iter()
        .filter_map(|date| {
            let error = date.read.as_ref().err()?.clone();
            Some((date.node.tag_name().name(), date.text.clone(), error))
        })
        .collect();
    for (name, text, error) in findings {
        cx.report(
            Checker::at(text.range, format!("{name} \"{}\" is not a valid RFC 822 date: {error}", shorten(text.value)))
                .label("invalid date")
                .note("RSS 2.0: all date-times conform to the Date and Time Specification of RFC 822; RFC 5005 Appendix B orders archives by lastBuildDate")
                .help("write it as e.g. \"Tue, 03 Jun 2003 09:39:21 GMT\""),
        );
    }
}

pub static RSS_WRONG_DAY_NAME: Rule = rule!(
    RssWrongDayName, Warning, Doc, Some(rss_wrong_day_name),
    groups: [RssCore],
    summary: "an RSS date whose day name contradicts its date (Wed, 03 Jun 2003: a Tuesday)",
    spec: "RSS 2.0; RFC 5322 §3.3",
);

/// A warning: RSS names RFC 822, which says nothing of a day name that
/// disagrees; RFC 5322 §3.3, its revision, requires it to agree.
fn rss_wrong_day_name(cx: &mut Checker) {
    let feed = cx.feed;
    let findings: Vec<_> = feed
        .rss_dates()
        .iter()
        .filter_map(|date| {
            let wrong = date.read.as_ref().ok()?.wrong_day.as_ref()?;
            Some((date.node.tag_name().name(), date.text.clone(), wrong))
        })
        .collect();
    let input = feed.xml.input_text();
    for (name, text, wrong) in findings {
        // The name's own place where the text is written as it reads (no
        // references, no CDATA), else the whole date.
        let at = wrong.at.as_ref().filter(|_| text.is_written_plainly(input));
        let place = at.map_or(text.range.clone(), |at| {
            text.range.start + at.start..text.range.start + at.end
        });
        let fix = at.map(|_| {
            crate::findings::fix::Fix::safe(
                format!("Write {}", wrong.actual),
                vec![crate::findings::fix::replace(place.clone(), wrong.actual)],
            )
        });
        cx.report(
            Checker::at(
                place,
                // What varies from date to date is quoted, so that the text
                // format groups a feed's many wrong days as one pattern.
                format!(
                    "{name}: `{}` is not the day of `{}`, a `{}`",
                    wrong.written, wrong.date, wrong.actual_full
                ),
            )
            .label("wrong day")
            .note("readers take the date and ignore the day name, so the feed means the date; RFC 5322 §3.3, the revision of RFC 822's dates, requires \"the day implied by the date\"")
            .help(format!("write {}, or leave the day name out (it is optional)", wrong.actual))
            .fix_if(fix),
        );
    }
}
