//! The serde side of the one-pass reading: visitors that append each
//! record's fields to the page's columns as they are read.
//!
//! They accept only the usual page and fail on anything else; the failure is
//! not shown to anyone, it sends the body to the general path (see the
//! module above). So they may be strict where the interface is lenient.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::columns::{DependencyFields, PageColumns};
use super::Detail;
use crate::timestamp::parse_timestamp;

/// The links of a page that paging uses.
pub(super) struct Links {
    pub next: Option<String>,
    pub last: Option<String>,
}

/// Reads a page of records of tenor `tenor` into `columns`, keeping
/// `detail` of each.
pub(super) fn read_page(
    body: &[u8],
    tenor: &str,
    detail: Detail,
    columns: &mut PageColumns,
) -> Result<Links, serde_json::Error> {
    let mut json = serde_json::Deserializer::from_slice(body);
    let links = json.deserialize_map(PageVisitor {
        tenor,
        detail,
        columns,
    })?;
    json.end()?;
    Ok(links)
}

/// Text borrowed from the body, or unescaped into a `String` where it has
/// escapes. (serde's own `Cow<str>` always copies.)
struct Text<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(text)))
            }
            fn visit_str<E>(self, text: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text.to_owned())))
            }
            fn visit_string<E>(self, text: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

fn text<'a>(value: &'a Option<Text<'_>>) -> Option<&'a str> {
    value.as_ref().map(|text| &*text.0)
}

/// Stores a field's value, refusing a field given twice (as the models'
/// derived readers do).
fn once<T, E: de::Error>(slot: &mut Option<T>, value: T, name: &'static str) -> Result<(), E> {
    match slot.replace(value) {
        None => Ok(()),
        Some(_) => Err(E::duplicate_field(name)),
    }
}

/// The keys of an object, each read as one of `names` (its index) or as
/// another key, whose value is skipped.
struct Key<const N: usize> {
    names: [&'static str; N],
}

impl<'de, const N: usize> DeserializeSeed<'de> for Key<N> {
    type Value = Option<usize>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Key<N> {
    type Value = Option<usize>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.names.iter().position(|name| *name == key))
    }
}

struct PageVisitor<'a> {
    tenor: &'a str,
    detail: Detail,
    columns: &'a mut PageColumns,
}

impl<'de> Visitor<'de> for PageVisitor<'_> {
    type Value = Links;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a page")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Links, A::Error> {
        const NAMES: [&str; 5] = ["items", "self", "next", "prev", "last"];
        let mut seen: [Option<()>; 5] = [None; 5];
        let (mut next, mut last) = (None, None);
        while let Some(key) = map.next_key_seed(Key { names: NAMES })? {
            let Some(index) = key else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            once(&mut seen[index], (), NAMES[index])?;
            match index {
                0 => map.next_value_seed(Items {
                    tenor: self.tenor,
                    detail: self.detail,
                    columns: &mut *self.columns,
                })?,
                2 => next = map.next_value::<Option<String>>()?,
                4 => last = map.next_value::<Option<String>>()?,
                _ => {
                    map.next_value::<Option<Text>>()?;
                }
            }
        }
        Ok(Links { next, last })
    }
}

/// `items`: null, or a list whose null entries are skipped.
struct Items<'a> {
    tenor: &'a str,
    detail: Detail,
    columns: &'a mut PageColumns,
}

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of records")
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        loop {
            let record = Record {
                tenor: self.tenor,
                detail: self.detail,
                columns: &mut *self.columns,
            };
            if items.next_element_seed(Nullable(record))?.is_none() {
                return Ok(());
            }
        }
    }
}

/// A list entry that may be null (skipped: the seed's value is None).
struct Nullable<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Nullable<S> {
    type Value = Option<S::Value>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Nullable<S> {
    type Value = Option<S::Value>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object or null")
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}

/// One price record, appended to the columns once whole.
struct Record<'a> {
    tenor: &'a str,
    detail: Detail,
    columns: &'a mut PageColumns,
}

impl<'de> DeserializeSeed<'de> for Record<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Record<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a price record")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        const NAMES: [&str; 6] = [
            "generatedOn",
            "price",
            "units",
            "tenor",
            "dependencies",
            "metadata",
        ];
        let (mut generated_on, mut price, mut units, mut tenor) = (None, None, None, None);
        let (mut dependencies, mut metadata) = (None, None);
        while let Some(key) = map.next_key_seed(Key { names: NAMES })? {
            let name = key.map(|index| NAMES[index]);
            let columns = &mut *self.columns;
            match name {
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
                Some(name @ "generatedOn") => {
                    once(&mut generated_on, map.next_value::<Option<Text>>()?, name)?
                }
                Some(name @ "price") => once(&mut price, map.next_value::<Option<f64>>()?, name)?,
                Some(name @ "units") => once(&mut units, map.next_value::<Option<Text>>()?, name)?,
                Some(name @ "tenor") => once(&mut tenor, map.next_value::<Option<Text>>()?, name)?,
                // Skipped unread, but still refused twice, as the
                // general path refuses them.
                Some(name @ ("dependencies" | "metadata")) if self.detail == Detail::Values => {
                    map.next_value::<IgnoredAny>()?;
                    let slot = match name {
                        "dependencies" => &mut dependencies,
                        _ => &mut metadata,
                    };
                    once(slot, None, name)?
                }
                Some(name @ "dependencies") => {
                    let count = map.next_value_seed(Nullable(Dependencies { columns }))?;
                    once(&mut dependencies, count, name)?
                }
                Some(name @ "metadata") => {
                    let count = map.next_value_seed(Nullable(Metadata { columns }))?;
                    once(&mut metadata, count, name)?
                }
                Some(other) => unreachable!("{other} is not among the names looked for"),
            }
        }
        let unusual = |what: &str| de::Error::custom(format!("not the usual page: {what}"));
        if tenor
            .as_ref()
            .and_then(text)
            .is_some_and(|t| t != self.tenor)
        {
            return Err(unusual("a record of another tenor"));
        }
        let price = price.flatten().ok_or_else(|| unusual("no price"))?;
        let generated_on = generated_on.flatten().ok_or_else(|| unusual("no time"))?;
        let generated_on = parse_timestamp(&generated_on.0).map_err(de::Error::custom)?;
        if self
            .columns
            .last_time()
            .is_some_and(|last| last >= generated_on)
        {
            return Err(unusual("records out of order"));
        }
        self.columns.push_record(
            generated_on,
            price,
            units.as_ref().and_then(text),
            dependencies.flatten(),
            metadata.flatten(),
        );
        Ok(())
    }
}

/// A record's dependencies, appended as read; the value is how many.
struct Dependencies<'a> {
    columns: &'a mut PageColumns,
}

impl<'de> DeserializeSeed<'de> for Dependencies<'_> {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Dependencies<'_> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of dependencies")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut list: A) -> Result<usize, A::Error> {
        let mut count = 0;
        while let Some(entry) = list.next_element_seed(Nullable(Dependency {
            columns: &mut *self.columns,
        }))? {
            count += usize::from(entry.is_some());
        }
        Ok(count)
    }
}

struct Dependency<'a> {
    columns: &'a mut PageColumns,
}

impl<'de> DeserializeSeed<'de> for Dependency<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Dependency<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a dependency")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        const NAMES: [&str; 5] = ["id", "name", "value", "units", "tenorName"];
        let mut texts: [Option<Option<Text>>; 5] = [None, None, None, None, None];
        let mut value = None;
        while let Some(key) = map.next_key_seed(Key { names: NAMES })? {
            match key {
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
                Some(2) => once(&mut value, map.next_value::<Option<f64>>()?, NAMES[2])?,
                Some(index) => once(
                    &mut texts[index],
                    map.next_value::<Option<Text>>()?,
                    NAMES[index],
                )?,
            }
        }
        let field = |index: usize| {
            texts[index]
                .as_ref()
                .and_then(|t| t.as_ref())
                .map(|t| &*t.0)
        };
        self.columns.push_dependency(DependencyFields {
            id: field(0),
            name: field(1),
            value: value.flatten(),
            units: field(3),
            tenor_name: field(4),
        });
        Ok(())
    }
}

/// A record's metadata, its entries appended as read; the value is how
/// many were kept (an entry without a name is not).
struct Metadata<'a> {
    columns: &'a mut PageColumns,
}

impl<'de> DeserializeSeed<'de> for Metadata<'_> {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Metadata<'_> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of metadata entries")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut list: A) -> Result<usize, A::Error> {
        let mut kept = 0;
        while let Some(entry) = list.next_element_seed(Nullable(MetadataEntry))? {
            if let Some((Some(key), value)) = entry {
                self.columns
                    .push_metadata_entry(&key.0, value.as_ref().map(|v| &*v.0));
                kept += 1;
            }
        }
        Ok(kept)
    }
}

/// A `{name, value}` entry; only text or null is read here (the general
/// path keeps a number or boolean as its text).
struct MetadataEntry;

impl<'de> DeserializeSeed<'de> for MetadataEntry {
    type Value = (Option<Text<'de>>, Option<Text<'de>>);
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for MetadataEntry {
    type Value = (Option<Text<'de>>, Option<Text<'de>>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a metadata entry")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        const NAMES: [&str; 2] = ["name", "value"];
        let mut fields: [Option<Option<Text>>; 2] = [None, None];
        while let Some(key) = map.next_key_seed(Key { names: NAMES })? {
            match key {
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
                Some(index) => once(
                    &mut fields[index],
                    map.next_value::<Option<Text>>()?,
                    NAMES[index],
                )?,
            }
        }
        let [name, value] = fields;
        Ok((name.flatten(), value.flatten()))
    }
}
