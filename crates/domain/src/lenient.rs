//! Deserializers that accept the variations an implementation of the interface
//! may show in "string" fields: a number or boolean where text was expected,
//! and null values inside string maps.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A string field that may arrive as a number or boolean; null is `None`.
pub(crate) fn opt_text<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    let value = Option::<Value>::deserialize(deserializer)?;
    value.map_or(Ok(None), |v| {
        scalar_text(v)
            .map_err(|found| serde::de::Error::custom(format!("expected a string, found {found}")))
    })
}

/// A list whose null elements are skipped; null or missing is `None`.
pub(crate) fn opt_list<'de, D, T>(deserializer: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let list = Option::<Vec<Option<T>>>::deserialize(deserializer)?;
    Ok(list.map(|items| items.into_iter().flatten().collect()))
}

/// An object of string to string; null values are dropped, scalars kept as text.
pub(crate) fn opt_string_map<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<BTreeMap<String, String>>, D::Error> {
    let Some(object) = Option::<BTreeMap<String, Value>>::deserialize(deserializer)? else {
        return Ok(None);
    };
    let mut map = BTreeMap::new();
    for (key, value) in object {
        let text = scalar_text(value).map_err(|found| {
            serde::de::Error::custom(format!(
                "value of {key:?}: expected a string, found {found}"
            ))
        })?;
        if let Some(text) = text {
            map.insert(key, text);
        }
    }
    Ok(Some(map))
}

/// The text of a scalar, `None` for null, or the name of what was found instead.
fn scalar_text(value: Value) -> Result<Option<String>, &'static str> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        Value::Number(n) => Ok(Some(n.to_string())),
        Value::Bool(b) => Ok(Some(b.to_string())),
        Value::Array(_) => Err("an array"),
        Value::Object(_) => Err("an object"),
    }
}
