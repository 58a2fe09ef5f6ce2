//! Limits and remedies, named by what they are. A finding that says a run
//! stopped at a limit, or what a person can do about it, says so through a
//! [`Wording`], and each front door words them itself: the command line
//! names its flags (`raise --max-time`), the web page the server's fixed
//! numbers, an editor and the library's own callers plain words. No text
//! of the library names a flag.

/// A bound a run works within, and stops at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// The largest file read.
    FileSize,
    /// The most documents a walk fetches.
    Documents,
    /// The largest body a request reads.
    Bytes,
    /// How long one request may take.
    Timeout,
    /// How long a walk, with its media check, may take.
    Time,
    /// The most redirects one request follows.
    Redirects,
    /// The most media URLs a check asks.
    Media,
    /// A walk that stays on its start URL's origin.
    SameOrigin,
    /// Addresses a walk's links may not lead to: private, local, reserved.
    PrivateAddresses,
}

/// What a person can do, said as help (or, where noted, as part of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// A file too large to read that is a feed: raise the file size.
    ReadLargerFiles,
    /// A walk stopped at a limit (time or documents): follow the rest.
    FollowWholeChain(Limit),
    /// A document not fetched at a limit of one request: fetch it anyway.
    FetchLegitimateDocument(Limit),
    /// A walk's link that leads to a refused address.
    LintRefusedDocumentAlone,
    /// A media URL that leads to a refused address.
    AllowMediaAddress,
    /// A media server that gave no answer in time.
    WaitForServer,
    /// A media check stopped at its limits: check every file.
    CheckEveryMedia,
    /// A relative reference with nothing to resolve it against.
    GiveDocumentUrl,
    /// The self links of a folder disagree on where it is published.
    AgreeOnPlace,
    /// Part of a help: what publishes the files where they are (after "if
    /// not, ").
    PublishWhereTheyAre,
    /// Part of a note: the base URL, as the person gave it.
    BaseUrlGiven,
    /// Part of a help: how to check a feed as a podcast as it is (after "to
    /// check it as one as it is, ").
    SelectPodcastGroup,
    /// Findings of a rule past the most shown: see them all.
    SeeEveryFinding,
    /// Part of a warning: links that lead outside the linted tree, read.
    ReadOutsideTree,
}

/// How a front door says limits and remedies.
pub trait Wording: std::fmt::Debug + Send + Sync {
    /// A limit where a sentence names it ("no complete answer within
    /// {limit}", "the body is larger than {limit}").
    fn limit(&self, limit: Limit) -> String;

    /// What follows a value a limit gave, in the sentence that states it
    /// ("the walk stopped after 60 seconds{aside}"): a flag in
    /// parentheses, or nothing.
    fn aside(&self, limit: Limit) -> String;

    /// A remedy, in words.
    fn remedy(&self, remedy: Remedy) -> String;

    /// A connection the address policy refused: `what` (the address and
    /// its class) and the `rule` that refused it.
    fn refused(&self, what: &str, rule: &str) -> String {
        format!("{what}: {rule}{}", self.aside(Limit::PrivateAddresses))
    }
}

/// Plain words, naming no flag: an editor's, and the library's callers'
/// unless they give their own.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Plain {
    fn name(limit: Limit) -> &'static str {
        match limit {
            Limit::FileSize => "the file size limit",
            Limit::Documents => "the limit of documents",
            Limit::Bytes => "the size limit of a response",
            Limit::Timeout => "the time limit of a request",
            Limit::Time => "the time limit",
            Limit::Redirects => "the limit of redirects",
            Limit::Media => "the limit of media URLs",
            Limit::SameOrigin => "the start URL's origin",
            Limit::PrivateAddresses => "the address policy",
        }
    }
}

impl Wording for Plain {
    fn limit(&self, limit: Limit) -> String {
        Plain::name(limit).to_owned()
    }

    fn aside(&self, _: Limit) -> String {
        String::new()
    }

    fn remedy(&self, remedy: Remedy) -> String {
        match remedy {
            Remedy::ReadLargerFiles => "raise the file size limit if the file is a legitimate feed".to_owned(),
            Remedy::FollowWholeChain(limit) => format!("raise {} to follow the whole chain", Plain::name(limit)),
            Remedy::FetchLegitimateDocument(limit) => {
                format!("raise {} if the document is legitimate", Plain::name(limit))
            }
            Remedy::LintRefusedDocumentAlone => {
                "lint that document by its own URL if you trust it, or allow private addresses".to_owned()
            }
            Remedy::AllowMediaAddress => {
                "a feed's links may not lead feedlint to a private or reserved address; allow private addresses if the address is yours".to_owned()
            }
            Remedy::WaitForServer => "check that the server answers, or raise the time limit of a request".to_owned(),
            Remedy::CheckEveryMedia => {
                "raise the limit of media URLs or the time limit to check every file".to_owned()
            }
            Remedy::GiveDocumentUrl => {
                "give the document's URL, add an xml:base, or write an absolute IRI".to_owned()
            }
            Remedy::AgreeOnPlace => {
                "make the self links of the folder agree on where it is published, or give the base URL".to_owned()
            }
            Remedy::PublishWhereTheyAre => {
                "give the base URL and root folder that publish the files where they are".to_owned()
            }
            Remedy::BaseUrlGiven => "the base URL".to_owned(),
            Remedy::SelectPodcastGroup => "select the group podcast by name".to_owned(),
            Remedy::SeeEveryFinding => {
                "fix the findings shown and lint again, or show every finding of a rule".to_owned()
            }
            Remedy::ReadOutsideTree => "name the folder as the root to read them".to_owned(),
        }
    }
}
