//! Where Apple's tags stand and how often: each in the parent Apple's
//! guide gives it, once.

use std::ops::Range;

use crate::base::hash::FastMap;
use crate::feed::start_tag;
use crate::rules::podcast::vocabulary::{itunes_elements, itunes_head};
use crate::rules::shared::{more, report_grouped};
use crate::rules::{rule, Checker, Rule};
use crate::xml::{Node, NodeId};

/// The tags Apple's guide lists under "Show tags" only: their parent is
/// `<channel>`.
const SHOW_ONLY: &[&str] = &["category", "type", "new-feed-url", "complete"];

/// The tags Apple's guide lists under "Episode tags" only: their parent is
/// `<item>`.
const EPISODE_ONLY: &[&str] = &["duration", "episode", "season", "episodeType"];

/// The tags of Apple's guide that say one thing of the show or the
/// episode ("The show title", "The duration of an episode"): all it lists
/// but `itunes:category`, which it lets a show give more than once.
const ONE_EACH: &[&str] = &[
    "title",
    "image",
    "explicit",
    "author",
    "type",
    "new-feed-url",
    "block",
    "complete",
    "duration",
    "episode",
    "season",
    "episodeType",
];

pub static ITUNES_MISPLACED_ELEMENT: Rule = rule!(
    ItunesMisplacedElement, Warning, Doc, Some(itunes_misplaced_element),
    groups: [Itunes],
    summary: "an iTunes tag of the show in an episode (itunes:type in an <item>), or of an episode in the channel (itunes:duration in <channel>)",
    spec: "Apple, A Podcaster's Guide to RSS: Show tags, Episode tags (Parent tag)",
);

/// A warning: the guide gives each tag its parent, with no must; Apple
/// reads the tag there only. Tags the guide lists for both (`itunes:title`,
/// `itunes:image`, `itunes:explicit`, `itunes:block`) and tags it does not
/// list (`itunes:summary`, `itunes:author` in an episode) are not judged.
fn itunes_misplaced_element(cx: &mut Checker) {
    let feed = cx.feed;
    let Some(head) = itunes_head(feed) else {
        return;
    };
    let mut misplaced: Vec<Node> = SHOW_ONLY
        .iter()
        .chain(EPISODE_ONLY)
        .flat_map(|local| itunes_elements(feed, local))
        .filter(|node| (node.parent_element() == Some(head)) != SHOW_ONLY.contains(&node.tag_name().name()))
        .collect();
    misplaced.sort_by_key(|node| node.range().start);
    let places = misplaced
        .into_iter()
        .map(|node| (format!("itunes:{}", node.tag_name().name()), start_tag(node), None))
        .collect();
    // A generator that misplaces a tag does so in every episode: one
    // finding per tag.
    report_grouped(cx, places, |at, written, others| {
        let show_tag = SHOW_ONLY
            .iter()
            .any(|local| written.strip_prefix("itunes:") == Some(*local));
        let (belongs, here, table) = if show_tag {
            ("<channel>", "an episode", "Show tags")
        } else {
            ("<item>", "the channel", "Episode tags")
        };
        Checker::at(at, format!("{written} stands in {here}; Apple reads it in {belongs}{}", more(others)))
            .label("misplaced")
            .note(format!("Apple, A Podcaster's Guide to RSS, lists {written} among its {table}, with the parent tag {belongs}; Apple ignores it elsewhere"))
            .help(format!("move it into {belongs}, or remove it"))
    });
}

pub static ITUNES_REPEATED_ELEMENT: Rule = rule!(
    ItunesRepeatedElement, Warning, Doc, Some(itunes_repeated_element),
    groups: [Itunes],
    summary: "an iTunes tag that says one thing of the show or an episode (itunes:author, itunes:duration), twice in one parent",
    spec: "Apple, A Podcaster's Guide to RSS: Show tags, Episode tags",
);

/// A warning: the guide describes each as one value ("The show title",
/// "The duration of an episode"), with no must on the count; Apple reads
/// one, and which one is its to choose.
fn itunes_repeated_element(cx: &mut Checker) {
    let feed = cx.feed;
    let mut first: FastMap<(NodeId, &str), Range<usize>> = FastMap::default();
    let mut repeats = Vec::new();
    for node in ONE_EACH.iter().flat_map(|local| itunes_elements(feed, local)) {
        let Some(parent) = node.parent_element() else {
            continue;
        };
        let name = node.tag_name().name();
        match first.get(&(parent.id(), name)) {
            Some(at) => repeats.push((node, at.clone())),
            None => {
                first.insert((parent.id(), name), start_tag(node));
            }
        }
    }
    repeats.sort_by_key(|(node, _)| node.range().start);
    // The first repeat is shown beside its first; the others of the same
    // tag (every episode's, as a generator writes them) are counted.
    let shown_first: Vec<(String, Range<usize>)> = repeats
        .iter()
        .map(|(node, at)| (format!("itunes:{}", node.tag_name().name()), at.clone()))
        .collect();
    let places = repeats
        .into_iter()
        .map(|(node, _)| (format!("itunes:{}", node.tag_name().name()), start_tag(node), None))
        .collect();
    report_grouped(cx, places, |at, written, others| {
        let first = shown_first
            .iter()
            .find(|(name, _)| name == written)
            .map(|(_, first)| first.clone())
            .unwrap_or_else(|| at.clone());
        Checker::at(at, format!("a second {written} in one parent{}", more(others)))
            .label("again")
            .secondary(first, "the first")
            .note("Apple, A Podcaster's Guide to RSS, describes each of its tags as one value of the show or the episode (\"The show title\", \"The duration of an episode\"); Apple reads one, and which one is its to choose")
            .help("keep one, and remove the others")
    });
}
