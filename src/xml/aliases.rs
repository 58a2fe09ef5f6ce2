//! Namespace names read as others: a vocabulary known by two names (the
//! Podcasting 2.0 namespace's older one), or a name written almost right,
//! read as the one name the rules know.

use super::dom::Tree;

impl Tree<'_> {
    /// Reads every name in a namespace `read_as` maps to another as a name
    /// in that one: for a vocabulary known by two namespace names, or a
    /// namespace name written almost right. What the text declares is
    /// unchanged, and [`Tree::aliases`] keeps each name as written.
    pub fn alias_namespaces(&mut self, read_as: impl Fn(&str) -> Option<&'static str>) {
        // Each name once, by its number: a document may name many.
        for index in 1..self.namespaces.len() as u32 {
            let name = self.namespaces.get(index);
            if let Some(canonical) = read_as(name) {
                self.aliases.push((name.to_owned(), canonical));
                self.namespaces.replace(index, canonical);
            }
        }
        if !self.aliases.is_empty() {
            self.merge_names_alike();
        }
    }

    /// Makes names that now read alike one name: a document that writes a
    /// namespace two ways (its older name on one element, its name on
    /// another) has two names for `podcast:guid`, and a rule that looks a
    /// name up by its number would find the elements of one only. Each
    /// element and attribute takes the first of its names; their counts
    /// add up.
    fn merge_names_alike(&mut self) {
        let (namespaces, locals) = (&self.namespaces, self.name_text.as_bytes());
        let mut first_of: crate::base::hash::FastMap<(&[u8], &[u8]), u32> = crate::base::hash::FastMap::default();
        let remap: Vec<u32> = self
            .names
            .iter()
            .enumerate()
            .map(|(index, name)| {
                let local = &locals[name.start as usize..name.end as usize];
                *first_of
                    .entry((namespaces.bytes(name.namespace), local))
                    .or_insert(index as u32)
            })
            .collect();
        if remap.iter().enumerate().all(|(index, &to)| index as u32 == to) {
            return;
        }
        for node in &mut self.nodes {
            node.rename(&remap);
        }
        for attribute in &mut self.attributes {
            attribute.rename(&remap);
        }
        for (index, &to) in remap.iter().enumerate() {
            if index as u32 != to {
                self.name_uses[to as usize] += std::mem::take(&mut self.name_uses[index]);
            }
        }
    }

    /// The namespace names the document's names were written in but are
    /// read as others: each as written, and what it is read as.
    pub fn aliases(&self) -> impl Iterator<Item = (&str, &'static str)> {
        self.aliases.iter().map(|(written, read)| (written.as_str(), *read))
    }
}
