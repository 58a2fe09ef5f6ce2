//! The hub check (`--check-hub`): each WebSub hub the linted documents name
//! is asked once, by a `HEAD` request to its URL: a discovery request,
//! never a subscription (no `hub.mode`, no callback). Every request meets
//! the walk's address policy and limits, and at most [`MOST_HUBS`] hubs
//! are asked in a run, one after the other (a run names few hubs, and
//! most name the same one or two).

use std::collections::HashMap;
use url::Url;

use super::http::{Ask, FetchError};
use super::Limits;
use crate::findings::diagnostic::{DocId, Pending, Span};
use crate::findings::remedy::Wording;
use crate::model::summary::Located;
use crate::rules::websub::WEBSUB_HUB_UNREACHABLE;
use crate::settings::options::Walked;

/// The most hubs asked in one run.
pub const MOST_HUBS: usize = 20;

/// The hub check of a run, under the fetching limits.
#[derive(Debug)]
pub struct HubChecker {
    limits: Limits,
}

impl HubChecker {
    pub fn new(limits: Limits) -> Self {
        HubChecker { limits }
    }
}

/// What asking a hub heard, where it says the hub is not there.
fn not_there(answer: Result<u16, FetchError>, words: &dyn Wording) -> Option<String> {
    match answer {
        Ok(status @ (404 | 410 | 500..=599)) => Some(format!("answers HTTP {status}")),
        Ok(_) => None,
        Err(error) => Some(format!("gives no answer: {}", error.describe(words))),
    }
}

impl crate::settings::options::HubCheck for HubChecker {
    fn check(
        &self,
        hubs: &[(DocId, &[Located<Url>])],
        walk: Option<&Walked>,
        words: &dyn Wording,
        found: &mut dyn FnMut((&'static crate::rules::Rule, Pending<Span>)),
    ) {
        // Each hub once, at the first place that names it, in run order.
        let mut first: HashMap<&str, Span> = HashMap::new();
        let mut order: Vec<&Url> = Vec::new();
        for (doc, named) in hubs {
            for hub in named.iter() {
                if !first.contains_key(hub.value.as_str()) {
                    first.insert(hub.value.as_str(), hub.span.in_doc(*doc));
                    order.push(&hub.value);
                }
            }
        }
        let asked = order.len().min(MOST_HUBS);
        let requests = asked.saturating_mul(1 + self.limits.max_redirects as usize);
        let (deadline, client) = super::after_walk(&self.limits, walk, requests);
        for hub in &order[..asked] {
            let answer = client.ask(hub, Ask::Head, deadline).map(|answer| answer.status);
            let Some(why) = not_there(answer, words) else { continue };
            let at = first[hub.as_str()].clone();
            found((
                &WEBSUB_HUB_UNREACHABLE,
                Pending::new(at, format!("the hub {} {why}", crate::base::secret::masked(hub)))
                    .label("this hub")
                    .note("WebSub §5.1: subscribers subscribe by \"making an HTTPS or HTTP POST [RFC7231] request to the hub URL\"; a hub that is not there takes every subscription into nothing")
                    .help("name a hub that runs (or remove the hub link, so readers poll)"),
            ));
        }
    }
}
