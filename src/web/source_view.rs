//! A checked document's source with its lines numbered, where a finding's
//! "line N" leads: the window of lines around it, the line itself marked.
//! A window at a time and each line cut, so that a page stays small
//! whatever the document (millions of empty lines, one line of megabytes).

use maud::{html, Markup};

use super::layout::layout;
use super::snippets::Lines;

/// The lines one page of the view shows.
pub const WINDOW: usize = 500;
/// The most characters of one line the view shows.
const MOST_LINE_CHARS: usize = 2000;

/// The window of `text`'s lines that holds `line` (1-based), numbered,
/// with links to the windows before and after it.
pub fn source_view(name: &str, text: &str, line: usize, here: &str) -> Markup {
    let lines = Lines::of(text);
    let count = lines.count();
    let line = line.clamp(1, count);
    let first = (line - 1) / WINDOW * WINDOW + 1;
    let last = (first + WINDOW - 1).min(count);
    let window = |from: usize| format!("{here}?line={from}");
    layout(
        &format!("Source of {name}"),
        html! {
            h1 { "Source of " (name) }
            nav.windows aria-label="Lines" {
                "Lines " (first) "–" (last) " of " (count)
                @if first > 1 {
                    " · " a href=(window(first - WINDOW)) { "lines " (first - WINDOW) "–" (first - 1) }
                }
                @if last < count {
                    " · " a href=(window(last + 1)) { "lines " (last + 1) "–" ((last + WINDOW).min(count)) }
                }
            }
            ol.numbered start=(first) {
                @for n in first..=last {
                    @let range = lines.range(n - 1);
                    @let shown = cut(&text[range]);
                    li id=(format!("L{n}")) { code { (shown) } }
                }
            }
        },
    )
}

/// A line cut to [`MOST_LINE_CHARS`], saying how much is left out.
fn cut(line: &str) -> std::borrow::Cow<'_, str> {
    match line.char_indices().nth(MOST_LINE_CHARS) {
        Some((at, _)) => format!(
            "{}… ({} more characters)",
            &line[..at],
            crate::base::shown::thousands(line[at..].chars().count() as u64)
        )
        .into(),
        None => line.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_holds_the_line_asked_and_links_its_neighbours() {
        let text: String = (1..=1200).map(|n| format!("line {n}\n")).collect();
        let page = source_view("feed.rss", &text, 742, "/runs/x/source/0").into_string();
        assert!(page.contains("<ol class=\"numbered\" start=\"501\">"), "{page}");
        assert!(page.contains("<li id=\"L742\"><code>line 742</code></li>"), "{page}");
        assert!(!page.contains("id=\"L1001\""), "one window only");
        assert!(page.contains("href=\"/runs/x/source/0?line=1\""), "{page}");
        assert!(page.contains("href=\"/runs/x/source/0?line=1001\""), "{page}");
    }

    #[test]
    fn a_long_line_is_cut_and_a_line_past_the_end_is_the_last() {
        let text = format!("<rss>{}</rss>", "x".repeat(10_000));
        let page = source_view("one-line.rss", &text, 99, "/s").into_string();
        assert!(page.contains("id=\"L1\""), "{page}");
        assert!(page.contains("… (8,011 more characters)"), "{page}");
        assert!(page.len() < 4000, "{}", page.len());
    }
}
