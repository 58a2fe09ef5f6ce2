//! The parser's own tests; the W3C conformance suite runs in
//! `tests/it/xmlconf.rs`.

use super::*;

fn error(text: &str) -> String {
    parse(text).expect_err(text).message
}

#[test]
fn doctype_with_small_entities_parses() {
    let text = "<!DOCTYPE rss [<!ENTITY nbsp \"&#160;\">]><rss>a&nbsp;b</rss>";
    let doc = parse(text).unwrap();
    assert_eq!(doc.root_element().text(), Some("a\u{a0}b"));
}

#[test]
fn billion_laughs_is_refused() {
    let mut text = String::from("<!DOCTYPE lolz [<!ENTITY lol0 \"lol\">");
    for i in 1..10 {
        let prev = format!("&lol{};", i - 1).repeat(10);
        text.push_str(&format!("<!ENTITY lol{i} \"{prev}\">"));
    }
    text.push_str("]><lolz>&lol9;</lolz>");
    assert!(error(&text).contains("expand to more than"));
}

#[test]
fn quadratic_blowup_is_refused() {
    let big = "a".repeat(50_000);
    let refs = "&a;".repeat(5_000);
    let text = format!("<!DOCTYPE x [<!ENTITY a \"{big}\">]><x>{refs}</x>");
    assert!(error(&text).contains("expand to more than"));
}

#[test]
fn recursive_entity_is_refused() {
    let text = "<!DOCTYPE x [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><x>&a;</x>";
    assert!(error(text).contains("refers to itself"));
}

#[test]
fn external_entity_is_not_loaded_and_is_reported() {
    let text = "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>";
    let doc = parse(text).unwrap();
    assert_eq!(doc.root_element().text(), None);
    let unread = doc.unread_entity().unwrap();
    assert_eq!((unread.name.as_str(), unread.declared_external), ("e", true));
    assert_eq!(&text[unread.range.clone()], "&e;");
}

#[test]
fn entity_from_an_unread_external_subset_is_not_an_error() {
    let text = "<!DOCTYPE rss SYSTEM \"http://my.netscape.com/publish/formats/rss-0.91.dtd\"><rss>caf&eacute;s</rss>";
    let doc = parse(text).unwrap();
    assert_eq!(doc.unread_entity().unwrap().name, "eacute");
    // The text is read without the reference.
    assert_eq!(doc.root_element().text(), Some("cafs"));
    // Without a DTD that could declare it, the same reference is fatal.
    assert!(error("<rss>caf&eacute;</rss>").contains("undeclared entity"));
    // standalone="yes" says no external declaration matters.
    let standalone = format!("<?xml version=\"1.0\" standalone=\"yes\"?>{text}");
    assert!(error(&standalone).contains("undeclared entity"));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 100_000;
    let text = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let doc = parse(&text).unwrap();
    assert_eq!(doc.descendants().count(), depth + 1);
}

#[test]
fn many_attributes_are_checked_for_duplicates_by_hash() {
    let many: String = (0..10_000).map(|i| format!(" a{i}=\"\"")).collect();
    assert!(parse(&format!("<x{many}/>")).is_ok());
    assert!(error(&format!("<x{many} a77=\"\"/>")).contains("\"a77\" is given twice"));
}

#[test]
fn namespaces_are_resolved_and_checked() {
    let doc = parse("<f xmlns='urn:a' xmlns:p='urn:b' p:x='1' y='2'><p:g xmlns='' /><xml:h/></f>").unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().namespace(), Some("urn:a"));
    assert_eq!(root.attribute(("urn:b", "x")), Some("1"));
    assert_eq!(root.attribute("y"), Some("2"));
    assert_eq!(root.attributes().len(), 2);
    let children: Vec<_> = root.children().collect();
    assert_eq!(children[0].tag_name().namespace(), Some("urn:b"));
    assert_eq!(children[1].tag_name().namespace(), Some(XML_NS));
    for (text, problem) in [
        ("<f xmlns='urn:a' xmlns='urn:b'/>", "given twice"),
        (
            "<f xmlns:p='urn:a' xmlns:q='urn:a' p:x='' q:x=''/>",
            "two attributes named \"x\"",
        ),
        ("<f xmlns:e=''/>", "Namespaces in XML 1.1"),
        ("<f xmlns:xmlns='urn:a'/>", "must not be declared"),
        ("<p:f/>", "not declared"),
        ("<:f/>", "not a valid element name"),
        ("<f a:b:c=''/>", "not a valid attribute name"),
    ] {
        assert!(error(text).contains(problem), "{text}: {}", error(text));
    }
}

#[test]
fn xml_declaration_syntax() {
    assert!(parse("<?xml version='1.0' encoding='UTF-8' standalone='no'?><a/>").is_ok());
    for text in [
        "<?xml version='2.0'?><a/>",
        "<?xml version='1.0' standalone='maybe'?><a/>",
        "<?xml encoding='UTF-8'?><a/>",
        "<?xml version='1.0' standalone='yes' encoding='UTF-8'?><a/>",
        "<?xml version='&#49;.0'?><a/>",
        " <?xml version='1.0'?><a/>",
        "<a/><?XML x?>",
    ] {
        assert!(parse(text).is_err(), "{text}");
    }
}

#[test]
fn character_references_must_be_characters() {
    assert_eq!(
        parse("<a>&#x10FFFF;&#65;</a>").unwrap().root_element().text(),
        Some("\u{10FFFF}A")
    );
    for text in [
        "<a>&#xD800;</a>",
        "<a>&#x110000;</a>",
        "<a>&#0;</a>",
        "<a>&#99999999999999;</a>",
    ] {
        assert!(error(text).contains("not a character"), "{text}");
    }
}

#[test]
fn entities_must_be_balanced_and_attribute_values_free_of_lt() {
    assert!(error("<!DOCTYPE a [<!ENTITY e '<b>'>]><a>&e;</b></a>").contains("does not end in it"));
    assert!(error("<!DOCTYPE a [<!ENTITY e '&#60;'>]><a x='&e;'/>").contains("'<' is not allowed"));
    let text = "<!DOCTYPE a [<!ENTITY e '<b>x</b>'>]><a>1&e;2</a>";
    let doc = parse(text).unwrap();
    let root = doc.root_element();
    let kinds: Vec<_> = root.children().map(|n| (n.is_element(), n.range())).collect();
    // Nodes made by the reference point at it.
    let reference = text.find("&e;").unwrap();
    assert_eq!(kinds[1], (true, reference..reference + 3));
}

#[test]
fn attribute_values_are_normalized_and_defaulted() {
    let text = "<!DOCTYPE a [<!ATTLIST a xml:base CDATA 'http://example.org/' t NMTOKENS #IMPLIED>]>\r\n<a t=' x\r\n y ' u='1\r\n2&#10;'/>";
    let doc = parse(text).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("t"), Some("x y"));
    assert_eq!(root.attribute("u"), Some("1 2\n"));
    let base = root.attribute_node((XML_NS, "base")).unwrap();
    assert_eq!(base.value(), "http://example.org/");
    assert!(!base.is_specified());
    assert_eq!(&text[base.range_value()], "http://example.org/");
    assert_eq!(&text[root.start_tag()], "<a t=' x\r\n y ' u='1\r\n2&#10;'/>");
}

#[test]
fn normalized_values_are_found_among_plain_ones_on_every_element() {
    // Values that differ from what is written are kept apart, by attribute:
    // each must still be found, whichever element and place it has.
    let text = "<a p='1' q='&amp;' r='3'><b s='x&lt;' t='y'/><c u='plain'/><d v='&#65;' w='&#66;'/></a>";
    let doc = parse(text).unwrap();
    let values: Vec<(String, String)> = doc
        .root_element()
        .descendants()
        .flat_map(|element| {
            element
                .attributes()
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect::<Vec<_>>()
        })
        .collect();
    let expected = [
        ("p", "1"),
        ("q", "&"),
        ("r", "3"),
        ("s", "x<"),
        ("t", "y"),
        ("u", "plain"),
        ("v", "A"),
        ("w", "B"),
    ];
    let expected: Vec<(String, String)> = expected.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    assert_eq!(values, expected);
    // Twelve bytes an attribute: an attribute-heavy feed's tree is most of
    // its peak memory.
    assert_eq!(std::mem::size_of::<dom::AttributeData>(), 12);
}

#[test]
fn text_keeps_line_ends_normalized_and_skips_blank_runs() {
    let doc = parse("<a>\r\n  <b>x\r\ny<![CDATA[<&]]></b>\n</a>").unwrap();
    let root = doc.root_element();
    let b = root.first_child().unwrap();
    assert!(b.is_element());
    assert_eq!(b.text(), Some("x\ny<&"));
    assert_eq!(root.children().count(), 1);
}

#[test]
fn internal_subset_declarations_are_checked() {
    assert!(parse("<!DOCTYPE a [<!ELEMENT a (b|(c,d)*)+><!ELEMENT b (#PCDATA|c)*><!ATTLIST a x (p|q) 'p' y NOTATION (n) #IMPLIED><!NOTATION n PUBLIC 'p'><!ENTITY % pe '<!ENTITY f \"g\">'>%pe;]><a>&f;</a>").is_ok());
    for text in [
        "<!DOCTYPE a [<!ELEMENT a (b|c,d)>]><a/>",
        "<!DOCTYPE a [<!ELEMENT a (#PCDATA|b)>]><a/>",
        "<!DOCTYPE a [<!ELEMENT a ()>]><a/>",
        "<!DOCTYPE a [<!ENTITY e \"%p;\">]><a/>",
        "<!DOCTYPE a [<!ENTITY a:b \"x\">]><a/>",
        "<!DOCTYPE a [<![INCLUDE[ ]]>]><a/>",
        "<!DOCTYPE a [<!ATTLIST a x CDATA>]><a/>",
        "<!DOCTYPE a [<!ENTITY e SYSTEM 'x'NDATA n>]><a/>",
        "<!DOCTYPE a [<!ENTITY % e 'x'> %e;]><a/>",
    ] {
        assert!(parse(text).is_err(), "{text}");
    }
}

#[test]
fn deep_content_models_do_not_overflow() {
    let depth = 100_000;
    let text = format!(
        "<!DOCTYPE a [<!ELEMENT a {}b{}>]><a/>",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    assert!(parse(&text).is_ok());
}

#[test]
fn attribute_ranges_cover_name_and_quoted_value() {
    let text = "<a  x = 'v'\n\tétoile=\"w&amp;\" y=''/>";
    let doc = parse(text).unwrap();
    let ranges: Vec<&str> = doc.root_element().attributes().map(|a| &text[a.range()]).collect();
    assert_eq!(ranges, ["x = 'v'", "étoile=\"w&amp;\"", "y=''"]);
    let values: Vec<&str> = doc.root_element().attributes().map(|a| a.value()).collect();
    assert_eq!(values, ["v", "w&", ""]);
}

#[test]
fn node_lists_keep_nodes_compactly() {
    let doc = parse("<a><b/><c/><b/></a>").unwrap();
    let mut list = NodeList::default();
    assert!(list.is_empty());
    for node in doc.descendants().filter(|n| n.has_tag_name(None, "b")) {
        list.push(node);
    }
    assert_eq!(list.len(), 2);
    assert_eq!(list.get(1).map(|n| n.range()), Some(11..15));
    assert!(list.iter().all(|n| n.tag_name().name() == "b"));
}

#[test]
fn elements_know_whether_they_carry_xml_base() {
    let doc =
        parse("<!DOCTYPE a [<!ATTLIST c xml:base CDATA 'x/'>]><a xml:base='http://e.org/'><b/><c/><d base='no'/></a>")
            .unwrap();
    let carriers: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_xml_base())
        .map(|n| n.tag_name().name())
        .collect();
    assert_eq!(carriers, ["a", "c"]);
}

#[test]
fn duplicates_among_many_attributes_are_found_by_marks() {
    let many: String = (0..20).map(|i| format!(" a{i}=''")).collect();
    assert!(error(&format!("<x{many} a3=''/>")).contains("\"a3\" is given twice"));
    assert!(error(&format!("<x{many} xmlns:p='urn:a' xmlns:p='urn:b'/>")).contains("\"xmlns:p\" is given twice"));
    let message = error(&format!("<x{many} xmlns:p='urn:a' xmlns:q='urn:a' p:b='' q:b=''/>"));
    assert!(
        message.contains("two attributes named \"b\" in namespace \"urn:a\""),
        "{message}"
    );
    // The same names on the next element are no duplicates.
    assert!(parse(&format!("<r><x{many}/><x{many}/></r>")).is_ok());
}

#[test]
fn namespace_names_are_interned_when_a_name_first_uses_them() {
    // A thousand prefixes declared, two used: two namespace names kept
    // (besides "no namespace" and the xml one), each resolved rightly,
    // the one used twice once.
    let declared: String = (0..1000).map(|i| format!(" xmlns:p{i}='urn:{i}'")).collect();
    let text = format!("<r{declared}><p7:a/><p900:b p7:c=''/></r>");
    let doc = parse(&text).unwrap();
    assert_eq!(doc.namespaces.len(), 4);
    let names: Vec<(Option<&str>, &str)> = doc
        .descendants()
        .skip(1)
        .map(|n| (n.tag_name().namespace(), n.tag_name().name()))
        .collect();
    assert_eq!(names, [(None, "r"), (Some("urn:7"), "a"), (Some("urn:900"), "b")]);
    let b = doc.descendants().nth(3).unwrap();
    assert_eq!(b.attribute(("urn:7", "c")), Some(""));
}

#[test]
fn a_large_dense_document_has_room_for_its_tree_before_it_is_parsed() {
    // Past the size from which nodes and attributes are counted: elements
    // with 40 attributes, and small entries (a node every 10 bytes), each
    // fit the room made before parsing, so no vector of the tree is copied
    // to a larger one as it grows; and the room is not far past the need.
    let attributes: String = (0..40).map(|i| format!(" a{i}='v'")).collect();
    let units = [
        format!("<e xmlns:x='urn:x'{attributes}/>\n"),
        "<entry><title>t</title><id>i</id><link href='h'/></entry>".to_owned(),
    ];
    for unit in units {
        let text = format!("<feed>{}</feed>", unit.repeat((9 << 20) / unit.len()));
        let (nodes, attributes) = parser::room_for(&text);
        let doc = parse(&text).unwrap();
        assert!(
            (doc.nodes.len()..=3 * doc.nodes.len()).contains(&nodes),
            "{nodes} for {} nodes",
            doc.nodes.len()
        );
        let used = doc.attributes.len();
        assert!(
            (used..=2 * used.max(1) + 1).contains(&attributes),
            "{attributes} for {used} attributes"
        );
    }
    // Marks that make no tree (a CDATA section of `<` and `=`) get room
    // capped by the text's size.
    let text = format!("<r><![CDATA[{}]]></r>", "<=".repeat(5 << 20));
    let (nodes, attributes) = parser::room_for(&text);
    assert!(nodes <= text.len() / 8 + 1 && attributes <= text.len() / 5 + 1);
    assert_eq!(parse(&text).unwrap().nodes.len(), 3);
}

#[test]
fn a_namespace_written_two_ways_and_read_as_one_gives_each_name_one_number() {
    let text = "<r xmlns:a='urn:new' xmlns:b='urn:old'><a:x b:k='1'/><b:x a:k='2'/><b:x/></r>";
    let mut doc = parse(text).unwrap();
    doc.alias_namespaces(|name| (name == "urn:old").then_some("urn:new"));
    let x = doc.name_index_of(Some("urn:new"), "x").unwrap();
    let elements: Vec<_> = doc.root_element().children().filter(|c| c.is_element()).collect();
    assert!(elements.iter().all(|e| e.name_index() == Some(x)));
    assert_eq!(doc.elements_named(x), 3);
    assert_eq!(doc.attributes_named(Some("urn:new"), "k").count(), 2);
}
