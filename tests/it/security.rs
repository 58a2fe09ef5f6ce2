//! What a hostile file, folder, feed or peer must not make feedlint do:
//! overwrite files it was not asked to fix, print a secret the user gave,
//! send terminal controls or forged report lines, hang, or grow without
//! bound. Each test sets up the attack in a scratch folder of its own.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;
use common::{scratch, stderr, stdout};

/// A feed with a safe fix (a misspelt relation) and nothing else wrong.
const FIXABLE: &str = "testsuite/rules/link-relation-typo/fail-typos.atom";

fn feedlint(args: &[&str]) -> Output {
    feedlint_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn feedlint_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn fixable_copy(dir: &Path) -> PathBuf {
    let feed = dir.join("feed.atom");
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXABLE), &feed).unwrap();
    feed
}

fn text(path: &Path) -> String {
    fs::read_to_string(path).unwrap()
}

/// A pid a process started now is likely to get: the one after the last
/// process started.
fn next_pid() -> u32 {
    Command::new("true").spawn().unwrap().id()
}

#[test]
fn fix_never_writes_through_a_planted_temporary_file_link() {
    let dir = scratch("planted-link");
    let elsewhere = scratch("planted-link-victim");
    let victim = elsewhere.join("secret.txt");
    fs::write(&victim, "not a feed\n").unwrap();
    fs::set_permissions(&victim, fs::Permissions::from_mode(0o600)).unwrap();
    let feed = fixable_copy(&dir);
    // Whoever can write in the feed's folder plants links at the names a
    // temporary file beside it could take (one scheme named them after
    // the process id).
    let first = next_pid();
    for pid in first..first + 3000 {
        std::os::unix::fs::symlink(&victim, dir.join(format!(".feed.atom.feedlint-fix-{pid}"))).unwrap();
    }
    let output = feedlint(&["--fix", "--format", "concise", "--exit-zero", feed.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(text(&victim), "not a feed\n", "the victim was overwritten");
    assert_eq!(
        fs::metadata(&victim).unwrap().mode() & 0o777,
        0o600,
        "the victim's mode changed"
    );
    assert!(!text(&feed).contains("rel=\"prev-achive\""), "the feed was not fixed");
    assert!(fs::symlink_metadata(&feed).unwrap().file_type().is_file());
}

#[test]
fn fix_keeps_the_mode_and_owner_of_the_file() {
    let dir = scratch("fix-mode");
    let feed = fixable_copy(&dir);
    fs::set_permissions(&feed, fs::Permissions::from_mode(0o640)).unwrap();
    let before = fs::metadata(&feed).unwrap();
    let output = feedlint(&["--fix", "--exit-zero", feed.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let after = fs::metadata(&feed).unwrap();
    assert_ne!(
        text(&feed),
        text(Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXABLE).as_path())
    );
    assert_eq!(after.mode() & 0o7777, 0o640);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    // No temporary file is left beside it.
    let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["feed.atom"]);
}

/// Runs `--fix` on `named` and says what was refused; nothing may change.
fn refused_fix(named: &Path, original: &Path) -> String {
    let before = text(original);
    let output = feedlint(&["--fix", "--exit-zero", named.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(text(original), before, "a refused file changed");
    let said = stderr(&output);
    assert!(said.contains("applied 0 fixes to 0 files"), "{said}");
    said
}

#[test]
fn fix_refuses_a_symbolic_link_and_leaves_it_a_link() {
    let dir = scratch("fix-symlink");
    let target = fixable_copy(&dir);
    let link = dir.join("link.atom");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let said = refused_fix(&link, &target);
    assert!(said.contains("is a symbolic link to"), "{said}");
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
}

#[test]
fn fix_refuses_a_file_with_other_hard_links() {
    let dir = scratch("fix-hard-link");
    let feed = fixable_copy(&dir);
    let other = dir.join("other-name.txt");
    fs::hard_link(&feed, &other).unwrap();
    let said = refused_fix(&feed, &other);
    assert!(said.contains("has 2 hard links"), "{said}");
    assert_eq!(fs::metadata(&feed).unwrap().ino(), fs::metadata(&other).unwrap().ino());
}

#[test]
fn fix_leaves_a_read_only_file_alone() {
    let dir = scratch("fix-read-only");
    let feed = fixable_copy(&dir);
    fs::set_permissions(&feed, fs::Permissions::from_mode(0o444)).unwrap();
    let said = refused_fix(&feed, &feed);
    assert!(said.contains("is read-only"), "{said}");
    assert_eq!(fs::metadata(&feed).unwrap().mode() & 0o777, 0o444);
}

/// Every output format, and standard error, of a run with `args`.
fn every_format(dir: &Path, args: &[&str]) -> Vec<(String, String)> {
    ["text", "concise", "json", "json-lines", "sarif", "github"]
        .into_iter()
        .map(|format| {
            let mut all = vec!["--format", format];
            all.extend_from_slice(args);
            let output = feedlint_in(dir, &all);
            (format.to_owned(), format!("{}{}", stdout(&output), stderr(&output)))
        })
        .collect()
}

fn assert_no_secret(outputs: &[(String, String)]) {
    for (format, output) in outputs {
        assert!(!output.contains("SECRET"), "{format} shows the password:\n{output}");
    }
}

#[test]
fn a_password_in_the_base_url_is_never_printed() {
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/site");
    let outputs = every_format(
        &site,
        &[
            "--base-url",
            "http://dave:SECRET@example.org/",
            "--color",
            "always",
            ".",
        ],
    );
    // The URL is shown, with its password masked.
    let concise = &outputs[1].1;
    assert!(concise.contains("http://dave:***@example.org/"), "{concise}");
    assert_no_secret(&outputs);
}

#[test]
fn a_password_in_a_config_or_url_option_is_never_printed() {
    let dir = scratch("config-password");
    fs::create_dir(dir.join("site")).unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/site/feed/index.atom"),
        dir.join("site/index.atom"),
    )
    .unwrap();
    fs::write(
        dir.join("feedlint.toml"),
        "base-url = \"https://dave:SECRET@example.org/\"\n",
    )
    .unwrap();
    let outputs = every_format(&dir, &["site"]);
    // The missing archive is named by its path, as the user names files;
    // no URL with the password is made up for it.
    assert!(
        outputs[1].1.contains("prev-archive names site/archive/2024-02.atom"),
        "{}",
        outputs[1].1
    );
    assert_no_secret(&outputs);
    assert_no_secret(&every_format(
        &dir,
        &["--url", "https://dave:SECRET@example.org/index.atom", "site/index.atom"],
    ));
    // Invalid URLs are echoed masked, and said to be invalid.
    fs::write(
        dir.join("feedlint.toml"),
        "base-url = \"https://dave:SECRET@exa mple.org/\"\n",
    )
    .unwrap();
    let said = stderr(&feedlint_in(&dir, &["site"]));
    assert!(said.contains("dave:***@exa mple.org"), "{said}");
    fs::write(dir.join("feedlint.toml"), "base-url = \"//dave:SECRET@example.org/\"\n").unwrap();
    let said = stderr(&feedlint_in(&dir, &["site"]));
    assert!(
        said.contains("//dave:***@example.org") && !said.contains("SECRET"),
        "{said}"
    );
    for args in [
        ["--base-url", "http://dave:SECRET@exa mple.org/", "site"],
        ["--url", "http://dave:SECRET@exa mple.org/", "site/index.atom"],
        ["http://dave:SECRET@exa mple.org/", "--quiet", "--exit-zero"],
        ["--base-url", "//dave:SECRET@example.org/", "site"],
        ["--url", "//dave:SECRET@example.org/index.atom", "site/index.atom"],
    ] {
        let output = feedlint_in(&dir, &args);
        assert_eq!(output.status.code(), Some(2));
        let said = stderr(&output);
        assert!(!said.contains("SECRET") && said.contains("dave:***@"), "{said}");
        assert!(!said.contains("not both"), "{said}");
    }
}

/// Bytes a terminal obeys: ESC sequences (a title, a screen clear, a
/// colour), BEL, a C1 CSI, and a right-to-left override.
const TERMINAL_CONTROLS: [&str; 7] = [
    "\u{1b}", "\u{7}", "\u{9b}", "\u{202e}", "\u{85}", "\u{2028}", "\u{2029}",
];

#[test]
fn snippets_show_terminal_controls_escaped() {
    let dir = scratch("terminal-controls");
    let feed = dir.join("feed.atom");
    // C1 controls and bidi controls are characters XML allows; ESC and BEL
    // are not, and the malformed-XML finding shows them in its snippet.
    fs::write(
        &feed,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>\u{9b}2J\u{85}t\u{202e}ltfi\u{2028}x\u{2029}</title>\n<link rel=\"prev_archive\" href=\"a\u{9b}31m.atom\"/></feed>\n",
    )
    .unwrap();
    let escaped = dir.join("escape.atom");
    fs::write(
        &escaped,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>\u{1b}]0;PWNED\u{7}\u{1b}[2J</title></feed>\n",
    )
    .unwrap();
    for file in [&feed, &escaped] {
        for format in ["text", "concise"] {
            for color in ["always", "never"] {
                let output = feedlint(&["--format", format, "--color", color, file.to_str().unwrap()]);
                let shown = stdout(&output);
                // The colours of --color always are feedlint's own: ESC [ ... m.
                let without_colours = regex_free_colours(&shown);
                for control in TERMINAL_CONTROLS {
                    assert!(
                        !without_colours.contains(control),
                        "{format} shows {control:?} raw:\n{shown}"
                    );
                }
            }
        }
    }
    let text = stdout(&feedlint(&["--color", "never", escaped.to_str().unwrap()]));
    assert!(text.contains("<title>\\u{001B}]0;PWNED\\u{0007}"), "{text}");
    // The column is the document's, and the marker stands under the escape.
    assert!(text.contains("escape.atom:1:50"), "{text}");
    let marker_line = text.lines().find(|l| l.contains('^')).unwrap();
    let snippet_line = text.lines().find(|l| l.contains("PWNED")).unwrap();
    let at = |line: &str, what: &str| line[..line.find(what).unwrap()].chars().count();
    assert_eq!(at(marker_line, "^"), at(snippet_line, "\\u{001B}"), "{text}");
}

/// `shown` without the SGR colour sequences feedlint itself writes.
fn regex_free_colours(shown: &str) -> String {
    let mut out = String::new();
    let mut rest = shown;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match after.find(|c: char| !(c.is_ascii_digit() || c == ';')) {
            Some(end) if after[end..].starts_with('m') => rest = &after[end + 1..],
            _ => {
                out.push_str("\u{1b}[");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn a_file_name_cannot_forge_report_lines() {
    let dir = scratch("forged-name");
    let name = "x\n::error file=forged.atom,line=1::FORGED\ny\r.atom";
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXABLE), dir.join(name)).unwrap();
    for format in ["text", "concise", "github"] {
        let output = feedlint_in(&dir, &["--format", format, "--color", "never", "."]);
        let shown = stdout(&output);
        assert!(shown.contains("prev_archive"), "{format}: {shown}");
        for line in shown.lines() {
            assert!(!line.starts_with("::error"), "{format} forged a command:\n{shown}");
            assert!(
                !line.starts_with("y\r.atom") && !line.contains('\r'),
                "{format}:\n{shown}"
            );
        }
        let expected = match format {
            "github" => "file=x\\u{000A}%3A%3Aerror file=forged.atom%2Cline=1%3A%3AFORGED\\u{000A}y\\u{000D}.atom,",
            _ => "x\\u{000A}::error file=forged.atom,line=1::FORGED\\u{000A}y\\u{000D}.atom",
        };
        assert!(shown.contains(expected), "{format}:\n{shown}");
    }
    // JSON keeps the name as it is, escaped as JSON.
    let json = common::json(&feedlint_in(&dir, &["--format", "json", "."]));
    assert_eq!(json["diagnostics"][0]["file"].as_str().unwrap(), format!("./{name}"));
    // And a diff's header shows it escaped too.
    let diff = stdout(&feedlint_in(&dir, &["--diff", "."]));
    assert!(diff.lines().all(|l| !l.starts_with("::error")), "{diff}");
}

/// What a link, a file name or a folder name may smuggle into a line:
/// line feed, carriage return, escape, bell, and the Unicode line and
/// paragraph separators, percent-encoded in hrefs and raw in names.
const SMUGGLED: [(&str, char); 6] = [
    ("%0A", '\n'),
    ("%0D", '\r'),
    ("%1B", '\u{1b}'),
    ("%07", '\u{7}'),
    ("%E2%80%A8", '\u{2028}'),
    ("%E2%80%A9", '\u{2029}'),
];

#[test]
fn link_paths_file_names_and_folder_names_cannot_forge_lines_in_any_format() {
    let dir = scratch("forged-links");
    // A folder and a file whose names hold every smuggled character, and
    // an archive whose links name files through each encoded one.
    let raw: String = SMUGGLED.iter().map(|(_, c)| *c).collect();
    let folder = dir.join(format!("d{raw}::error file=README.md,line=1::FOLDER"));
    fs::create_dir(&folder).unwrap();
    let links: String = SMUGGLED
        .iter()
        .enumerate()
        .map(|(n, (encoded, _))| {
            let rel = if n % 2 == 0 { "prev-archive" } else { "next-archive" };
            format!("<link rel=\"{rel}\" href=\"./x{encoded}::error%20file=README.md,line=1::FORGED{n}.atom\"/>\n")
        })
        .collect();
    let feed = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:fh=\"http://purl.org/syndication/history/1.0\">{}<fh:archive/>\n{links}<link rel=\"current\" href=\"c%0A%1B[2J.atom\"/></feed>\n",
        common::ATOM_HEAD
    );
    fs::write(folder.join(format!("f{raw}.atom")), feed).unwrap();
    for (format, output) in every_format(&dir, &["--color", "never", "."]) {
        assert!(output.contains("FORGED"), "{format} does not name the links:\n{output}");
        for line in output.lines() {
            assert!(
                !line.starts_with("::error file=README.md"),
                "{format} forged a command:\n{output}"
            );
            assert!(!line.starts_with("::stop-commands"), "{format}:\n{output}");
        }
        for (_, smuggled) in SMUGGLED.iter().filter(|(_, c)| *c != '\n') {
            assert!(
                !output.contains(*smuggled),
                "{format} shows {smuggled:?} raw:\n{output}"
            );
        }
        // A line feed ends only a line of the format's own.
        if matches!(format.as_str(), "text" | "concise" | "github") {
            assert!(
                output
                    .lines()
                    .all(|line| !line.contains("::FORGED") || !line.starts_with("::error file=README")),
                "{format}:\n{output}"
            );
            assert!(!output.contains("\n::error file=README.md"), "{format}:\n{output}");
        }
        // Where a person reads it, the name is there, escaped.
        if matches!(format.as_str(), "text" | "concise") {
            assert!(
                output.contains("x\\u{000A}::error file=README.md,line=1::FORGED0"),
                "{format}:\n{output}"
            );
            assert!(
                output.contains("d\\u{000A}\\u{000D}\\u{001B}\\u{0007}\\u{2028}\\u{2029}::error"),
                "{format}:\n{output}"
            );
        }
    }
}

#[test]
fn the_report_is_never_written_through_a_link_and_goes_to_a_device() {
    let dir = scratch("output-link");
    let feed = fixable_copy(&dir);
    let victim = dir.join("victim.txt");
    fs::write(&victim, "precious\n").unwrap();
    // A checkout may hold a committed link at the report's name.
    std::os::unix::fs::symlink(&victim, dir.join("feedlint.sarif")).unwrap();
    for format in ["sarif", "json", "text", "concise", "json-lines", "github"] {
        let output = feedlint_in(
            &dir,
            &[
                "--format",
                format,
                "--output-file",
                "feedlint.sarif",
                feed.to_str().unwrap(),
            ],
        );
        assert_eq!(output.status.code(), Some(2), "{format}: {}", stderr(&output));
        assert!(stderr(&output).contains("symbolic link"), "{}", stderr(&output));
        assert_eq!(text(&victim), "precious\n", "{format} wrote through the link");
        assert!(fs::symlink_metadata(dir.join("feedlint.sarif"))
            .unwrap()
            .file_type()
            .is_symlink());
    }
    // A report is written whole under a new name, then put in place: a
    // file that was there keeps its mode.
    let report = dir.join("report.json");
    fs::write(&report, "old").unwrap();
    fs::set_permissions(&report, fs::Permissions::from_mode(0o640)).unwrap();
    let output = feedlint_in(&dir, &["--format", "json", "-o", "report.json", feed.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(text(&report).contains("\"diagnostics\""));
    assert_eq!(fs::metadata(&report).unwrap().mode() & 0o777, 0o640);
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().contains("feedlint-report"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A device is written in place, and the run's status is its findings'.
    for format in ["sarif", "text"] {
        let output = feedlint_in(
            &dir,
            &[
                "--format",
                format,
                "--fail-on",
                "warning",
                "-o",
                "/dev/null",
                feed.to_str().unwrap(),
            ],
        );
        assert_eq!(output.status.code(), Some(1), "{format}: {}", stderr(&output));
    }
}

#[test]
fn the_report_never_replaces_a_linted_file() {
    let dir = scratch("output-onto-input");
    let feed = fixable_copy(&dir);
    let original = text(&feed);
    std::os::unix::fs::symlink(&feed, dir.join("report.txt")).unwrap();
    fs::create_dir(dir.join("walked")).unwrap();
    fs::copy(&feed, dir.join("walked/other.atom")).unwrap();
    let cases: [&[&str]; 5] = [
        &["-o", "feed.atom", "feed.atom"],
        &["--output-file", "./feed.atom", "--format", "json", "feed.atom"],
        &["-o", "report.txt", "feed.atom"],
        &["-o", "walked/other.atom", "walked"],
        &["--fix", "-o", "walked/other.atom", "walked"],
    ];
    for args in cases {
        let output = feedlint_in(&dir, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(
            stderr(&output).contains("a file being linted"),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(text(&feed), original, "{args:?} replaced the feed");
        assert_eq!(
            text(&dir.join("walked/other.atom")),
            original,
            "{args:?} replaced the walked feed"
        );
    }
    // Another file is written as before.
    let output = feedlint_in(&dir, &["-o", "elsewhere.txt", "--exit-zero", "feed.atom"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(text(&dir.join("elsewhere.txt")).contains("link-relation-typo"));
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// Runs feedlint in `dir` and kills it if it does not end within 20 s.
fn feedlint_with_deadline(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() > 20 {
            let _ = child.kill();
            panic!("feedlint {args:?} hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn ignore_files_and_configs_that_are_fifos_are_skipped_with_a_warning() {
    let dir = scratch("fifo-ignore-files");
    fs::create_dir_all(dir.join("site/drafts")).unwrap();
    fixable_copy(&dir.join("site"));
    fs::copy(dir.join("site/feed.atom"), dir.join("site/drafts/draft.atom")).unwrap();
    mkfifo(&dir.join(".gitignore"));
    mkfifo(&dir.join("site/.ignore"));
    mkfifo(&dir.join("feedlint.toml"));
    // A regular ignore file beside them still applies.
    fs::write(dir.join("site/.gitignore"), "drafts/\n").unwrap();
    let output = feedlint_with_deadline(&dir, &["--format", "concise", "--exit-zero", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let (shown, said) = (stdout(&output), stderr(&output));
    assert!(shown.contains("site/feed.atom:"), "{shown}");
    assert!(!shown.contains("drafts"), "{shown}");
    for skipped in [
        "./.gitignore is skipped",
        "site/.ignore is skipped",
        "feedlint.toml is skipped",
    ] {
        assert!(said.contains(skipped), "{said}");
    }
}

#[test]
fn kernel_files_never_hang_a_run() {
    let dir = scratch("kernel-files");
    // A feed that links to a file that blocks when read (as root, the
    // usual case in CI containers), by file: URL and by relative path.
    let depth = "../".repeat(dir.components().count() + 2);
    fs::write(
        dir.join("feed.atom"),
        format!(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">{}<link rel=\"prev-archive\" href=\"file:///proc/kmsg\"/><link rel=\"next-archive\" href=\"{depth}proc/kmsg\"/></feed>",
            common::ATOM_HEAD
        ),
    )
    .unwrap();
    let output = feedlint_with_deadline(&dir, &["--format", "concise", "."]);
    assert!(stdout(&output).contains("feed.atom"), "{}", stderr(&output));
    // A kernel file system named as a directory is not walked, and says so.
    for root in ["/proc", "/sys", "/dev"] {
        let output = feedlint_with_deadline(&dir, &[root]);
        assert_eq!(output.status.code(), Some(2), "{root}");
        assert!(stderr(&output).contains("kernel file system"), "{}", stderr(&output));
    }
}

#[test]
fn a_config_that_is_not_a_small_regular_file_is_refused() {
    let dir = scratch("config-limits");
    fixable_copy(&dir);
    mkfifo(&dir.join("fifo.toml"));
    fs::write(dir.join("big.toml"), format!("# {}\n", "x".repeat(2 * 1024 * 1024))).unwrap();
    for (config, why) in [
        ("/dev/zero", "not a regular file"),
        ("fifo.toml", "not a regular file"),
        ("big.toml", "more than the 1048576"),
    ] {
        let output = feedlint_with_deadline(&dir, &["--config", config, "feed.atom"]);
        assert_eq!(output.status.code(), Some(2), "{config}: {}", stderr(&output));
        assert!(stderr(&output).contains(why), "{config}: {}", stderr(&output));
    }
}

#[test]
fn a_padded_xml_declaration_is_read_whole() {
    let dir = scratch("padded-declaration");
    let padding = " ".repeat(4000);
    let latin1 = [
        format!("<?xml version=\"1.0\"{padding}encoding=\"ISO-8859-1\"?>\n").into_bytes(),
        b"<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>caf\xe9</title></feed>\n".to_vec(),
    ]
    .concat();
    fs::write(dir.join("latin1.atom"), latin1).unwrap();
    fs::write(
        dir.join("unknown.atom"),
        format!(
            "<?xml version=\"1.0\"{padding}encoding=\"klingon\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"/>\n"
        ),
    )
    .unwrap();
    let shown = stdout(&feedlint_in(
        &dir,
        &["--format", "concise", "latin1.atom", "unknown.atom"],
    ));
    assert!(!shown.contains("UTF-8"), "{shown}");
    assert!(
        shown.contains("unknown.atom:1:1: error[xml-malformed] not well-formed XML: unknown encoding \"klingon\""),
        "{shown}"
    );
}

#[test]
fn utf32_is_an_unsupported_encoding_not_a_nul() {
    let dir = scratch("utf32");
    let feed = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title></feed>\n";
    let little: Vec<u8> = std::iter::once('\u{feff}')
        .chain(feed.chars())
        .flat_map(|c| u32::from(c).to_le_bytes())
        .collect();
    let big: Vec<u8> = feed.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect();
    fs::write(dir.join("little.atom"), little).unwrap();
    fs::write(dir.join("big.atom"), big).unwrap();
    let shown = stdout(&feedlint_in(&dir, &["--format", "concise", "."]));
    assert_eq!(
        shown.matches("it is UTF-32, which feedlint does not read").count(),
        2,
        "{shown}"
    );
    assert!(!shown.contains("U+0000"), "{shown}");
}

#[test]
fn concise_totals_that_cannot_be_written_fail_the_run() {
    let feed = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXABLE);
    let run = |stderr: fs::File| {
        Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["--format", "concise", feed.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(stderr)
            .status()
            .unwrap()
            .code()
    };
    // The concise format's totals are its last line, on standard error.
    assert_eq!(run(fs::File::create("/dev/full").unwrap()), Some(2));
    assert_eq!(run(fs::File::create("/dev/null").unwrap()), Some(0));
}

#[test]
fn help_and_version_fail_when_they_cannot_be_written() {
    for flag in ["--help", "--version", "-h", "-V"] {
        let output = Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .arg(flag)
            .stdout(fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{flag}");
        assert!(
            stderr(&output).contains("No space left on device"),
            "{flag}: {}",
            stderr(&output)
        );
        // Written where it can be, they succeed.
        assert_eq!(feedlint(&[flag]).status.code(), Some(0), "{flag}");
    }
}

#[test]
fn no_finding_repeats_a_long_value_whole() {
    let dir = scratch("long-values");
    let big = "x".repeat(200_000);
    let atom = "xmlns=\"http://www.w3.org/2005/Atom\"";
    let head = "<title>t</title><id>tag:e.org,2024:f</id><updated>2024-01-01T00:00:00Z</updated><author><name>a</name></author>";
    let documents = [
        format!("<feed xmlns=\"http://www.w3.org/2005/Atom{big}\"><title>t</title></feed>"),
        format!("<feed xmlns=\"urn:{big}\"/>"),
        format!("<feed {atom} xmlns:fh=\"http://purl.org/syndication/history/1.0{big}\">{head}<fh:archive/></feed>"),
        format!("<feed {atom}>{head}<{big}/></feed>"),
        format!("<feed {atom}>{head}<e{big}></e{big}x></feed>"),
        format!("<feed {atom}>{head}<link rel=\"{big}\" href=\"https://e.org/\"/><link rel=\"next\" href=\"a b{big}\"/></feed>"),
        format!("<feed {atom}>{head}<link rel=\"alternate\" type=\"{big}\" hreflang=\"{big}\" length=\"{big}\" href=\"https://e.org/\"/></feed>"),
        format!("<feed {atom}><title type=\"{big}\">t</title><id>{big} </id><updated>2024-01-01T00:00:00Z{big}</updated><entry xml:lang=\"{big}\"><id>urn:{big}</id><title>t</title><updated>{big}</updated></entry></feed>"),
        format!("<feed {atom} xmlns:at=\"http://purl.org/atompub/tombstones/1.0\">{head}<at:deleted-entry ref=\"{big}\" when=\"{big}\"/></feed>"),
        format!("<feed {atom}>{head}<!-- feedlint-disable-next-line {big} --><link rel=\"self\" href=\"https://e.org/\"/></feed>"),
        format!("<rss version=\"{big}\"><channel><title>t</title><link>{big} x</link><description>d</description><language>{big}</language><{big}/><item><guid>{big} x</guid><pubDate>{big}</pubDate></item></channel></rss>"),
        format!("<?xml version=\"1.0\" encoding=\"{big}\"?><feed {atom}/>"),
        format!("<!DOCTYPE feed [<!ENTITY a \"x\">]><feed {atom}>&{big};</feed>"),
    ];
    for (i, document) in documents.iter().enumerate() {
        fs::write(dir.join(format!("{i}.atom")), document).unwrap();
    }
    for format in ["concise", "text", "json-lines", "github"] {
        let output = feedlint_in(&dir, &["--format", format, "--color", "never", "."]);
        let shown = stdout(&output);
        assert!(shown.lines().count() > documents.len(), "{format}: {shown}");
        for line in shown.lines() {
            // A finding's texts are at most 1,000 characters each; a JSON
            // line holds a few of them.
            assert!(
                line.chars().count() <= 4_000,
                "{format}: a line of {} characters: {}",
                line.len(),
                &line[..300]
            );
        }
    }
}

/// `count` feeds with `per_feed` misspelt relations each (warnings); the
/// last one's are suppressed by one comment.
fn many_findings(dir: &Path, count: usize, per_feed: usize) {
    for i in 0..count {
        let suppress = if i == count - 1 {
            "<!-- feedlint-disable link-relation-typo -->"
        } else {
            ""
        };
        let links = "<link rel=\"frist\" href=\"https://example.org/\"/>".repeat(per_feed);
        fs::write(
            dir.join(format!("{i:05}.atom")),
            format!(
                "<feed xmlns=\"http://www.w3.org/2005/Atom\">{suppress}{}{links}</feed>",
                common::ATOM_HEAD
            ),
        )
        .unwrap();
    }
}

#[test]
fn a_run_keeps_at_most_max_findings_and_counts_the_rest() {
    let dir = scratch("max-findings");
    many_findings(&dir, 300, 20);
    let run = |threads: &str| {
        Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["--format", "json", "--max-findings", "1000", "."])
            .current_dir(&dir)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap()
    };
    let output = run("1");
    // Warnings only: exit 0, and with --fail-on warning the dropped count.
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = common::json(&output);
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), 1000);
    // 299 feeds of 20 findings; the last feed's 20 are suppressed, and its
    // suppression counts as used although its findings were past the cap.
    assert_eq!(report["summary"]["warnings"], 299 * 20);
    assert_eq!(report["summary"]["dropped"], 299 * 20 - 1000);
    assert_eq!(report["summary"]["infos"], 0);
    assert!(common::rules_of(&report).iter().all(|r| r == "link-relation-typo"));
    // The same findings are kept at any number of threads.
    assert_eq!(run("2").stdout, output.stdout);
    let concise = feedlint_in(
        &dir,
        &[
            "--format",
            "concise",
            "--max-findings",
            "1000",
            "--fail-on",
            "warning",
            ".",
        ],
    );
    assert_eq!(concise.status.code(), Some(1));
    let text = feedlint_in(&dir, &["--max-findings", "10", "."]);
    assert!(
        stdout(&text).contains("(5970 more past the first 10 not kept: see --max-findings)"),
        "{}",
        stdout(&text)
    );
}

#[test]
fn documents_read_as_context_spend_no_findings() {
    let dir = scratch("max-findings-context");
    many_findings(&dir, 2, 20);
    // 00000.atom links to 00001.atom, which is read only for the chain.
    let linking = fs::read_to_string(dir.join("00000.atom")).unwrap().replace(
        "<title>t</title>",
        "<title>t</title><link rel=\"prev-archive\" href=\"00001.atom\"/>",
    );
    fs::write(dir.join("00000.atom"), linking).unwrap();
    let report = common::json(&feedlint_in(
        &dir,
        &["--format", "json", "--max-findings", "5", "00000.atom"],
    ));
    assert_eq!(report["summary"]["context"], 1, "{report}");
    let kept = report["diagnostics"].as_array().unwrap().len();
    assert_eq!(kept, 5);
    let total = report["summary"]["warnings"].as_u64().unwrap() + report["summary"]["errors"].as_u64().unwrap();
    // The linked document's 20 findings are not reported, kept or counted.
    assert!(total < 30, "{report}");
    assert_eq!(
        report["summary"]["dropped"].as_u64().unwrap() as usize,
        total as usize - kept
    );
}

#[test]
fn the_report_is_never_written_through_a_linked_folder_of_the_checkout() {
    // A checkout may hold a committed link as a folder on the way to the
    // report's name (`reports/` pointing at the runner's home).
    let dir = scratch("output-linked-folder");
    let feed = fixable_copy(&dir);
    let elsewhere = scratch("output-linked-folder-target");
    std::os::unix::fs::symlink(&elsewhere, dir.join("reports")).unwrap();
    let report = || {
        feedlint_in(
            &dir,
            &[
                "--format",
                "sarif",
                "-o",
                "reports/feedlint.sarif",
                feed.to_str().unwrap(),
            ],
        )
    };
    let output = report();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("reports is a symbolic link, and a report is never written through one"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        fs::read_dir(&elsewhere).unwrap().count(),
        0,
        "nothing was written through the link"
    );
    // The folder itself, named by its real path, takes the report; and a
    // link above the current directory (the machine's own) is taken as it is.
    fs::remove_file(dir.join("reports")).unwrap();
    fs::create_dir(dir.join("reports")).unwrap();
    let output = report();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let above = scratch("output-link-above");
    std::os::unix::fs::symlink(&dir, above.join("checkout")).unwrap();
    let output = feedlint_in(
        &above.join("checkout"),
        &["--format", "sarif", "-o", "reports/again.sarif", feed.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(dir.join("reports/again.sarif").is_file());
}
