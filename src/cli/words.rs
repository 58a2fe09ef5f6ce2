//! The command line's words for limits and remedies: its flags.

use feedlint::findings::remedy::{Limit, Remedy, Wording};

/// How the command line names limits and remedies: by the flag that
/// changes them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flags;

impl Flags {
    fn flag(limit: Limit) -> &'static str {
        match limit {
            Limit::FileSize => "--max-file-size",
            Limit::Documents => "--max-documents",
            Limit::Bytes => "--max-bytes",
            Limit::Timeout => "--timeout",
            Limit::Time => "--max-time",
            Limit::Redirects => "--max-redirects",
            Limit::Media => "--max-media",
            Limit::SameOrigin => "--same-origin",
            Limit::PrivateAddresses => "--allow-private-addresses",
        }
    }
}

impl Wording for Flags {
    fn limit(&self, limit: Limit) -> String {
        Flags::flag(limit).to_owned()
    }

    fn aside(&self, limit: Limit) -> String {
        match limit {
            Limit::PrivateAddresses => " (--allow-private-addresses lifts this)".to_owned(),
            _ => format!(" ({})", Flags::flag(limit)),
        }
    }

    fn remedy(&self, remedy: Remedy) -> String {
        match remedy {
            Remedy::ReadLargerFiles => "raise --max-file-size if the file is a legitimate feed".to_owned(),
            Remedy::FollowWholeChain(limit) => format!("raise {} to follow the whole chain", Flags::flag(limit)),
            Remedy::FetchLegitimateDocument(limit) => {
                format!("raise {} if the document is legitimate", Flags::flag(limit))
            }
            Remedy::LintRefusedDocumentAlone => {
                "lint that document by its own URL if you trust it, or pass --allow-private-addresses".to_owned()
            }
            Remedy::AllowMediaAddress => "a feed's links may not lead feedlint to a private or reserved address; pass --allow-private-addresses if the address is yours".to_owned(),
            Remedy::WaitForServer => "check that the server answers, or raise --timeout".to_owned(),
            Remedy::CheckEveryMedia => "raise --max-media or --max-time to check every file".to_owned(),
            Remedy::GiveDocumentUrl => {
                "give the document's URL with --url (or --base-url), add an xml:base, or write an absolute IRI".to_owned()
            }
            Remedy::AgreeOnPlace => {
                "make the self links of the folder agree on where it is published, or give --base-url".to_owned()
            }
            Remedy::PublishWhereTheyAre => "give --base-url and --root that publish the files where they are".to_owned(),
            Remedy::BaseUrlGiven => "the base URL (--base-url, or base-url in feedlint.toml)".to_owned(),
            Remedy::SelectPodcastGroup => "select the group by name (--select all,podcast)".to_owned(),
            Remedy::SeeEveryFinding => {
                "fix the findings shown and lint again, or pass --max-per-rule 0 to see every finding".to_owned()
            }
            Remedy::ReadOutsideTree => "name the folder with --root to read them".to_owned(),
        }
    }
}
