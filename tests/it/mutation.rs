//! Multi-byte characters at every offset of every value: a rule or a date
//! reader that slices text at a byte offset it computed (`&zone[..2]`,
//! `&value[..8]`) panics where a character straddles that offset. Each
//! fixture of the testsuite (Atom, RSS and podcast documents) is linted
//! with a two-, three- and four-byte character inserted at each offset of
//! each attribute value and text, and written over as many bytes there (so
//! that a value of the length a reader expects straddles its offsets), and
//! no finding may be `internal-error` (the finding a contained panic
//! becomes).
//!
//! `cargo test` runs the systematic pass; the long random run (one to three
//! characters put in random values of a random fixture, from a wider
//! alphabet) is, with `FEEDLINT_SEED` to repeat a run,
//!
//! ```text
//! FEEDLINT_MUTATIONS=100000 cargo test --test it mutation::random -- --ignored --nocapture
//! ```

use std::ops::Range;
use std::path::PathBuf;

use feedlint::{lint_bytes, Options, Report};

/// The characters inserted: two, three and four bytes in UTF-8.
const WIDE: [char; 3] = ['é', '€', '𝄞'];

/// The fixtures mutated: every document fixture of the rules' testsuite.
fn fixtures() -> Vec<(PathBuf, String)> {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testsuite/rules"));
    let mut found: Vec<(PathBuf, String)> = walkdir::WalkDir::new(&root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy();
            [".atom", ".rss", ".xml", ".atomdeleted"]
                .iter()
                .any(|ext| name.ends_with(ext))
        })
        .filter_map(|entry| {
            let text = std::fs::read_to_string(entry.path()).ok()?;
            Some((entry.into_path(), text))
        })
        .collect();
    found.sort();
    assert!(found.len() > 300, "{} fixtures", found.len());
    found
}

/// The byte ranges of every attribute value and every text of `text`,
/// as written (roxmltree, an independent parser; a fixture it does not
/// read is passed over: malformed fixtures have few values).
fn values(text: &str) -> Vec<Range<usize>> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let Ok(document) = roxmltree::Document::parse_with_options(text, options) else {
        return Vec::new();
    };
    let mut ranges = Vec::new();
    for node in document.descendants() {
        if node.is_text() {
            let range = node.range();
            // Only text written as it stands (no entity or CDATA markup
            // inside), so that an offset in it is an offset in the value.
            if text.get(range.clone()).is_some_and(|raw| !raw.contains(['&', '<'])) && !range.is_empty() {
                ranges.push(range);
            }
        }
        for attribute in node.attributes() {
            let range = attribute.range_value();
            if text.get(range.clone()).is_some_and(|raw| !raw.contains('&')) {
                ranges.push(range);
            }
        }
    }
    ranges
}

/// How a wide character goes into a value.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    /// Inserted: the value grows by the character's width.
    Insert,
    /// Written over as many bytes of ASCII: the value keeps its length in
    /// bytes, as a date or zone of the expected length would (`+0600`
    /// becoming `+0é0`), and a character straddles the offsets after it.
    Overwrite,
}

/// `text` with `wide` put at offset `at` of each of `values` long enough
/// (offsets counted in the value's bytes; an insertion moves to the
/// nearest character boundary at or before it, an overwrite needs ASCII).
fn mutated(text: &str, values: &[Range<usize>], at: usize, wide: char, how: Mutation) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 64);
    let mut copied = 0;
    let mut changed = false;
    for value in values {
        if value.start < copied {
            continue;
        }
        let mut offset = value.start + at;
        let skip = match how {
            Mutation::Insert if value.len() < at => continue,
            Mutation::Insert => {
                while !text.is_char_boundary(offset) {
                    offset -= 1;
                }
                0
            }
            Mutation::Overwrite => {
                let over = offset..offset + wide.len_utf8();
                if over.end > value.end || !text.get(over).is_some_and(|bytes| bytes.is_ascii()) {
                    continue;
                }
                wide.len_utf8()
            }
        };
        out.push_str(&text[copied..offset]);
        out.push(wide);
        copied = offset + skip;
        changed = true;
    }
    out.push_str(&text[copied..]);
    changed.then_some(out)
}

fn internal_errors(report: &Report) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.rule == "internal-error")
        .map(|d| format!("{}: {}", d.message, d.notes.join("; ")))
        .collect()
}

/// Lints `text` as the fixture `path` would be (its name gives its kind),
/// with the podcast groups on, so that every rule reads every value.
fn lint(path: &std::path::Path, text: &str, options: &Options) -> Report {
    let name = path.file_name().unwrap().to_string_lossy();
    lint_bytes(&name, Some("https://example.org/feed"), text.as_bytes(), options).unwrap()
}

fn options() -> Options {
    feedlint::base::contain::install_hook();
    let mut levels = Options::default().levels().clone();
    levels
        .select(Some(&["ALL".to_owned()]), &[])
        .expect("ALL selects every rule");
    Options::default().with_levels(levels)
}

#[test]
fn a_wide_character_at_every_offset_of_every_value_panics_no_rule() {
    let options = options();
    let fixtures = fixtures();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let share = fixtures.len().div_ceil(threads);
    let (linted, failures): (Vec<usize>, Vec<Vec<String>>) = std::thread::scope(|scope| {
        let workers: Vec<_> = fixtures
            .chunks(share)
            .map(|part| scope.spawn(|| mutate_every_offset(part, &options)))
            .collect();
        workers.into_iter().map(|worker| worker.join().unwrap()).unzip()
    });
    let linted: usize = linted.iter().sum();
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    eprintln!("{linted} mutated documents linted");
    assert!(linted > 10_000, "{linted}");
    assert!(
        failures.is_empty(),
        "{} internal errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Lints each fixture with each wide character at each offset of all its
/// values at once: how many documents were linted, and the internal errors.
fn mutate_every_offset(fixtures: &[(PathBuf, String)], options: &Options) -> (usize, Vec<String>) {
    let (mut linted, mut failures) = (0, Vec::new());
    for (path, text) in fixtures {
        let values = values(text);
        let longest = values.iter().map(Range::len).max().unwrap_or(0);
        // Past 28 bytes every value is the same text to each fixed-offset
        // reader feedlint has: dates (a zone ends by byte 28), zones and
        // recurrence parts end sooner.
        for at in 0..=longest.min(28) {
            for how in [Mutation::Insert, Mutation::Overwrite] {
                for wide in WIDE {
                    let Some(mutated) = mutated(text, &values, at, wide, how) else {
                        continue;
                    };
                    linted += 1;
                    let report = lint(path, &mutated, options);
                    for error in internal_errors(&report) {
                        failures.push(format!("{} {how:?} {wide:?}@{at}: {error}", path.display()));
                    }
                }
            }
        }
    }
    (linted, failures)
}

/// The three panics a security review found: each is a finding of the
/// date or rule that read the value, not an internal error.
#[test]
fn the_slices_the_review_found_read_characters_not_bytes() {
    let options = options();
    let podcast = |channel: &str| {
        format!(
            "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><title>t</title><link>https://example.org/</link><description>d</description>{channel}</channel></rss>"
        )
    };
    for channel in [
        "<podcast:liveItem status=\"live\" start=\"2021-09-26T07:30:00+1é1\" end=\"2021-09-26T09:30:00+1é1\"><title>l</title></podcast:liveItem>",
        "<podcast:updateFrequency dtstart=\"2023-04-01T00:00:00+1é1\" rrule=\"FREQ=DAILY\">Daily</podcast:updateFrequency>",
        "<podcast:updateFrequency rrule=\"FREQ=DAILY;UNTIL=1234567é\">Daily</podcast:updateFrequency>",
        "<dc:date>123é-0</dc:date>",
    ] {
        let text = podcast(channel);
        let report = lint(std::path::Path::new("feed.rss"), &text, &options);
        assert_eq!(internal_errors(&report), Vec::<String>::new(), "{channel}");
        assert!(!report.diagnostics.is_empty(), "{channel}: the bad value is a finding");
    }
}

/// A small deterministic generator (xorshift64*), so that a failing seed
/// can be run again.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

#[test]
#[ignore = "the long run: FEEDLINT_MUTATIONS=100000, in release"]
fn random() {
    let count: usize = std::env::var("FEEDLINT_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let seed: u64 = std::env::var("FEEDLINT_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed);
    let options = options();
    let fixtures: Vec<(PathBuf, String, Vec<Range<usize>>)> = fixtures()
        .into_iter()
        .map(|(path, text)| {
            let values = values(&text);
            (path, text, values)
        })
        .filter(|(_, _, values)| !values.is_empty())
        .collect();
    let alphabet = [
        'é', '€', '𝄞', 'ß', '\u{200B}', '\u{2028}', '\u{FEFF}', '中', '😀', '\u{0301}',
    ];
    let mut random = Random(seed | 1);
    let mut failures = Vec::new();
    for n in 0..count {
        let (path, text, values) = &fixtures[random.below(fixtures.len())];
        // One to three characters, in one value or in several.
        let mut mutated = text.clone();
        let mut chosen: Vec<(usize, char)> = (0..1 + random.below(3))
            .map(|_| {
                let value = &values[random.below(values.len())];
                let mut at = value.start + random.below(value.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                (at, alphabet[random.below(alphabet.len())])
            })
            .collect();
        chosen.sort_by_key(|b| std::cmp::Reverse(b.0));
        for (at, wide) in &chosen {
            mutated.insert(*at, *wide);
        }
        let report = lint(path, &mutated, &options);
        for error in internal_errors(&report) {
            failures.push(format!("#{n} {} {chosen:?}: {error}", path.display()));
        }
    }
    eprintln!(
        "{count} random mutations (seed {seed}): {} internal errors",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The command line: a document feedlint fails on (a debug build panics on
/// one named `feedlint-test-panic.*`) is one `internal-error` finding, the
/// other documents are linted, nothing is printed but the report, and the
/// exit status is 2 (the run itself failed, by the contract).
#[test]
fn the_command_line_reports_an_internal_error_and_lints_the_rest() {
    let dir = crate::common::scratch("cli-internal-error");
    let ordinary = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testsuite/rules/archive-missing-current/fail-no-current.atom"
    );
    std::fs::copy(ordinary, dir.join("feedlint-test-panic.atom")).unwrap();
    std::fs::copy(ordinary, dir.join("ordinary.atom")).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(["--format", "concise"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("feedlint-test-panic.atom:1:1: error[internal-error] internal error: the analysis stopped"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ordinary.atom:") && stdout.contains("[archive-missing-current]"),
        "{stdout}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
