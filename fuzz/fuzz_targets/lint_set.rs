//! Several documents linted together (split at SEPARATOR), so that the
//! set rules walk whatever links the fuzzer makes.
#![no_main]

use libfuzzer_sys::fuzz_target;

const SEPARATOR: &[u8] = b"\n<!--next-document-->\n";

fuzz_target!(|data: &[u8]| {
    let mut documents = Vec::new();
    let mut rest = data;
    let mut n = 0;
    loop {
        let end = rest
            .windows(SEPARATOR.len())
            .position(|w| w == SEPARATOR)
            .unwrap_or(rest.len());
        let name = if n == 0 {
            "index.atom".to_owned()
        } else {
            format!("{n}.atom")
        };
        documents.push(feedlint::InMemory {
            url: Some(format!("https://example.org/{name}")),
            name,
            bytes: rest[..end].to_vec(),
        });
        n += 1;
        if end == rest.len() || n == 16 {
            break;
        }
        rest = &rest[end + SEPARATOR.len()..];
    }
    feedlint::lint_in_memory(documents, &["https://example.org/"], &feedlint::Options::default()).unwrap();
});
