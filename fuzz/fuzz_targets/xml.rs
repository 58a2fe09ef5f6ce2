//! The XML layer alone, any bytes: decoding and parsing must end in a
//! document or an error, and every node and attribute of a document must be
//! readable (ranges inside the text, strings on char boundaries).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = feedlint::findings::source::decode(data.to_vec()) else {
        return;
    };
    let Ok(doc) = feedlint::xml::parse(&text) else {
        return;
    };
    for node in doc.descendants() {
        let _ = &text[node.range()];
        let _ = &text[node.start_tag()];
        let _ = node.text();
        let _ = node.tag_name();
        for attribute in node.attributes() {
            let _ = (attribute.name(), attribute.namespace(), attribute.value());
            let _ = &text[attribute.range_value()];
        }
    }
    if let Some(unread) = doc.unread_entity() {
        let _ = &text[unread.range.clone()];
    }
});
