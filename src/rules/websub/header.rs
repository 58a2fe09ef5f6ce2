//! The `Link` header of a fetched document (RFC 8288 §3), as far as
//! WebSub reads it: each link's target and its `rel` parameter.
//!
//! Hand-written rather than a crate: `parse_link_header` (0.4) returns a
//! map keyed by relation, so of two `rel="hub"` links one is lost, and
//! WebSub names several hubs; `http-link` (1.0.1, 2021, "naive") is not
//! kept. The grammar WebSub needs is one loop over one header per fetched
//! document.

use url::Url;

/// The `hub` and `self` links a `Link` header names, resolved against the
/// URL the document was fetched from.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct HeaderLinks {
    pub hubs: Vec<Url>,
    pub selves: Vec<Url>,
}

/// At most this many links are read from a document's headers: a header is
/// bounded by the HTTP library, but a response may repeat it.
const MOST_LINKS: usize = 64;

impl HeaderLinks {
    /// The links of every `Link` header `values` hold.
    pub fn parse(values: &[String], base: &Url) -> HeaderLinks {
        let mut links = HeaderLinks::default();
        let mut read = 0;
        for value in values {
            let mut rest = value.as_str();
            while let Some((_, opened)) = rest.split_once('<') {
                let Some((target, closed)) = opened.split_once('>') else {
                    break;
                };
                // The parameters run to the next link: a comma outside quotes.
                let (params, next) = closed.split_at_checked(parameters_end(closed)).unwrap_or((closed, ""));
                rest = next;
                read += 1;
                if read > MOST_LINKS {
                    return links;
                }
                let Ok(target) = base.join(target.trim()) else { continue };
                for rel in relations(params) {
                    if rel.eq_ignore_ascii_case("hub") {
                        links.hubs.push(target.clone());
                    } else if rel.eq_ignore_ascii_case("self") {
                        links.selves.push(target.clone());
                    }
                }
            }
        }
        links
    }

    pub fn is_empty(&self) -> bool {
        self.hubs.is_empty() && self.selves.is_empty()
    }
}

/// Where a link's parameters end: at the first comma outside a quoted
/// string, or at the end.
fn parameters_end(params: &str) -> usize {
    let mut quoted = false;
    let mut escaped = false;
    for (at, c) in params.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => return at,
            _ => {}
        }
    }
    params.len()
}

/// The relation types of a link's `rel` parameter (RFC 8288 §3.3: a
/// space-separated list, quoted or a single token).
fn relations(params: &str) -> Vec<&str> {
    for param in params.split(';') {
        let Some((name, value)) = param.split_once('=') else {
            continue;
        };
        if name.trim().eq_ignore_ascii_case("rel") {
            return value.trim().trim_matches('"').split_ascii_whitespace().collect();
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(values: &[&str]) -> HeaderLinks {
        let base = Url::parse("https://example.org/blog/feed.xml").unwrap();
        HeaderLinks::parse(&values.iter().map(|v| v.to_string()).collect::<Vec<_>>(), &base)
    }

    #[test]
    fn hubs_and_self_in_one_header_or_several() {
        let links = parse(&[r#"<https://hub.example.net/>; rel="hub", </blog/feed.xml>; rel="self""#]);
        assert_eq!(links.hubs, [Url::parse("https://hub.example.net/").unwrap()]);
        assert_eq!(links.selves, [Url::parse("https://example.org/blog/feed.xml").unwrap()]);
        let links = parse(&["<https://a.example/>; rel=hub", "<https://b.example/>; rel=\"hub\""]);
        assert_eq!(links.hubs.len(), 2);
        assert!(links.selves.is_empty());
    }

    #[test]
    fn quoted_commas_lists_of_relations_and_other_links() {
        let links =
            parse(&[r#"<https://example.org/a>; title="a, b"; rel="alternate", <https://h.example/>; rel="hub self""#]);
        assert_eq!(links.hubs, [Url::parse("https://h.example/").unwrap()]);
        assert_eq!(links.selves, links.hubs);
        assert!(parse(&["<https://example.org/>; rel=\"preload\""]).is_empty());
        assert!(parse(&["not a link header", "<unclosed"]).is_empty());
    }

    #[test]
    fn a_header_of_many_links_is_read_to_a_bound() {
        let many = vec!["<https://h.example/>; rel=hub"; 1000].join(", ");
        assert_eq!(parse(&[&many]).hubs.len(), MOST_LINKS);
    }
}
