//! Uploads and pastes placed as files are: each document gets a URL in a
//! private upload space (`file:///` and its path in the upload), or below
//! the URL it is published under, so that its relative references
//! resolve and the files find each other as on the command line. No file
//! is read for a document held in memory, whatever its URL says.

use url::Url;

use crate::run::{entry::InMemory, uploads::Upload};

/// Where the upload space starts: documents are named by their path in
/// the upload below it, and a root-relative link (`/archive/1.atom`)
/// starts there too, as it starts at a linted tree's root.
const UPLOAD_SPACE: &str = "file:///";

/// The URL a pasted document is given when nobody said where it is
/// published.
pub(crate) const PASTED: &str = "file:///pasted-document";

/// The path of an uploaded file as its part names it: a file chosen alone
/// by its name, a folder's files by their path in the folder (the folder
/// first). Empty, `.` and `..` segments are dropped, so that no path
/// leaves the upload; `None` if nothing is left.
pub(crate) fn upload_path(name: &str) -> Option<String> {
    let segments: Vec<&str> = name
        .split(['/', '\\'])
        .filter(|segment| !segment.is_empty() && *segment != "." && *segment != "..")
        .collect();
    (!segments.is_empty()).then(|| segments.join("/"))
}

/// Uploaded files, each placed at its path (the folder a folder upload
/// names first is the upload's root: the folder chosen is the tree), below
/// `published` or the upload space; how they were uploaded (see
/// [`Upload`]); and the folder they were placed in.
pub(crate) fn place(files: Vec<(String, Vec<u8>)>, published: Option<&Url>) -> (Vec<InMemory>, Upload, Url) {
    let top = |path: &str| path.split_once('/').map(|(first, _)| first.to_owned());
    let common = files.first().and_then(|(path, _)| top(path));
    let strip = common.filter(|folder| files.iter().all(|(path, _)| top(path).as_ref() == Some(folder)));
    let upload = if files.iter().any(|(path, _)| path.contains('/')) {
        Upload::Folder
    } else if files.len() > 1 {
        Upload::WithoutFolders
    } else {
        Upload::Files
    };
    let base = published
        .map(|url| folder_published_under(url, &files))
        .unwrap_or_else(|| Url::parse(UPLOAD_SPACE).expect("a URL"));
    let documents = files
        .into_iter()
        .map(|(path, bytes)| {
            let within = match &strip {
                Some(folder) => path[folder.len() + 1..].to_owned(),
                None => path,
            };
            InMemory {
                url: url_below(&base, &within).map(String::from),
                name: within,
                bytes,
            }
        })
        .collect();
    // A URL not ending in `/` names the folder it is in.
    let tree = base.join("./").unwrap_or(base);
    (documents, upload, tree)
}

/// The folder "Published under" names, with or without its trailing
/// slash, as the command line's `--base-url` does (`https://example.org/blog`
/// is the folder `blog/`); a URL whose last segment is an uploaded file's
/// name names that file, in the folder it is in.
fn folder_published_under(url: &Url, files: &[(String, Vec<u8>)]) -> Url {
    let last = url
        .path_segments()
        .and_then(|mut segments| segments.next_back())
        .unwrap_or("");
    let names_a_file = !last.is_empty() && files.iter().any(|(path, _)| path.rsplit('/').next() == Some(last));
    if names_a_file {
        url.join("./").unwrap_or_else(|_| url.clone())
    } else {
        let mut folder = url.clone();
        folder.set_query(None);
        folder.set_fragment(None);
        crate::site::published::as_directory(folder)
    }
}

/// The URL of `path` (segments separated by `/`) in the folder `base`
/// names (a URL not ending in `/` names the folder it is in), each segment
/// percent-encoded: a file named `a?b.atom` is no query.
fn url_below(base: &Url, path: &str) -> Option<Url> {
    let mut url = base.clone();
    url.set_query(None);
    url.set_fragment(None);
    {
        let mut segments = url.path_segments_mut().ok()?;
        segments.pop();
        segments.extend(path.split('/'));
    }
    Some(url)
}

/// The URL in the upload space of a document given by name alone (the
/// API's), so that its relative references resolve as a file's do.
pub(crate) fn in_upload_space(name: &str) -> String {
    let path = upload_path(name).unwrap_or_else(|| "document".to_owned());
    let space = Url::parse(UPLOAD_SPACE).expect("a URL");
    url_below(&space, &path).map_or_else(|| PASTED.to_owned(), String::from)
}

/// Whether bytes are no text at all: a NUL among the first bytes of a
/// document that is not UTF-16 (whose ASCII characters are half NULs,
/// and which starts with a byte order mark or `<`).
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    let utf16 = bytes.starts_with(&[0xFE, 0xFF])
        || bytes.starts_with(&[0xFF, 0xFE])
        || bytes.starts_with(&[0, b'<'])
        || bytes.starts_with(&[b'<', 0]);
    !utf16 && bytes.iter().take(8192).any(|&byte| byte == 0)
}

/// A "Published at" URL, which places a paste or an upload: http(s) only.
pub(crate) fn published_url(text: &str) -> Result<Option<Url>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match Url::parse(text) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok(Some(url)),
        Ok(_) => Err(format!(
            "{text} is not an http:// or https:// URL: give the address where the feed is published"
        )),
        Err(error) => Err(format!("{text} is not a URL: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_paths_stay_in_the_upload() {
        assert_eq!(upload_path("feed.atom").as_deref(), Some("feed.atom"));
        assert_eq!(
            upload_path("site/archive/1.atom").as_deref(),
            Some("site/archive/1.atom")
        );
        assert_eq!(upload_path("../../etc/passwd").as_deref(), Some("etc/passwd"));
        assert_eq!(upload_path("C:\\feeds\\a.atom").as_deref(), Some("C:/feeds/a.atom"));
        assert_eq!(upload_path("/./"), None);
    }

    #[test]
    fn a_folder_upload_is_its_own_tree_and_names_are_segments() {
        let files = vec![
            ("chain/index.atom".to_owned(), Vec::new()),
            ("chain/archive/a?b#c.atom".to_owned(), Vec::new()),
        ];
        let (documents, upload, tree) = place(files, None);
        assert_eq!(upload, Upload::Folder);
        assert_eq!(tree.as_str(), "file:///");
        assert_eq!(documents[0].name, "index.atom");
        assert_eq!(documents[0].url.as_deref(), Some("file:///index.atom"));
        assert_eq!(documents[1].url.as_deref(), Some("file:///archive/a%3Fb%23c.atom"));
        let published = Url::parse("https://example.org/feeds/").unwrap();
        let (documents, upload, tree) = place(
            vec![("a.atom".to_owned(), Vec::new()), ("b.atom".to_owned(), Vec::new())],
            Some(&published),
        );
        assert_eq!(upload, Upload::WithoutFolders);
        assert_eq!(tree.as_str(), "https://example.org/feeds/");
        assert_eq!(documents[1].url.as_deref(), Some("https://example.org/feeds/b.atom"));
        // A folder, with its trailing slash or without, as --base-url.
        for typed in ["https://example.org/feeds/", "https://example.org/feeds"] {
            let published = Url::parse(typed).unwrap();
            let (documents, _, tree) = place(vec![("a.atom".to_owned(), Vec::new())], Some(&published));
            assert_eq!(tree.as_str(), "https://example.org/feeds/", "{typed}");
            assert_eq!(
                documents[0].url.as_deref(),
                Some("https://example.org/feeds/a.atom"),
                "{typed}"
            );
        }
        // The URL of an uploaded file names the folder it is in.
        let published = Url::parse("https://example.org/feeds/a.atom").unwrap();
        let (documents, _, tree) = place(
            vec![("a.atom".to_owned(), Vec::new()), ("b.atom".to_owned(), Vec::new())],
            Some(&published),
        );
        assert_eq!(tree.as_str(), "https://example.org/feeds/");
        assert_eq!(documents[1].url.as_deref(), Some("https://example.org/feeds/b.atom"));
    }

    #[test]
    fn binary_files_are_told_from_utf16_feeds() {
        assert!(is_binary(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
        assert!(!is_binary(b"<?xml version=\"1.0\"?><feed/>"));
        assert!(!is_binary(&[0xFF, 0xFE, b'<', 0, b'f', 0]));
        assert!(!is_binary(&[b'<', 0, b'?', 0]));
    }

    #[test]
    fn published_at_takes_http_and_https_only() {
        assert_eq!(published_url(" ").unwrap(), None);
        assert!(published_url("https://example.org/feed").unwrap().is_some());
        assert!(published_url("file:///etc/passwd").is_err());
        assert!(published_url("feed.atom").is_err());
    }
}
