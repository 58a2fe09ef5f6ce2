//! A web page of a linted tree, as the run keeps it: only what its head
//! says of the site's feeds (`<link rel="alternate">`), for the
//! `discovery` rules, which judge it against the feeds of the run.

use crate::base::html::PageHead;
use crate::findings::diagnostic::Location;
use crate::findings::source::Locator;
use crate::model::summary::Located;

/// A page's feed advertisements, located in its text.
#[derive(Debug, Clone)]
pub struct Page {
    /// Its `<base href>`, as written: relative links resolve against it.
    pub base: Option<String>,
    pub advertised: Vec<Advertisement>,
    /// Its `<head>` (else `<html>`) start tag, or its start: where a
    /// finding about the whole page points.
    pub head: Location,
}

/// One `<link rel="alternate">` of a feed's type.
#[derive(Debug, Clone)]
pub struct Advertisement {
    /// The `href` as written (`&amp;` read as `&`), at its value.
    pub href: Located<String>,
    /// The `type`, in lower case, at its value.
    pub media_type: Located<String>,
}

impl Page {
    /// The page whose head `head` read, located through `at`.
    pub fn of(head: PageHead, at: &mut Locator<'_>) -> Page {
        let head_at = head.head_at.clone().unwrap_or(0..0);
        let advertised = head
            .advertised
            .into_iter()
            .map(|link| Advertisement {
                href: Located {
                    value: link.href,
                    span: at.locate(link.href_at),
                },
                media_type: Located {
                    value: link.media_type,
                    span: at.locate(link.type_at),
                },
            })
            .collect();
        Page {
            base: head.base,
            advertised,
            head: at.locate(head_at),
        }
    }

    /// Every place a finding may point at, for the text format's snippets.
    pub fn places(&self) -> impl Iterator<Item = crate::text::snippet::Place> + '_ {
        std::iter::once(self.head.start_place()).chain(
            self.advertised
                .iter()
                .flat_map(|link| [link.href.span.start_place(), link.media_type.span.start_place()]),
        )
    }
}
