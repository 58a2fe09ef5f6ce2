//! Text values with where they are written, and `xml:base` as it applies.

use std::ops::Range;
use std::sync::Arc;

use url::Url;

use super::start_tag;
use crate::xml::Node;

/// The base URI in scope for an element: the document URL, then every
/// `xml:base` from the root down (XML Base §4.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base {
    Known(Url),
    /// No `xml:base` in scope and the document has no URL.
    Missing,
    /// An `xml:base` in scope could not be resolved; `at` is its value.
    Broken {
        at: Range<usize>,
    },
}

/// What the rules need to know of the base URI in scope without building
/// it. An element under many nested relative `xml:base`s has a base as
/// long as all of them together: building it for every element would take
/// time and memory quadratic in the depth, so only references that are
/// resolved (links, tombstones) build theirs ([`FeedDoc::base`]); the
/// others ask for this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaseKind {
    /// No `xml:base` in scope and the document has no URL.
    Missing,
    /// An `xml:base` in scope could not be resolved; `at` is its value.
    Broken { at: Range<usize> },
    /// A hierarchical URL of this scheme: every relative path, query or
    /// fragment joins onto it.
    Hierarchical { scheme: Arc<str> },
    /// A URL that is not hierarchical (`urn:`, `mailto:`, `tag:`): an
    /// absolute `xml:base` or the document's URL, never longer than that.
    Opaque(Arc<Url>),
}

impl BaseKind {
    pub fn of(base: &Base) -> BaseKind {
        match base {
            Base::Missing => BaseKind::Missing,
            Base::Broken { at } => BaseKind::Broken { at: at.clone() },
            Base::Known(url) if url.cannot_be_a_base() => BaseKind::Opaque(Arc::new(url.clone())),
            Base::Known(url) => BaseKind::Hierarchical {
                scheme: url.scheme().into(),
            },
        }
    }

    /// Whether a reference joins onto this base: a network-path reference
    /// (`//host/...`) brings an authority of its own, which must make a URL
    /// with the base's scheme.
    pub fn joins(&self, reference: &str) -> bool {
        match self {
            BaseKind::Hierarchical { scheme } if reference.starts_with("//") => {
                Url::parse(&format!("{scheme}:{reference}")).is_ok()
            }
            BaseKind::Hierarchical { .. } => true,
            _ => false,
        }
    }
}

/// An element's text, trimmed, and where it stands in the document.
#[derive(Debug, Clone)]
pub struct Text<'a> {
    pub value: &'a str,
    /// The trimmed text, or the start tag of an empty element.
    pub range: Range<usize>,
}

impl<'a> Text<'a> {
    /// Whether the text stands in `input` as it reads (no references, no
    /// CDATA): then a place inside the value is a place in the document.
    pub fn is_written_plainly(&self, input: &str) -> bool {
        input.get(self.range.clone()) == Some(self.value)
    }

    pub fn of(node: Node<'a, '_>) -> Text<'a> {
        let Some(child) = node.first_child().filter(Node::is_text) else {
            return Text {
                value: "",
                range: start_tag(node),
            };
        };
        let value = child.text().unwrap_or_default().trim();
        if value.is_empty() {
            return Text {
                value,
                range: start_tag(node),
            };
        }
        let input = node.tree().input_text();
        // Text written plainly is a slice of the document: its place is
        // where the slice is. Decoded text (references, CDATA) is placed
        // by trimming what is written.
        let offset = (value.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
        let range = if offset <= input.len() && value.len() <= input.len() - offset {
            offset..offset + value.len()
        } else {
            let range = child.range();
            let raw = &input[range.clone()];
            let lead = raw.len() - raw.trim_start().len();
            let trail = raw.len() - raw.trim_end().len();
            range.start + lead..range.end - trail
        };
        Text { value, range }
    }
}

/// The text of the first child element of `parent` with this name.
pub fn child_text<'a>(parent: Node<'a, '_>, namespace: Option<&str>, name: &str) -> Option<Text<'a>> {
    parent
        .children()
        .find(|n| n.has_tag_name(namespace, name))
        .map(Text::of)
}
