//! Hostile inputs (testsuite/hostile/, and large ones generated here): each
//! is linted together with an ordinary feed; the run must end with a
//! finding or a one-line error, in bounded time and memory, without a
//! panic, and the ordinary feed must still be linted.

use std::fs::File;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

// A test binary of its own: the memory of a child is measured with wait4's
// rusage, and on Linux a child's peak counts the memory of the process it
// was spawned from (the exec inherits the old image's high-water mark). In
// the one binary of every other test, that is the memory of all of them.
#[path = "it/common/mod.rs"]
mod common;
use common::scratch;

/// An ordinary feed with one known finding (a warning: exit status 0).
const ORDINARY: &str = "testsuite/rules/archive-missing-current/fail-no-current.atom";
/// The bounds are on the child's CPU time (user and system, all its
/// threads), not the wall clock: on a machine shared with other builds a
/// child waits for a core, and its wall time says nothing of its own cost.
/// The heaviest shape takes under 2 s of CPU in the debug build, however
/// busy the machine: the bound is ten times that.
const SECONDS: f64 = 20.0;
const MEBIBYTES: i64 = 1024;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    /// CPU seconds, user and system, of the child and its threads.
    seconds: f64,
    peak_mib: i64,
}

/// Runs feedlint on `hostile` and the ordinary feed, measuring the child's
/// CPU time and peak resident memory (wait4's rusage).
#[allow(clippy::zombie_processes)] // the child is reaped by wait4, which also gives its rusage
fn lint(hostile: &Path) -> Run {
    lint_as("concise", hostile)
}

/// [`lint`] in another output format.
fn lint_as(format: &str, hostile: &Path) -> Run {
    run_measured(hostile, &["--format", format, hostile.to_str().unwrap(), ORDINARY])
}

/// Runs feedlint with `args`, measuring its CPU time and peak resident
/// memory (wait4's rusage); its outputs go through files named after
/// `input`, so that a large report is never held in a pipe.
#[allow(clippy::zombie_processes)] // the child is reaped by wait4, which also gives its rusage
fn run_measured(input: &Path, args: &[&str]) -> Run {
    let out = scratch(&format!("out-{}", input.file_name().unwrap().to_string_lossy()));
    let (stdout_path, stderr_path) = (out.join("stdout"), out.join("stderr"));
    let child = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(File::create(&stdout_path).unwrap())
        .stderr(File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let (code, seconds, peak_mib) = wait_measured(child);
    let run = Run {
        code,
        stdout: std::fs::read_to_string(&stdout_path).unwrap(),
        stderr: std::fs::read_to_string(&stderr_path).unwrap(),
        seconds,
        peak_mib,
    };
    let _ = std::fs::remove_dir_all(out);
    run
}

/// Waits for `child`: its exit status, CPU seconds (user and system) and
/// peak resident memory in MiB (wait4's rusage).
#[allow(clippy::zombie_processes)] // the child is reaped by wait4, which also gives its rusage
fn wait_measured(child: std::process::Child) -> (i32, f64, i64) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in; the pid is our child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    let exit = std::process::ExitStatus::from_raw(status);
    let code = exit
        .code()
        .unwrap_or_else(|| panic!("killed by signal {:?}", exit.signal()));
    let seconds = |time: libc::timeval| time.tv_sec as f64 + time.tv_usec as f64 / 1e6;
    (
        code,
        seconds(usage.ru_utime) + seconds(usage.ru_stime),
        usage.ru_maxrss / 1024,
    )
}

/// The common expectations, and the finding (or one-line error) expected
/// for the hostile input itself.
fn check(hostile: &Path, expected: &str) -> Run {
    let run = lint(hostile);
    // Shown with --nocapture: what each input costs.
    eprintln!(
        "{}: {:.2} s of CPU, {} MiB peak",
        hostile.display(),
        run.seconds,
        run.peak_mib
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.seconds < SECONDS, "{}: {:.1} s", hostile.display(), run.seconds);
    assert!(run.peak_mib < MEBIBYTES, "{}: {} MiB", hostile.display(), run.peak_mib);
    assert!(
        run.stdout.contains(&format!("{ORDINARY}:")),
        "the ordinary feed is still linted: {}",
        run.stdout
    );
    let name = hostile.display().to_string();
    match run.code {
        1 => {
            // The expected finding among the input's (a hostile feed lacks
            // what Atom requires too: those findings come first).
            let mut lines = run.stdout.lines().filter(|l| l.starts_with(&name)).peekable();
            assert!(lines.peek().is_some(), "no finding for {name}: {}", run.stdout);
            assert!(lines.any(|line| line.contains(expected)), "{}", run.stdout);
        }
        0 => assert!(expected.is_empty() || run.stdout.contains(expected), "{}", run.stdout),
        code => {
            assert_eq!(code, 2, "{}", run.stderr);
            assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
            assert!(run.stderr.contains(expected), "{}", run.stderr);
        }
    }
    run
}

fn committed(name: &str) -> PathBuf {
    Path::new("testsuite/hostile").join(name)
}

fn generated(name: &str, write: impl FnOnce(&mut dyn Write)) -> PathBuf {
    let path = scratch(name).join(name);
    let mut file = std::io::BufWriter::new(File::create(&path).unwrap());
    write(&mut file);
    file.flush().unwrap();
    path
}

/// The start of a feed with what Atom requires of its head (RFC 4287 §4.1.1).
const FEED_START: &str = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title>\
    <id>tag:example.org,2024:f</id><updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>";

#[test]
fn billion_laughs() {
    check(
        &committed("billion-laughs.atom"),
        "error[xml-malformed] not well-formed XML: entity references expand to more than 16 MiB",
    );
}

#[test]
fn quadratic_entity_blowup() {
    // 250 KB: one 125 KB entity, referenced 25,000 times: 3 GB expanded.
    let path = generated("quadratic.atom", |out| {
        write!(
            out,
            "<!DOCTYPE feed [<!ENTITY big \"{}\">]>{FEED_START}<subtitle>",
            "a".repeat(125_000)
        )
        .unwrap();
        out.write_all("&big;".repeat(25_000).as_bytes()).unwrap();
        write!(out, "</subtitle></feed>").unwrap();
    });
    assert!(std::fs::metadata(&path).unwrap().len() < 260_000);
    check(&path, "entity references expand to more than 16 MiB");
}

#[test]
fn external_entity_is_not_loaded() {
    let run = check(&committed("external-entity.atom"), "info[external-dtd-not-read]");
    assert!(!run.stdout.contains("root:"), "{}", run.stdout);
}

#[test]
fn deep_nesting() {
    let path = generated("deep.atom", |out| {
        out.write_all(FEED_START.as_bytes()).unwrap();
        // An extension element (in a namespace of its own), nested.
        out.write_all(b"<x xmlns=\"urn:example:extension\">").unwrap();
        out.write_all("<x>".repeat(99_999).as_bytes()).unwrap();
        out.write_all("</x>".repeat(100_000).as_bytes()).unwrap();
        out.write_all(b"</feed>").unwrap();
    });
    // A well-formed feed: linted without a finding, without overflowing.
    let run = check(&path, "");
    assert!(!run.stdout.contains("deep.atom:"), "{}", run.stdout);
}

#[test]
fn deep_json_nesting() {
    // A JSON Feed whose extension nests 100,000 arrays: the parser stops at
    // its depth limit, a finding, never the stack.
    let path = generated("deep.json", |out| {
        out.write_all(b"{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"t\", \"items\": [], \"_x\": ")
            .unwrap();
        out.write_all("[".repeat(100_000).as_bytes()).unwrap();
        out.write_all("]".repeat(100_000).as_bytes()).unwrap();
        out.write_all(b"}").unwrap();
    });
    check(&path, "json-malformed");
}

#[test]
fn a_json_feed_of_a_million_members() {
    // Every member unknown, misspelt, of the wrong type, in items that
    // lack what they require: each finding costs the same however many.
    let path = generated("members.json", |out| {
        out.write_all(b"{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [")
            .unwrap();
        for n in 0..200_000 {
            let comma = if n == 0 { "" } else { "," };
            write!(out, "{comma}{{\"idd\": {n}, \"tags\": [1], \"titel\": 2, \"x{n}\": 3}}").unwrap();
        }
        out.write_all(b"]}").unwrap();
    });
    check(&path, "json-feed-unknown-member");
}

#[test]
fn millions_of_attributes_on_one_element() {
    // 32 MB of distinct attributes on the root: well-formed XML, read in
    // linear time (duplicates are found by hashing, not by comparing each
    // attribute with all before it).
    let path = generated("attributes.atom", |out| {
        out.write_all(b"<feed xmlns=\"http://www.w3.org/2005/Atom\"").unwrap();
        let mut written = 0;
        let mut n = 0u64;
        while written < 32 * 1024 * 1024 {
            let attribute = format!(" a{n}=\"v\"");
            written += attribute.len();
            out.write_all(attribute.as_bytes()).unwrap();
            n += 1;
        }
        out.write_all(b">").unwrap();
        out.write_all(&FEED_START.as_bytes()[FEED_START.find('>').unwrap() + 1..])
            .unwrap();
        out.write_all(b"</feed>").unwrap();
    });
    // One finding names the first twelve undefined attributes; none other.
    let run = check(&path, "");
    let findings: Vec<&str> = run.stdout.lines().filter(|l| l.contains("attributes.atom:")).collect();
    assert_eq!(findings.len(), 1, "{}", run.stdout);
    assert!(
        findings[0].contains("atom-undefined-attribute") && findings[0].contains("a0, a1, a2"),
        "{}",
        findings[0]
    );
}

#[test]
fn invalid_utf8_in_the_middle() {
    check(&committed("invalid-utf8.atom"), "invalid UTF-8: byte 0xE9");
}

#[test]
fn wrong_encoding_declaration() {
    check(
        &committed("wrong-encoding.atom"),
        "the XML declaration names encoding \"UTF-16\"",
    );
}

#[test]
fn utf16_without_declaration() {
    // Read as UTF-16 from its first bytes: a well-formed feed.
    let run = check(&committed("utf16-no-declaration.atom"), "");
    assert!(!run.stdout.contains("utf16-no-declaration.atom:"), "{}", run.stdout);
}

#[test]
fn nul_bytes() {
    check(&committed("nul-bytes.atom"), "U+0000 is not a character XML allows");
}

#[test]
fn one_megabyte_attribute_value() {
    let path = generated("long-attribute.atom", |out| {
        write!(
            out,
            "{FEED_START}<link rel=\"related\" href=\"https://example.org/{} \"/></feed>",
            "a".repeat(1024 * 1024)
        )
        .unwrap();
    });
    let run = check(&path, "error[invalid-iri]");
    // The message quotes a shortened value, not a megabyte.
    assert!(run.stdout.len() < 10_000, "{} bytes of output", run.stdout.len());
}

#[test]
fn a_hundred_thousand_links_in_one_head() {
    let path = generated("many-links.atom", |out| {
        out.write_all(FEED_START.as_bytes()).unwrap();
        for n in 0..100_000 {
            write!(out, "<link rel=\"related\" href=\"https://example.org/{n}\"/>").unwrap();
        }
        out.write_all(b"<link rel=\"prev-archive\" href=\"https://example.org/1\"/><link rel=\"self\" href=\"https://example.org/1\"/></feed>").unwrap();
    });
    check(&path, "error[self-referencing-link]");
}

/// The concise report of `path` and the ordinary feed with `--max-file-size`.
fn lint_with_limit(path: &str, limit: u64) -> Run {
    let limit = limit.to_string();
    run_measured(
        Path::new(path),
        &["--format", "concise", "--max-file-size", &limit, path, ORDINARY],
    )
}

#[test]
fn a_file_over_max_file_size() {
    let path = generated("big.atom", |out| {
        write!(
            out,
            "{FEED_START}<subtitle>{}</subtitle></feed>",
            "a".repeat(2 * 1024 * 1024)
        )
        .unwrap();
    });
    let stdout = lint_with_limit(path.to_str().unwrap(), 1_048_576).stdout;
    assert!(
        stdout.contains("error[file-too-large] not linted: the file is 2097"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("{ORDINARY}:")));
}

#[test]
fn a_hundred_thousand_entries_on_one_line() {
    // Lines and columns are found by scanning forward once, not from the
    // line start for every span: on one 20 MB line that was quadratic.
    let mut text = String::from(FEED_START);
    let entry = |n: usize| {
        format!(
            "<entry><id>tag:example.org,2024:{n}</id><title>t</title><updated>2024-01-01T00:00:00Z</updated><summary>{}</summary></entry>",
            "s".repeat(80)
        )
    };
    for n in 0..100_000 {
        text.push_str(&entry(n));
    }
    // The first entry again, with the same update time: a finding at the very end.
    let duplicate_at = text.len() + "<entry><id>".len();
    text.push_str(&entry(0));
    text.push_str("</feed>");
    let path = generated("one-line.atom", |out| out.write_all(text.as_bytes()).unwrap());
    let run = check(&path, "warning[ambiguous-duplicate-entry]");
    let at = format!(
        "{}:1:{}: warning[ambiguous-duplicate-entry]",
        path.display(),
        duplicate_at + 1
    );
    assert!(run.stdout.contains(&at), "{at} in {}", run.stdout);
}

/// Writes `head`, then `unit` until the file holds about `size` bytes, then `tail`.
fn bulk(name: &str, size: usize, head: &str, unit: &str, tail: &str) -> PathBuf {
    generated(name, |out| {
        out.write_all(head.as_bytes()).unwrap();
        for _ in 0..size / unit.len() {
            out.write_all(unit.as_bytes()).unwrap();
        }
        out.write_all(tail.as_bytes()).unwrap();
    })
}

const FOUR_MB: usize = 4 * 1024 * 1024;

#[test]
fn a_namespace_declared_at_every_level() {
    // Each element declares a prefix and uses one declared at the root: a
    // parser that copies the namespaces in scope into every element is
    // cubic here (133 KB once took 103 s).
    let depth = 60_000;
    let path = generated("namespaces.atom", |out| {
        out.write_all(FEED_START.replacen("<feed ", "<feed xmlns:p=\"urn:p\" ", 1).as_bytes())
            .unwrap();
        for i in 0..depth {
            write!(out, "<p:x xmlns:n{i}=\"urn:n{i}\">").unwrap();
        }
        out.write_all("</p:x>".repeat(depth).as_bytes()).unwrap();
        out.write_all(b"</feed>").unwrap();
    });
    let run = check(&path, "");
    assert!(!run.stdout.contains("namespaces.atom:"), "{}", run.stdout);
}

#[test]
fn many_prefixes_on_one_element() {
    let path = generated("prefixes.atom", |out| {
        out.write_all(b"<feed xmlns=\"http://www.w3.org/2005/Atom\"").unwrap();
        for i in 0..FOUR_MB / 24 {
            write!(out, " xmlns:p{i}=\"urn:{i}\"").unwrap();
        }
        out.write_all(b">").unwrap();
        out.write_all(&FEED_START.as_bytes()[FEED_START.find('>').unwrap() + 1..])
            .unwrap();
        out.write_all(b"</feed>").unwrap();
    });
    let run = check(&path, "");
    assert!(!run.stdout.contains("prefixes.atom:"), "{}", run.stdout);
}

#[test]
fn an_unclosed_start_tag_full_of_equals_signs() {
    // The old attribute-count guard scanned such a tag once per '<' found
    // after it (4 MB took 33 s).
    let head = "<feed xmlns=\"http://www.w3.org/2005/Atom\" a=\"";
    let path = bulk("unclosed.atom", FOUR_MB, head, "=>=<", "");
    check(
        &path,
        "error[xml-malformed] not well-formed XML: '<' is not allowed in an attribute value",
    );
    let path = bulk("unclosed-2.atom", FOUR_MB, head, "=>=>", "");
    check(
        &path,
        "error[xml-malformed] not well-formed XML: attribute value not closed",
    );
}

#[test]
fn one_entity_and_a_comment_full_of_ampersands() {
    // An entity scan that looks for ';' after every '&' is quadratic here.
    let head = format!("<!DOCTYPE feed [<!ENTITY e \"x\">]>{FEED_START}<subtitle>&e;</subtitle><!--");
    let path = bulk("ampersands.atom", FOUR_MB, &head, &"&".repeat(64), "--></feed>");
    let run = check(&path, "");
    assert!(!run.stdout.contains("ampersands.atom:"), "{}", run.stdout);
}

#[test]
fn a_million_entity_references() {
    let head = format!("<!DOCTYPE feed [<!ENTITY e \"x\">]>{FEED_START}<subtitle>");
    let path = bulk("references.atom", FOUR_MB, &head, "&e;&#233;&lt;", "</subtitle></feed>");
    let run = check(&path, "");
    assert!(!run.stdout.contains("references.atom:"), "{}", run.stdout);
}

#[test]
fn comments_and_cdata_in_bulk() {
    let unit = "<!-- a - comment --><![CDATA[ ]] > ]]>";
    let path = bulk(
        "comments.atom",
        FOUR_MB,
        &format!("{FEED_START}<subtitle>"),
        unit,
        "</subtitle></feed>",
    );
    let run = check(&path, "");
    assert!(!run.stdout.contains("comments.atom:"), "{}", run.stdout);
}

#[test]
fn a_deep_content_model_in_the_internal_subset() {
    let depth = 500_000;
    let path = generated("content-model.atom", |out| {
        write!(
            out,
            "<!DOCTYPE feed [<!ELEMENT feed {}title{}>]>",
            "(".repeat(depth),
            ")".repeat(depth)
        )
        .unwrap();
        out.write_all(FEED_START.as_bytes()).unwrap();
        out.write_all(b"</feed>").unwrap();
    });
    let run = check(&path, "");
    assert!(!run.stdout.contains("content-model.atom:"), "{}", run.stdout);
}

#[test]
fn inputs_the_fuzzer_once_found_slow_or_crashing() {
    let mut found = 0;
    for entry in std::fs::read_dir("testsuite/hostile").unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap().to_string_lossy().starts_with("fuzz-") {
            found += 1;
            check(&path, "");
        }
    }
    assert!(found > 0, "no fuzz-* inputs in testsuite/hostile");
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_that_claims_to_be_empty_is_read_only_up_to_the_limit() {
    // /proc/self/pagemap reports size 0 and is gigabytes long.
    let run = lint_with_limit("/proc/self/pagemap", 65536);
    let stdout = &run.stdout;
    assert!(
        stdout.contains("/proc/self/pagemap:1:1: error[file-too-large]"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("{ORDINARY}:")));
    assert!(run.seconds < SECONDS, "{:.1} s", run.seconds);
}

/// What the rules' own shapes must stay under: the sizes that once took
/// minutes or gigabytes (a pairing per two tombstones, a scan of every
/// suppression per finding) now take a fraction of a second in a release
/// build; the bounds leave room for the debug build `cargo test` uses.
const RULE_SECONDS: f64 = 10.0;
const RULE_MEBIBYTES: i64 = 200;

const TOMBSTONE_FEED_START: &str =
    "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:at=\"http://purl.org/atompub/tombstones/1.0\"><title>t</title>";

fn check_rule_shape(path: &Path, expected: &str) -> Run {
    let run = check(path, expected);
    assert!(run.seconds < RULE_SECONDS, "{}: {:.1} s", path.display(), run.seconds);
    assert!(
        run.peak_mib < RULE_MEBIBYTES,
        "{}: {} MiB",
        path.display(),
        run.peak_mib
    );
    run
}

#[test]
fn twenty_thousand_tombstones_with_one_ref() {
    // Pairing each tombstone with every earlier one of its ref was
    // quadratic: 222 s at this size (1.4 MB).
    let unit = "<at:deleted-entry ref=\"urn:x:1\" when=\"2024-01-01T00:00:00Z\"/>\n";
    let path = bulk(
        "one-ref.atom",
        20_000 * unit.len(),
        TOMBSTONE_FEED_START,
        unit,
        "</feed>",
    );
    check_rule_shape(&path, "error[duplicate-deleted-entry]");
}

#[test]
fn a_feed_of_tombstones_alone_keeps_no_pairing_maps() {
    // The rules that pair entries with tombstones keyed a map by every
    // tombstone's ref, though no entry could meet them: 6.4x the file's
    // size at peak (debug build), 4.4x with maps that follow the shorter of
    // the two lists and the summary's refs in one string.
    let path = generated("tombstones-alone.atom", |out| {
        out.write_all(TOMBSTONE_FEED_START.as_bytes()).unwrap();
        for n in 0..120_000 {
            writeln!(
                out,
                "<at:deleted-entry ref=\"tag:example.org,2024:{n}\" when=\"2023-01-01T00:00:00Z\">\
                 <at:by><name>a</name></at:by><at:comment>removed</at:comment></at:deleted-entry>"
            )
            .unwrap();
        }
        out.write_all(b"</feed>").unwrap();
    });
    let run = lint(&path);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let file_mib = std::fs::metadata(&path).unwrap().len() as f64 / (1024.0 * 1024.0);
    let ratio = run.peak_mib as f64 / file_mib;
    eprintln!("{}: {} MiB peak, {ratio:.2}x its size", path.display(), run.peak_mib);
    assert!(ratio < 5.0, "{} MiB peak, {ratio:.2}x the file's size", run.peak_mib);
}

#[test]
fn fixes_on_one_line() {
    // Each duplicate's fix removes it with the spaces around it: looking
    // for the line's start and end instead was quadratic on one line
    // (5,000 tombstones took a second, 16 MB minutes).
    let unit = "<at:deleted-entry ref=\"urn:x:1\" when=\"2024-01-01T00:00:00Z\"/>";
    let path = bulk(
        "one-line.atom",
        40_000 * unit.len(),
        TOMBSTONE_FEED_START,
        unit,
        "</feed>",
    );
    check_rule_shape(&path, "error[duplicate-deleted-entry]");
}

#[test]
fn near_misses_under_a_hundred_thousand_declarations() {
    // Each near miss's fix finds the declaration of its namespace: each
    // start tag is read once, not once per finding.
    let declarations: String = (0..100_000).map(|i| format!(" xmlns:p{i}=\"urn:{i}\"")).collect();
    let path = generated("near-misses.atom", |out| {
        write!(
            out,
            "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:h=\"http://purl.org/syndication/history/1.0/\"{declarations}>"
        )
        .unwrap();
        out.write_all(&FEED_START.as_bytes()[FEED_START.find('>').unwrap() + 1..])
            .unwrap();
        out.write_all("<h:archive/>".repeat(20_000).as_bytes()).unwrap();
        out.write_all(b"</feed>").unwrap();
    });
    check(&path, "error[namespace-near-miss]");
}

#[test]
fn two_thousand_entries_and_tombstones_with_one_id() {
    // Each tombstone against each entry of its id made 4,000,000 findings
    // and 4.9 GB from 298 KB; now each entry and each tombstone is
    // reported at most once.
    let entry = "<entry><id>urn:x:1</id><title>t</title><updated>2024-01-01T00:00:00Z</updated></entry>\n";
    let tombstone = "<at:deleted-entry ref=\"urn:x:1\" when=\"2024-01-02T00:00:00Z\"/>\n";
    let mut text = String::from(TOMBSTONE_FEED_START);
    for _ in 0..2_000 {
        text.push_str(tombstone);
        text.push_str(entry);
    }
    text.push_str("</feed>");
    let path = generated("one-id.atom", |out| out.write_all(text.as_bytes()).unwrap());
    let run = check_rule_shape(&path, "info[deleted-entry-still-present]");
    let still_present = run.stdout.matches("info[deleted-entry-still-present]").count();
    assert!(still_present <= 2_000, "{still_present} findings for 2,000 entries");
}

#[test]
fn sixty_thousand_suppression_comments() {
    // Every finding was compared with every suppression, and every
    // comment searched forward over the comments after it: 9.5 s.
    let entry = "<!-- feedlint-disable-next invalid-date --><entry><id>urn:x</id><title>t</title><updated>never</updated></entry>\n";
    let mut text = String::from(FEED_START);
    for _ in 0..30_000 {
        text.push_str("<!-- feedlint-disable-next archive-missing-marker -->\n");
    }
    for n in 0..30_000 {
        text.push_str(&entry.replace("urn:x", &format!("urn:x:{n}")));
    }
    text.push_str("</feed>");
    let path = generated("suppressions.atom", |out| out.write_all(text.as_bytes()).unwrap());
    let run = check_rule_shape(&path, "unused-suppression");
    assert!(!run.stdout.contains("invalid-date"), "every invalid date is suppressed");
    // 30,000 unused suppressions: the first 100, and one for the rest.
    assert_eq!(run.stdout.matches("[unused-suppression]").count(), 101);
    assert!(
        run.stdout.contains("29900 more unused-suppression findings"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_text_format_shows_windows_of_a_long_line_not_the_line() {
    // One 2 MB line with 200 findings: whole lines made 796 MB of output
    // and memory; now each snippet is a window of at most 120 columns.
    let filler = format!("<summary>{}</summary>", "s".repeat(10_000));
    let mut text = String::from(FEED_START);
    for n in 0..200 {
        text.push_str(&format!(
            "<entry><id>urn:x:{n}</id><updated>never</updated>{filler}</entry>"
        ));
    }
    text.push_str("</feed>");
    let path = generated("long-line.atom", |out| out.write_all(text.as_bytes()).unwrap());
    let run = lint_as("text", &path);
    eprintln!("{}: {:.2} s, {} MiB peak", path.display(), run.seconds, run.peak_mib);
    assert_eq!(run.code, 1, "{}", run.stderr);
    // 100 findings kept, then one for the rest; the text shows the first
    // of the 100 in full and lists the places of the other 99.
    assert_eq!(
        run.stdout.matches("error[invalid-date]").count(),
        2,
        "the first of a repeated defect, then one for those not kept"
    );
    assert!(run.stdout.contains("and 99 more like this, at 1:"), "{}", run.stdout);
    assert!(run.stdout.len() < 200 * 1500, "{} bytes of output", run.stdout.len());
    let widest = run.stdout.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(widest < 200, "a line of {widest} columns");
    // The 100th finding's place, listed with its real column; the snippet
    // of the finding for those not kept, far along the line, is cut.
    let last_at = text.match_indices("never").nth(99).unwrap().0 + 1;
    assert!(
        run.stdout.contains(&format!("… 1:{last_at} (")),
        "{}",
        &run.stdout[run.stdout.len().saturating_sub(2000)..]
    );
    assert!(run.stdout.contains("…"), "cut lines are marked");
    assert!(run.peak_mib < RULE_MEBIBYTES, "{} MiB", run.peak_mib);
}

#[test]
fn a_hundred_thousand_alternate_links_in_one_entry() {
    // Each alternate link is compared with those before it by type and
    // hreflang: past a few, through a map, not the list of all of them.
    let path = generated("alternates.atom", |out| {
        out.write_all(FEED_START.as_bytes()).unwrap();
        out.write_all(b"<entry><id>urn:x:1</id><title>t</title><updated>2024-01-01T00:00:00Z</updated>")
            .unwrap();
        for n in 0..100_000 {
            write!(out, "<link hreflang=\"x-{n}\" href=\"/{n}\"/>").unwrap();
        }
        out.write_all(b"<link hreflang=\"x-7\" href=\"/again\"/></entry></feed>")
            .unwrap();
    });
    check_rule_shape(&path, "error[atom-duplicate-alternate]");
}

#[test]
fn a_hundred_thousand_titles_in_one_entry() {
    // Each copy of a once-only element is paired with the first, kept per
    // container, not looked for again.
    let path = generated("titles.atom", |out| {
        out.write_all(FEED_START.as_bytes()).unwrap();
        out.write_all(b"<entry><id>urn:x:1</id><updated>2024-01-01T00:00:00Z</updated><link href=\"/\"/>")
            .unwrap();
        out.write_all("<title>t</title>".repeat(100_000).as_bytes()).unwrap();
        out.write_all(b"</entry></feed>").unwrap();
    });
    check_rule_shape(&path, "error[atom-duplicate-element]");
}

#[test]
fn fifty_thousand_nested_relative_xml_bases() {
    // Each level's base is its parent's with "aa/" added: built for every
    // level, the bases take memory quadratic in the depth (26,000 levels
    // once took 1.1 GB); only the references resolved build theirs, and the
    // rest is known by its kind. A link at every level, and one whose
    // authority cannot join, keep the base rules at work.
    let depth = 50_000;
    let path = generated("nested-bases.atom", |out| {
        out.write_all(FEED_START.as_bytes()).unwrap();
        out.write_all(b"<x:e xmlns:x=\"urn:x\">").unwrap();
        for _ in 0..depth {
            out.write_all(b"<x:e xml:base=\"aa/\"><link href=\"b\"/>").unwrap();
        }
        out.write_all(b"<link href=\"//example.org:99999/\"/>").unwrap();
        out.write_all("</x:e>".repeat(depth).as_bytes()).unwrap();
        out.write_all(b"</x:e></feed>").unwrap();
    });
    let run = check(&path, "error[unresolvable-relative-iri]");
    assert!(run.peak_mib < 256, "{} MiB", run.peak_mib);
}

#[test]
fn a_hundred_thousand_skip_hours_and_items_with_one_guid() {
    // Values named twice and guids seen before are found through sets, not
    // by looking at every earlier one.
    let path = generated("rss-repeats.rss", |out| {
        out.write_all(b"<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description><skipHours>")
            .unwrap();
        for n in 0..100_000 {
            write!(out, "<hour>{}</hour>", n % 24).unwrap();
        }
        out.write_all(b"</skipHours>").unwrap();
        for _ in 0..100_000 {
            out.write_all(b"<item><title>t</title><guid>https://example.org/1</guid></item>")
                .unwrap();
        }
        out.write_all(b"</channel></rss>").unwrap();
    });
    let run = check_rule_shape(&path, "error[rss-invalid-guid]");
    assert!(run.stdout.contains("error[rss-invalid-schedule]"), "{}", run.stdout);
}

#[test]
fn fifty_thousand_items_each_with_every_profile_and_value_finding() {
    // Each item fires the per-item rules of the profile and the RSS value
    // rules at once, and a channel element follows every item: each rule
    // reads each item once, and one finding names the elements after the
    // items however many there are.
    let path = generated("rss-every-finding.rss", |out| {
        out.write_all(b"<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" xmlns:slash=\"http://purl.org/rss/1.0/modules/slash/\"><channel><title>t</title><link>https://example.org/</link><description>d</description>").unwrap();
        for _ in 0..50_000 {
            out.write_all(b"<item><title>&lt;b&gt;t&lt;/b&gt;</title><author>a@example.org</author><pubDate>Wed, 03 Jun 2003 09:39:21 GMT</pubDate><content:encoded>c</content:encoded><slash:comments>1</slash:comments></item><ttl>1</ttl>").unwrap();
        }
        out.write_all(b"</channel></rss>").unwrap();
    });
    let run = check_rule_shape(&path, "warning[rss-item-missing-guid]");
    for rule in [
        "rss-markup-in-plain-text",
        "rss-contact-missing-name",
        "rss-wrong-day-name",
        "rss-content-without-description",
    ] {
        assert!(run.stdout.contains(&format!("warning[{rule}]")), "{rule}");
    }
    assert_eq!(
        run.stdout.matches("warning[rss-item-before-channel-element]").count(),
        1
    );
    assert_eq!(
        run.stdout.matches("warning[rss-comments-without-build-date]").count(),
        1
    );
}

#[test]
fn fifty_thousand_entries_each_with_every_atom_finding_of_issue_40() {
    let path = generated("atom-every-finding.atom", |out| {
        out.write_all(b"<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:app=\"http://www.w3.org/2007/app\"><title>t</title><id>urn:x:feed</id><updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>").unwrap();
        for n in 0..50_000 {
            write!(out, "<entry><id>urn:x:{n}</id><title t=\"1\">t</title><updated>2024-01-01T00:00:00Z</updated><link href=\"https://example.org/\" target=\"_blank\"/><category term=\"a\" scheme=\"/c\"/><content type=\"application/xml\">x<y xmlns=\"\"/></content><source><app:edited>2024-01-01T00:00:00Z</app:edited></source></entry>").unwrap();
        }
        out.write_all(b"</feed>").unwrap();
    });
    let run = check_rule_shape(&path, "error[atom-relative-category-scheme]");
    for rule in [
        "warning[atom-undefined-attribute]",
        "warning[atom-xml-content-not-a-document]",
        "info[app-element-misplaced]",
    ] {
        assert!(run.stdout.contains(rule), "{rule}");
    }
}

/// The namespaces a podcast declares, on `<rss>`.
const PODCAST_RSS_START: &str = "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><title>t</title><link>https://example.org/</link><description>d</description>";

/// An episode's part of each per-episode iTunes and value finding: a show's
/// tag in the episode, a title given twice with spaces, a link over 255
/// characters, a three-letter country, a custom license without its URL,
/// an `.mp4` typed as no format Apple takes.
const EVERY_ITUNES_FINDING: &str = concat!(
    "<itunes:category text=\"T\"/><itunes:title> t </itunes:title><itunes:title>u</itunes:title>",
    "<link>https://example.org/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</link>",
    "<podcast:location country=\"USA\">x</podcast:location><podcast:license>custom</podcast:license>",
    "<enclosure url=\"https://example.org/2.mp4\" length=\"1\" type=\"video/x-mp4\"/>",
);

#[test]
fn twenty_five_thousand_episodes_each_with_every_podcast_finding() {
    // Each episode fires each per-episode podcast rule, and all share one
    // media file: each rule reads each episode once, and the file is
    // looked up, not compared with every earlier episode's.
    let path = generated("podcast-every-finding.rss", |out| {
        out.write_all(PODCAST_RSS_START.as_bytes()).unwrap();
        for _ in 0..25_000 {
            out.write_all(b"<item><title>e</title><itunes:explicit>maybe</itunes:explicit><itunes:duration>1:99:00</itunes:duration><itunes:episode>-1</itunes:episode><enclosure url=\"https://example.org/1.ogg\" length=\"1\" type=\"audio/mpeg\"/><podcast:person role=\"presenter\">p</podcast:person><podcast:transcript url=\"http://example.org/t\"/><podcast:images srcset=\"https://example.org/i.jpg 600w\"/>").unwrap();
            out.write_all(EVERY_ITUNES_FINDING.as_bytes()).unwrap();
            out.write_all(b"</item>").unwrap();
        }
        out.write_all(b"</channel></rss>").unwrap();
    });
    let run = check_rule_shape(&path, "error[podcast-missing-element]");
    for rule in [
        "warning[itunes-invalid-explicit]",
        "warning[itunes-invalid-duration]",
        "error[itunes-invalid-number]",
        "warning[itunes-unsupported-enclosure]",
        "warning[podcast-enclosure-type-mismatch]",
        "warning[podcast-duplicate-enclosure]",
        "warning[podcast-unknown-person-role]",
        "error[podcast-missing-attribute]",
        "error[podcast-url-not-https]",
        "warning[podcast-deprecated-tag]",
        "warning[itunes-misplaced-element]",
        "warning[itunes-repeated-element]",
        "warning[itunes-value-padded]",
        "warning[itunes-value-too-long]",
        "error[podcast-invalid-value]",
    ] {
        assert!(run.stdout.contains(rule), "{rule}");
    }
    // The recommended elements of all the episodes are one finding.
    assert_eq!(run.stdout.matches("warning[podcast-missing-recommended]").count(), 2);
}

#[test]
fn ten_thousand_people_and_ten_thousand_value_recipients() {
    // Each person's role and group is looked up in the taxonomy, and each
    // recipient's split read once.
    let path = generated("podcast-people.rss", |out| {
        out.write_all(PODCAST_RSS_START.as_bytes()).unwrap();
        for _ in 0..10_000 {
            out.write_all(b"<podcast:person group=\"talent\" role=\"presenter\">Jane Doe</podcast:person>")
                .unwrap();
        }
        out.write_all(b"<podcast:value type=\"lightning\" method=\"keysend\">")
            .unwrap();
        for _ in 0..10_000 {
            out.write_all(b"<podcast:valueRecipient name=\"n\" type=\"node\" address=\"02d5c1bf\" split=\"half\"/>")
                .unwrap();
        }
        out.write_all(b"</podcast:value></channel></rss>").unwrap();
    });
    let run = check_rule_shape(&path, "warning[podcast-unknown-person-role]");
    assert!(run.stdout.contains("error[podcast-invalid-value]"), "{}", run.stdout);
}

#[test]
fn a_thousand_page_chain_with_a_guid_on_two_pages_each() {
    // Pages of one paged podcast, each next and previous of its
    // neighbours, the last naming a page that is not there, and every
    // other page's episode guid reused with another file: pages are looked
    // up by URL, and each guid once.
    let dir = scratch("paged-chain");
    for n in 0..1_000 {
        std::fs::write(
            dir.join(format!("page{n}.rss")),
            format!(
                "{PODCAST_RSS_START}<atom:link rel=\"self\" href=\"page{n}.rss\"/><atom:link rel=\"first\" href=\"page0.rss\"/>{}<atom:link rel=\"next\" href=\"page{}.rss\"/><item><title>e</title><guid>ep-{}</guid><enclosure url=\"https://example.org/{n}.mp3\" length=\"1\" type=\"audio/mpeg\"/></item></channel></rss>",
                if n > 0 { format!("<atom:link rel=\"previous\" href=\"page{}.rss\"/>", n - 1) } else { String::new() },
                n + 1,
                n / 2,
            ),
        )
        .unwrap();
    }
    let run = check_rule_shape(&dir, "error[paging-guid-reused]");
    assert!(run.stdout.contains("error[paging-link-dangling]"), "{}", run.stdout);
}

#[test]
fn twenty_thousand_suppressions_naming_unknown_ids() {
    // Each unknown id gets a "did you mean", measured against every rule
    // id: once per distinct id, within a bound on the distance, and only
    // for the findings shown (the rest are folded into one).
    let path = generated("unknown-ids.atom", |out| {
        out.write_all(FEED_START.as_bytes()).unwrap();
        for n in 0..20_000 {
            write!(
                out,
                "<!-- feedlint-disable-next unknown-rule-{} --><x:e xmlns:x=\"urn:x\"/>",
                n % 5_000
            )
            .unwrap();
        }
        out.write_all(b"</feed>").unwrap();
    });
    let run = check_rule_shape(&path, "warning[unused-suppression]");
    assert!(
        run.stdout.contains("19900 more unused-suppression findings"),
        "{}",
        run.stdout
    );
}

#[test]
fn fifty_thousand_findings_written_as_sarif_and_json() {
    // The writers read the report's findings as they write them: SARIF
    // once built a JSON value of the whole log first, several times the
    // size of the findings (608 MiB for these).
    let path = generated("fifty-thousand-guids.rss", |out| {
        out.write_all(b"<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description>\n").unwrap();
        for n in 0..50_000 {
            writeln!(out, "<item><title>i</title><guid>item-{n}</guid></item>").unwrap();
        }
        out.write_all(b"</channel></rss>").unwrap();
    });
    for format in ["sarif", "json"] {
        let out = scratch(&format!("fifty-thousand-{format}"));
        let (stdout_path, stderr_path) = (out.join("stdout"), out.join("stderr"));
        let child = Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["--format", format, "--max-per-rule", "0", path.to_str().unwrap()])
            .stdout(File::create(&stdout_path).unwrap())
            .stderr(File::create(&stderr_path).unwrap())
            .spawn()
            .unwrap();
        let (code, _, peak_mib) = wait_measured(child);
        let stdout = std::fs::read_to_string(&stdout_path).unwrap();
        assert_eq!(code, 1, "{}", std::fs::read_to_string(&stderr_path).unwrap());
        assert_eq!(
            stdout.matches("\"rss-invalid-guid\"").count(),
            50_000 + usize::from(format == "sarif")
        );
        assert!(peak_mib < 256, "{format}: {peak_mib} MiB");
        let _ = std::fs::remove_dir_all(out);
    }
}

#[test]
fn twenty_thousand_folders_each_placed_by_its_self_link_with_a_dangling_link() {
    // Every folder is published somewhere else (a learned tree each), and
    // every feed names a missing archive: the placements, the URL of each
    // file and link target, and the help for each dangling link are looked
    // up, never searched for among the others.
    let dir = scratch("twenty-thousand-sites");
    for n in 0..20_000 {
        let folder = dir.join(format!("site{n}"));
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(
            folder.join("feed.atom"),
            format!(
                "{FEED_START}<link rel=\"self\" href=\"https://host{n}.example/feed.atom\"/>\
                 <link rel=\"prev-archive\" href=\"archive/missing.atom\"/></feed>"
            ),
        )
        .unwrap();
    }
    let run = run_measured(
        &dir,
        &["--format", "concise", "--max-findings", "0", dir.to_str().unwrap()],
    );
    let seconds = run.seconds;
    eprintln!("twenty thousand sites: {seconds:.2} s of CPU");
    let stdout = run.stdout;
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.contains("warning[archive-link-dangling]"))
            .count(),
        20_000
    );
    assert!(seconds < SECONDS, "{seconds:.1} s");
    let _ = std::fs::remove_dir_all(dir);
}

/// A feed of `size` bytes of entries, each with three findings (a bad
/// date, a missing title, a missing alternate link).
fn entries_with_findings(name: &str, size: usize) -> PathBuf {
    bulk(
        name,
        size,
        FEED_START,
        "<entry><id>urn:x:1</id><updated>yesterday</updated></entry>\n",
        "</feed>",
    )
}

/// Runs feedlint with `args` on `path` alone, measured.
fn lint_with(args: &[&str], path: &Path) -> Run {
    let mut all = args.to_vec();
    all.push(path.to_str().unwrap());
    run_measured(path, &all)
}

#[test]
fn max_findings_bounds_memory_inside_one_document() {
    // 20 MB: about a million findings when every one is kept (1.1 GB at
    // peak, when the cap was spent only after they were all built).
    let path = entries_with_findings("many-findings.atom", 20 * 1024 * 1024);
    let run = lint_with(
        &["--format", "json", "--max-findings", "10", "--max-per-rule", "0"],
        &path,
    );
    eprintln!("{}: {:.2} s, {} MiB peak", path.display(), run.seconds, run.peak_mib);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), 10);
    assert!(
        report["summary"]["dropped"].as_u64().unwrap() > 900_000,
        "{}",
        report["summary"]
    );
    // Measured: 110 MiB with every rule off, 200 MiB with the cap, 1.3 GB
    // without it (release build).
    assert!(run.peak_mib < 400, "{} MiB", run.peak_mib);
}

#[test]
fn findings_past_max_findings_are_counted_as_if_they_were_built() {
    // Small enough to keep every finding: the counts of a capped run are
    // those of a full one, and the findings kept are its first.
    let path = entries_with_findings("counted-findings.atom", 200 * 1024);
    let full = lint_with(
        &["--format", "json", "--max-findings", "0", "--max-per-rule", "0"],
        &path,
    );
    let capped = lint_with(
        &["--format", "json", "--max-findings", "25", "--max-per-rule", "0"],
        &path,
    );
    let (full, capped): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&full.stdout).unwrap(),
        serde_json::from_str(&capped.stdout).unwrap(),
    );
    for level in ["errors", "warnings", "infos"] {
        assert_eq!(full["summary"][level], capped["summary"][level], "{level}");
    }
    let all = full["diagnostics"].as_array().unwrap();
    let kept = capped["diagnostics"].as_array().unwrap();
    assert_eq!(kept.len(), 25);
    assert_eq!(kept[..], all[..25]);
    assert_eq!(capped["summary"]["dropped"].as_u64().unwrap(), all.len() as u64 - 25);
}

#[test]
fn a_hundred_thousand_media_urls_with_check_media() {
    // Each episode names a file of its own: each is gathered, counted and
    // looked up once, and only --max-media of them are asked (here at a
    // loopback address that the policy refuses without connecting: no
    // request leaves the process).
    let path = generated("media-urls.rss", |out| {
        out.write_all(PODCAST_RSS_START.as_bytes()).unwrap();
        out.write_all(b"<itunes:image href=\"http://127.0.0.1:9/art.jpg\"/>")
            .unwrap();
        for n in 0..100_000 {
            write!(out, "<item><title>e</title><enclosure url=\"http://127.0.0.1:9/{n}.mp3\" length=\"{n}\" type=\"audio/mpeg\"/></item>").unwrap();
        }
        out.write_all(b"</channel></rss>").unwrap();
    });
    let run = run_measured(
        &path,
        &[
            "--format",
            "concise",
            "--check-media",
            "--max-media",
            "50",
            path.to_str().unwrap(),
        ],
    );
    eprintln!("{}: {:.2} s, {} MiB peak", path.display(), run.seconds, run.peak_mib);
    assert!(run.seconds < RULE_SECONDS, "{:.1} s", run.seconds);
    assert!(run.peak_mib < RULE_MEBIBYTES, "{} MiB", run.peak_mib);
    assert_eq!(run.stdout.matches("[media-unreachable]").count(), 50, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("the media check stopped at 50 URLs (--max-media); 99951 more media URLs"),
        "{}",
        run.stderr
    );
}

/// A loopback server that answers every request for a media file the same
/// way: an MP3 of 5 bytes that takes byte ranges. Its base URL.
fn media_server() -> String {
    use std::io::Read as _;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut request = [0u8; 4096];
            let read = stream.read(&mut request).unwrap_or(0);
            let head = request.starts_with(b"HEAD");
            let ranged = request[..read].windows(6).any(|w| w.eq_ignore_ascii_case(b"range:"));
            let (status, body) = if ranged {
                ("206 Partial Content", "a")
            } else {
                ("200 OK", "aaaaa")
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: audio/mpeg\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\nContent-Range: bytes 0-0/5\r\nConnection: close\r\n\r\n{}",
                body.len(),
                if head { "" } else { body }
            );
        }
    });
    base
}

#[test]
fn one_media_url_named_at_fifty_thousand_places_spends_max_findings() {
    // Each place writes a type and a length its server contradicts: two
    // findings a place, 100,000 in all. They spend --max-findings as they
    // are made, so the run holds what it shows and counts the rest: its
    // peak is the peak of the same run without the media check, give or
    // take. (It was 4.4 times that: every finding was made first.)
    let base = media_server();
    let path = generated("one-media-url.rss", |out| {
        out.write_all(PODCAST_RSS_START.as_bytes()).unwrap();
        for _ in 0..50_000 {
            write!(out, "<item><title>e</title><enclosure url=\"{base}/episode.mp3\" length=\"999\" type=\"video/mp4\"/></item>").unwrap();
        }
        out.write_all(b"</channel></rss>").unwrap();
    });
    let file = path.to_str().unwrap();
    // The media rules alone, unfolded: every finding is one of the places'.
    let common = [
        "--format",
        "json",
        "--select",
        "media",
        "--max-per-rule",
        "0",
        "--max-findings",
        "1000",
        "--allow-private-addresses",
    ];
    let without = run_measured(&path, &[&common[..], &[file]].concat());
    let with = run_measured(&path, &[&common[..], &["--check-media", file]].concat());
    eprintln!(
        "one media URL at 50,000 places: {} MiB without the media check, {} MiB with it, {:.2} s of CPU",
        without.peak_mib, with.peak_mib, with.seconds
    );
    let report: serde_json::Value = serde_json::from_str(&with.stdout).unwrap();
    let summary = &report["summary"];
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), 1000, "{summary}");
    assert!(with.stdout.contains("\"media-type-mismatch\""), "{summary}");
    // Every finding is counted, kept or not: two a place.
    let total: u64 = ["errors", "warnings", "infos"]
        .iter()
        .map(|level| summary[level].as_u64().unwrap())
        .sum();
    assert_eq!(total, 100_000, "{summary}");
    assert_eq!(summary["dropped"], 99_000, "{summary}");
    assert!(with.seconds < RULE_SECONDS, "{:.1} s", with.seconds);
    assert!(
        with.peak_mib < without.peak_mib + without.peak_mib / 2 + 32,
        "{} MiB with the media check, {} MiB without",
        with.peak_mib,
        without.peak_mib
    );
}

#[test]
fn fifty_thousand_near_miss_spellings_of_the_itunes_namespace() {
    // Each episode declares the iTunes namespace spelt its own way and uses
    // it: each spelling is read as the namespace and found at its
    // declaration by hashing, not by comparing every spelling with every
    // declaration.
    let path = generated("near-miss-spellings.rss", |out| {
        out.write_all(PODCAST_RSS_START.as_bytes()).unwrap();
        for i in 0..50_000u32 {
            let cased: String = "itunes.com/dtds/podcast"
                .chars()
                .filter(char::is_ascii_alphabetic)
                .enumerate()
                .map(|(k, c)| if i >> k & 1 == 1 { c.to_ascii_uppercase() } else { c })
                .collect();
            let (host, rest) = cased.split_at(6);
            let (domain, rest) = rest.split_at(3);
            let (dtds, podcast) = rest.split_at(4);
            write!(
                out,
                "<item xmlns:i{i}=\"http://www.{host}.{domain}/{dtds}/{podcast}-1.0.dtd\"><title>e</title><i{i}:explicit>no</i{i}:explicit></item>"
            )
            .unwrap();
        }
        out.write_all(b"</channel></rss>").unwrap();
    });
    let run = check_rule_shape(&path, "warning[extension-namespace-near-miss]");
    // The legacy value on every episode is one finding, whatever each
    // episode's spelling.
    assert_eq!(run.stdout.matches("warning[itunes-explicit-legacy]").count(), 1);
}

#[test]
fn fifty_thousand_episodes_with_one_legacy_explicit_value() {
    // One finding, whose one fix holds an edit for every episode.
    let unit = "<item><title>e</title><itunes:explicit>no</itunes:explicit></item>";
    let path = bulk(
        "legacy-explicit.rss",
        50_000 * unit.len(),
        PODCAST_RSS_START,
        unit,
        "</channel></rss>",
    );
    let run = check_rule_shape(&path, "warning[itunes-explicit-legacy]");
    assert_eq!(run.stdout.matches("warning[itunes-explicit-legacy]").count(), 1);
}

#[test]
fn a_thousand_page_json_feed_chain() {
    // JSON Feed pages by next_url, the last naming a page that is not
    // there, each page with its own feed_url and the item id of the page
    // before with another url: pages are looked up by URL, each id once.
    let dir = scratch("json-chain");
    for n in 0..1_000 {
        std::fs::write(
            dir.join(format!("page{n}.json")),
            format!(
                "{{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"t\", \"feed_url\": \"https://example.org/page{n}.json\", \"next_url\": \"https://example.org/page{}.json\", \"items\": [{{\"id\": \"item-{}\", \"url\": \"https://example.org/{n}\", \"content_text\": \"x\"}}]}}",
                n + 1,
                n / 2,
            ),
        )
        .unwrap();
    }
    let run = check_rule_shape(&dir, "error[json-feed-item-id-reused]");
    assert!(run.stdout.contains("error[paging-link-dangling]"), "{}", run.stdout);
    assert!(run.stdout.contains("warning[json-feed-url-mismatch]"), "{}", run.stdout);
}

#[test]
fn a_json_string_of_thirty_two_megabytes() {
    // One content_html of escapes: unescaped once, located once.
    let path = generated("long-string.json", |out| {
        out.write_all(b"{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"t\", \"items\": [{\"id\": \"1\", \"date_published\": \"yesterday\", \"content_html\": \"")
            .unwrap();
        for _ in 0..(32 * 1024 * 1024 / 20) {
            out.write_all(b"caf\\u00e9 \\\"r\\\"\\n   ").unwrap();
        }
        out.write_all(b"\"}]}").unwrap();
    });
    check_rule_shape(&path, "error[json-feed-invalid-date]");
}

#[test]
fn sixty_thousand_hubs_and_selves_in_one_head() {
    // WebSub's checks gather a head's links once: two self URLs are found
    // by the first that differs, hubs compared as sets. (The head's links
    // themselves, 120,000 of them, are most of the memory, with or without
    // the websub rules: 190 MiB for 100,000 pairs either way.)
    let path = generated("websub.atom", |out| {
        out.write_all(FEED_START.as_bytes()).unwrap();
        for n in 0..60_000 {
            write!(
                out,
                "<link rel=\"hub\" href=\"mailto:hub{n}@example.net\"/><link rel=\"self\" href=\"https://example.org/{n}.atom\"/>"
            )
            .unwrap();
        }
        out.write_all(b"</feed>").unwrap();
    });
    let run = check_rule_shape(&path, "error[websub-invalid-hub]");
    assert!(run.stdout.contains("warning[websub-multiple-self]"), "{}", run.stdout);
}

#[test]
fn a_batch_of_thousands_keeps_memory_flat() {
    // Batch mode reads its list as it lints it and drops each report once
    // its record is written: ten times the inputs, the same peak. Every
    // input is a loopback address whose port answers nothing (no traffic
    // leaves the machine).
    let mut peaks = Vec::new();
    for count in [400, 4_000] {
        let list = scratch(&format!("batch-{count}")).join("list.txt");
        let text: String = (0..count)
            .map(|n| format!("http://127.0.0.{}:9/feed-{n}.xml\n", 1 + n % 250))
            .collect();
        std::fs::write(&list, text).unwrap();
        let run = run_measured(&list, &["--urls-from", list.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout.lines().count(), count, "a record per input");
        peaks.push(run.peak_mib);
    }
    assert!(
        peaks[1] <= peaks[0] + 8,
        "peak memory grew with the list: {peaks:?} MiB"
    );
}

#[test]
fn one_description_of_a_hundred_thousand_relative_links() {
    // Every link of one escaped description is a finding placed inside the
    // escaped text: the places are found in one pass over the text, keeping
    // only the links' (a map of every decoded byte was 8 bytes a byte).
    let head =
        "<rss version=\"2.0\"><channel><title>t</title><link>https://example.org/</link><description>d</description>\
                <item><title>i</title><link>https://example.org/i</link><description>";
    let unit = "&lt;a href=&quot;/p?a=1&amp;amp;b=2&quot;&gt;x&lt;/a&gt; ";
    let path = bulk(
        "escaped-links.rss",
        100_000 * unit.len(),
        head,
        unit,
        "</description></item></channel></rss>",
    );
    check_rule_shape(&path, "info[content-relative-link]");
}

#[test]
fn a_site_feed_of_fifty_thousand_links_to_files_that_are_not_there() {
    // Each link of a published tree is looked for on disk once (the file,
    // its index.html, its .html): time linear in the links, whatever they
    // name.
    let head = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><id>tag:example.org,2024:f</id>\
                <updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>\
                <entry><title>e</title><id>tag:example.org,2024:e</id><updated>2024-01-01T00:00:00Z</updated>\
                <content type=\"html\">";
    let path = generated("site-links.atom", |out| {
        out.write_all(head.as_bytes()).unwrap();
        for n in 0..50_000 {
            write!(out, "&lt;img src=\"/images/{n}.png\"&gt;").unwrap();
        }
        out.write_all(b"</content></entry></feed>").unwrap();
    });
    let folder = path.parent().unwrap().to_str().unwrap().to_owned();
    let run = run_measured(
        &path,
        &[
            "--format",
            "concise",
            "--base-url",
            "https://example.org/",
            "--max-per-rule",
            "0",
            &folder,
        ],
    );
    eprintln!(
        "{}: {:.2} s of CPU, {} MiB peak",
        path.display(),
        run.seconds,
        run.peak_mib
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert_eq!(run.stdout.matches("info[content-link-missing]").count(), 50_000);
    assert!(run.seconds < RULE_SECONDS, "{:.1} s", run.seconds);
    assert!(run.peak_mib < RULE_MEBIBYTES, "{} MiB", run.peak_mib);
}

#[test]
fn a_site_of_ten_thousand_pages_each_advertising_feeds_that_are_not_there() {
    // Every page of a published tree advertises the same relative link
    // (one layout: one finding, whatever the pages) and one link of its
    // own that leads nowhere (a finding each): the pages are grouped by
    // link in one pass, and each target is looked for on disk once.
    let path = generated("feed.atom", |out| {
        write!(
            out,
            "{FEED_START}<link rel=\"self\" href=\"https://example.org/feed.atom\"/></feed>"
        )
        .unwrap();
    });
    let folder = path.parent().unwrap();
    for n in 0..10_000 {
        let page = folder.join(format!("posts/{n}/index.html"));
        std::fs::create_dir_all(page.parent().unwrap()).unwrap();
        std::fs::write(
            &page,
            format!(
                "<!DOCTYPE html><html><head><link rel=\"alternate\" type=\"application/atom+xml\" href=\"feed.atom\">\
                 <link rel=\"alternate\" type=\"application/rss+xml\" href=\"/gone/{n}.xml\"></head></html>"
            ),
        )
        .unwrap();
    }
    std::fs::write(
        folder.join("index.html"),
        "<!DOCTYPE html><html><head><link rel=\"alternate\" type=\"application/atom+xml\" href=\"feed.atom\"></head></html>",
    )
    .unwrap();
    let folder = folder.to_str().unwrap().to_owned();
    let run = run_measured(&path, &["--format", "concise", "--max-per-rule", "0", &folder]);
    eprintln!("{folder}: {:.2} s of CPU, {} MiB peak", run.seconds, run.peak_mib);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert_eq!(run.stdout.matches("error[discovery-relative-link]").count(), 1);
    assert_eq!(run.stdout.matches("error[discovery-link-dangling]").count(), 10_000);
    assert!(run.seconds < RULE_SECONDS, "{:.1} s", run.seconds);
    assert!(run.peak_mib < RULE_MEBIBYTES, "{} MiB", run.peak_mib);
}
