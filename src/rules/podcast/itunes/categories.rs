//! Apple's categories (`itunes:category`): the list Apple keeps, and the
//! categories it has retired with the ones that replace them.

use crate::feed::FeedDoc;
use crate::feed::ITUNES_NS;
use crate::findings::diagnostic::shorten;
use crate::findings::fix::{self, Fix};
use crate::rules::podcast::vocabulary::itunes_head;
use crate::rules::{rule, Checker, Rule};
use crate::xml::Node;

/// Apple's categories, each with its subcategories, as Apple writes them
/// (podcasters.apple.com, support article 1691).
const CATEGORIES: &[(&str, &[&str])] = &[
    (
        "Arts",
        &[
            "Books",
            "Design",
            "Fashion & Beauty",
            "Food",
            "Performing Arts",
            "Visual Arts",
        ],
    ),
    (
        "Business",
        &[
            "Careers",
            "Entrepreneurship",
            "Investing",
            "Management",
            "Marketing",
            "Non-Profit",
        ],
    ),
    ("Comedy", &["Comedy Interviews", "Improv", "Stand-Up"]),
    (
        "Education",
        &["Courses", "How To", "Language Learning", "Self-Improvement"],
    ),
    ("Fiction", &["Comedy Fiction", "Drama", "Science Fiction"]),
    ("Government", &[]),
    ("History", &[]),
    (
        "Health & Fitness",
        &[
            "Alternative Health",
            "Fitness",
            "Medicine",
            "Mental Health",
            "Nutrition",
            "Sexuality",
        ],
    ),
    (
        "Kids & Family",
        &["Education for Kids", "Parenting", "Pets & Animals", "Stories for Kids"],
    ),
    (
        "Leisure",
        &[
            "Animation & Manga",
            "Automotive",
            "Aviation",
            "Crafts",
            "Games",
            "Hobbies",
            "Home & Garden",
            "Video Games",
        ],
    ),
    ("Music", &["Music Commentary", "Music History", "Music Interviews"]),
    (
        "News",
        &[
            "Business News",
            "Daily News",
            "Entertainment News",
            "News Commentary",
            "Politics",
            "Sports News",
            "Tech News",
        ],
    ),
    (
        "Religion & Spirituality",
        &[
            "Buddhism",
            "Christianity",
            "Hinduism",
            "Islam",
            "Judaism",
            "Religion",
            "Spirituality",
        ],
    ),
    (
        "Science",
        &[
            "Astronomy",
            "Chemistry",
            "Earth Sciences",
            "Life Sciences",
            "Mathematics",
            "Natural Sciences",
            "Nature",
            "Physics",
            "Social Sciences",
        ],
    ),
    (
        "Society & Culture",
        &[
            "Documentary",
            "Personal Journals",
            "Philosophy",
            "Places & Travel",
            "Relationships",
        ],
    ),
    (
        "Sports",
        &[
            "Baseball",
            "Basketball",
            "Cricket",
            "Fantasy Sports",
            "Football",
            "Golf",
            "Hockey",
            "Rugby",
            "Running",
            "Soccer",
            "Swimming",
            "Tennis",
            "Volleyball",
            "Wilderness",
            "Wrestling",
        ],
    ),
    ("Technology", &[]),
    ("True Crime", &[]),
    (
        "TV & Film",
        &[
            "After Shows",
            "Film History",
            "Film Interviews",
            "Film Reviews",
            "TV Reviews",
        ],
    ),
];

/// The categories Apple retired in 2019, each with the nearest category of
/// today's list: (retired main, retired sub or "" for the main itself,
/// today's main, today's sub or ""). Today's main "" means none is near.
const RETIRED: &[(&str, &str, &str, &str)] = &[
    ("Arts", "Literature", "Arts", "Books"),
    ("Arts & Entertainment", "", "Arts", ""),
    ("Arts & Entertainment", "Architecture", "Arts", "Design"),
    ("Arts & Entertainment", "Design", "Arts", "Design"),
    ("Arts & Entertainment", "Entertainment", "Arts", ""),
    ("Arts & Entertainment", "Games", "Leisure", "Games"),
    ("Arts & Entertainment", "Performing Arts", "Arts", "Performing Arts"),
    ("Arts & Entertainment", "Photography", "Arts", "Visual Arts"),
    ("Arts & Entertainment", "Poetry", "Arts", "Books"),
    ("Arts & Entertainment", "Science Fiction", "Fiction", "Science Fiction"),
    ("Audio Blogs", "", "", ""),
    ("Business", "Finance", "Business", "Investing"),
    ("Business", "Management & Marketing", "Business", "Management"),
    ("Business", "News", "News", "Business News"),
    ("Business", "Shopping", "Business", ""),
    ("Education", "Education Technology", "Education", ""),
    ("Education", "Higher Education", "Education", ""),
    ("Education", "K-12", "Education", ""),
    ("Education", "Language Courses", "Education", "Language Learning"),
    ("Education", "Training", "Education", ""),
    ("Family", "", "Kids & Family", ""),
    ("Food", "", "Arts", "Food"),
    ("Games & Hobbies", "", "Leisure", ""),
    ("Games & Hobbies", "Automotive", "Leisure", "Automotive"),
    ("Games & Hobbies", "Aviation", "Leisure", "Aviation"),
    ("Games & Hobbies", "Hobbies", "Leisure", "Hobbies"),
    ("Games & Hobbies", "Other Games", "Leisure", "Games"),
    ("Games & Hobbies", "Video Games", "Leisure", "Video Games"),
    ("Government & Organizations", "", "Government", ""),
    ("Government & Organizations", "Local", "Government", ""),
    ("Government & Organizations", "National", "Government", ""),
    ("Government & Organizations", "Non-Profit", "Business", "Non-Profit"),
    ("Government & Organizations", "Regional", "Government", ""),
    ("Health", "", "Health & Fitness", ""),
    ("Health", "Alternative Health", "Health & Fitness", "Alternative Health"),
    ("Health", "Diet & Nutrition", "Health & Fitness", "Nutrition"),
    ("Health", "Fitness", "Health & Fitness", "Fitness"),
    ("Health", "Fitness & Nutrition", "Health & Fitness", "Fitness"),
    ("Health", "Relationships", "Society & Culture", "Relationships"),
    ("Health", "Self-Help", "Education", "Self-Improvement"),
    ("Health", "Sexuality", "Health & Fitness", "Sexuality"),
    ("International", "", "", ""),
    ("Movies & Television", "", "TV & Film", ""),
    ("News & Politics", "", "News", ""),
    ("Politics", "", "News", "Politics"),
    ("Public Radio", "", "", ""),
    (
        "Religion & Spirituality",
        "New Age",
        "Religion & Spirituality",
        "Spirituality",
    ),
    (
        "Religion & Spirituality",
        "Other",
        "Religion & Spirituality",
        "Religion",
    ),
    (
        "Religion & Spirituality",
        "Philosophy",
        "Society & Culture",
        "Philosophy",
    ),
    ("Science & Medicine", "", "Science", ""),
    ("Science & Medicine", "Medicine", "Health & Fitness", "Medicine"),
    ("Science & Medicine", "Natural Sciences", "Science", "Natural Sciences"),
    ("Science & Medicine", "Social Sciences", "Science", "Social Sciences"),
    ("Society & Culture", "History", "History", ""),
    ("Sports & Recreation", "", "Sports", ""),
    ("Sports & Recreation", "Amateur", "Sports", ""),
    ("Sports & Recreation", "College & High School", "Sports", ""),
    ("Sports & Recreation", "Outdoor", "Sports", "Wilderness"),
    ("Sports & Recreation", "Professional", "Sports", ""),
    ("Talk Radio", "", "", ""),
    ("Technology", "Computers", "Technology", ""),
    ("Technology", "Developers", "Technology", ""),
    ("Technology", "Gadgets", "Technology", ""),
    ("Technology", "Information Technology", "Technology", ""),
    ("Technology", "News", "News", "Tech News"),
    ("Technology", "Operating Systems", "Technology", ""),
    ("Technology", "Podcasting", "Technology", ""),
    ("Technology", "Smart Phones", "Technology", ""),
    ("Technology", "Software How-To", "Technology", ""),
    ("Technology", "Tech News", "News", "Tech News"),
    ("Technology", "Text/Speech", "Technology", ""),
    ("Transportation", "", "Leisure", ""),
    ("Transportation", "Automotive", "Leisure", "Automotive"),
    ("Transportation", "Aviation", "Leisure", "Aviation"),
    ("Transportation", "Bicycles", "Leisure", "Hobbies"),
    ("Transportation", "Commuting", "Leisure", ""),
    ("Travel", "", "Society & Culture", "Places & Travel"),
];

/// The category of today's list nearest a retired one (`""`: none), if
/// `main` and `sub` (`""` for none) are retired. A retired main category's
/// subcategories are retired with it.
fn retired(main: &str, sub: &str) -> Option<(&'static str, &'static str)> {
    let is_current_main = CATEGORIES.iter().any(|(m, _)| *m == main);
    RETIRED
        .iter()
        .find(|(m, s, _, _)| *m == main && *s == sub)
        .or_else(|| {
            let under_retired = !sub.is_empty() && !is_current_main;
            RETIRED
                .iter()
                .find(|(m, s, _, _)| under_retired && *m == main && s.is_empty())
        })
        .map(|(_, _, now_main, now_sub)| (*now_main, *now_sub))
}

/// "Leisure › Video Games".
fn category_path(main: &str, sub: &str) -> String {
    if sub.is_empty() {
        main.to_owned()
    } else {
        format!("{main} › {sub}")
    }
}

/// A category text compared loosely: case, `and` for `&`, spaces.
fn loose(text: &str) -> String {
    text.to_lowercase()
        .replace(" and ", " & ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Each channel-level `itunes:category` and the `itunes:category` inside
/// it, with the text of each (`None`: no `text` attribute).
struct CategoryUse<'a, 'i> {
    node: Node<'a, 'i>,
    main: Option<&'a str>,
    /// `None` for the main category itself.
    sub: Option<Option<&'a str>>,
    /// For a main category: whether subcategories stand in it.
    has_subs: bool,
}

fn category_uses<'a, 'i>(feed: &FeedDoc<'a, 'i>) -> Vec<CategoryUse<'a, 'i>> {
    let Some(channel) = itunes_head(feed) else {
        return Vec::new();
    };
    let Some(name) = feed.xml.name_index_of(Some(ITUNES_NS), "category") else {
        return Vec::new();
    };
    let mut uses = Vec::new();
    for main in channel.children().filter(|c| c.name_index() == Some(name)) {
        let main_text = main.attribute("text");
        let at = uses.len();
        uses.push(CategoryUse {
            node: main,
            main: main_text,
            sub: None,
            has_subs: false,
        });
        for sub in main.children().filter(|c| c.name_index() == Some(name)) {
            uses.push(CategoryUse {
                node: sub,
                main: main_text,
                sub: Some(sub.attribute("text")),
                has_subs: false,
            });
        }
        uses[at].has_subs = uses.len() > at + 1;
    }
    uses
}

/// Where a category's text is, else its start tag.
fn text_place(node: Node) -> std::ops::Range<usize> {
    node.attribute_node("text")
        .map_or_else(|| node.start_tag(), |text| text.range_value())
}

pub static ITUNES_UNKNOWN_CATEGORY: Rule = rule!(
    ItunesUnknownCategory, Error, Doc, Some(itunes_unknown_category),
    groups: [Itunes],
    summary: "an itunes:category whose text is not one of Apple's categories, or a subcategory under a category it is not one of",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:category>; Apple Podcasts categories; PSP-1 <itunes:category>",
);

/// What a category that is not Apple's was meant to be.
enum Meant {
    /// The same text but for case, spaces or `and` for `&`.
    Written(&'static str),
    /// A subcategory written as a main category: its main category.
    SubcategoryOf(&'static str, &'static str),
    Unknown,
}

/// Why a category is not Apple's, and what was meant, if it is not (the
/// retired ones are itunes-retired-category's).
fn unknown_category(main: &str, sub: Option<&str>) -> Option<(String, Meant)> {
    let known = CATEGORIES.iter().find(|(m, _)| *m == main);
    let sub_anywhere = |text: &str| {
        CATEGORIES.iter().find_map(|(m, subs)| {
            let found = subs.iter().find(|s| loose(s) == loose(text))?;
            Some((*m, *found))
        })
    };
    match (known, sub) {
        (Some(_), None) => None,
        (None, None) if retired(main, "").is_some() => None,
        (None, None) => {
            let meant = CATEGORIES
                .iter()
                .find(|(m, _)| loose(m) == loose(main))
                .map(|(m, _)| Meant::Written(m))
                .or_else(|| sub_anywhere(main).map(|(m, s)| Meant::SubcategoryOf(m, s)))
                .unwrap_or(Meant::Unknown);
            Some((format!("\"{}\" is not one of Apple's categories", shorten(main)), meant))
        }
        (_, Some(sub)) if retired(main, sub).is_some() => None,
        // A main category Apple does not have is reported at itself.
        (None, Some(_)) => None,
        (Some((_, subs)), Some(sub)) if subs.contains(&sub) => None,
        (Some((_, subs)), Some(sub)) => {
            if let Some(written) = subs.iter().find(|s| loose(s) == loose(sub)) {
                return Some((
                    format!("\"{}\" is not written as Apple writes it", shorten(sub)),
                    Meant::Written(written),
                ));
            }
            let why = match sub_anywhere(sub) {
                Some((other, _)) => format!(
                    "\"{}\" is a subcategory of \"{other}\", not of \"{main}\"",
                    shorten(sub)
                ),
                None if subs.is_empty() => format!(
                    "\"{main}\" has no subcategories, and \"{}\" is none of Apple's",
                    shorten(sub)
                ),
                None => format!("\"{}\" is not one of the subcategories of \"{main}\"", shorten(sub)),
            };
            let meant = sub_anywhere(sub).map_or(Meant::Unknown, |(m, s)| Meant::SubcategoryOf(m, s));
            Some((why, meant))
        }
    }
}

fn itunes_unknown_category(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for category in category_uses(feed) {
        let (main, sub) = match (category.main, category.sub) {
            (None, None) | (_, Some(None)) => {
                findings.push((
                    category.node,
                    "this itunes:category has no text attribute".to_owned(),
                    Meant::Unknown,
                ));
                continue;
            }
            (Some(main), sub) => (main, sub.flatten()),
            (None, Some(Some(_))) => continue,
        };
        if let Some((why, meant)) = unknown_category(main, sub) {
            findings.push((category.node, why, meant));
        }
    }
    for (node, why, meant) in findings {
        let place = text_place(node);
        let escaped = |text: &str| text.replace('&', "&amp;");
        let (help, fix) = match meant {
            Meant::Written(meant) => (
                format!("write text=\"{}\"", escaped(meant)),
                node.has_attribute("text")
                    .then(|| Fix::safe(format!("Write \"{meant}\""), vec![fix::replace(place.clone(), escaped(meant))])),
            ),
            Meant::SubcategoryOf(main, sub) => (
                format!(
                    "write <itunes:category text=\"{}\"><itunes:category text=\"{}\"/></itunes:category>",
                    escaped(main),
                    escaped(sub)
                ),
                None,
            ),
            Meant::Unknown => (
                "choose a category from Apple's list (podcasters.apple.com/support/1691), with text= written exactly as there, & as &amp;".to_owned(),
                None,
            ),
        };
        cx.report(
            Checker::at(place, why)
                .label("not Apple's")
                .note("PSP-1: \"The category that best fits a podcast, selected from the list of Apple Podcasts categories\"; Apple files a show under the categories of its list only, and a show with none it knows is found by no category")
                .help(help)
                .fix_if(fix),
        );
    }
}

pub static ITUNES_RETIRED_CATEGORY: Rule = rule!(
    ItunesRetiredCategory, Warning, Doc, Some(itunes_retired_category),
    groups: [Itunes],
    summary: "an itunes:category that Apple retired in 2019 (Games & Hobbies, Technology › Podcasting, ...)",
    spec: "Apple, A Podcaster's Guide to RSS: <itunes:category>; Apple Podcasts categories",
);

fn itunes_retired_category(cx: &mut Checker) {
    let feed = cx.feed;
    let findings: Vec<(Node, String, (&str, &str))> = category_uses(feed)
        .into_iter()
        .filter_map(|category| {
            let main = category.main?;
            let sub = category.sub.flatten().unwrap_or_default();
            // A retired main category with subcategories is reported at
            // each of them, with the category nearest the pair.
            if category.has_subs && CATEGORIES.iter().all(|(m, _)| *m != main) {
                return None;
            }
            let now = retired(main, sub)?;
            Some((category.node, category_path(main, sub), now))
        })
        .collect();
    for (node, old, (now_main, now_sub)) in findings {
        let help = match now_main {
            "" => "choose a category from Apple's list (podcasters.apple.com/support/1691): none is near this one".to_owned(),
            main if now_sub.is_empty() => format!("write <itunes:category text=\"{}\"/>, the nearest of today's categories", main.replace('&', "&amp;")),
            main => format!(
                "write <itunes:category text=\"{}\"><itunes:category text=\"{}\"/></itunes:category>, the nearest of today's categories",
                main.replace('&', "&amp;"),
                now_sub.replace('&', "&amp;")
            ),
        };
        cx.report(
            Checker::at(text_place(node), format!("\"{old}\" is a category Apple retired in 2019"))
                .label("retired")
                .note("Apple's category list no longer has it (Apple replaced its categories in 2019); PSP-1 asks for the category \"selected from the list of Apple Podcasts categories\", and a show under a retired one is not filed where its publisher chose")
                .help(help),
        );
    }
}
