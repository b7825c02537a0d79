//! Serde helpers for the files the rules are read from: a map that refuses a key written twice.

/// A map read from a file that refuses a key written twice (RON itself keeps the last one
/// silently): the error points at the second occurrence.
pub fn unique_keys<'de, D, K, V>(d: D) -> Result<std::collections::BTreeMap<K, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: serde::Deserialize<'de> + Ord + std::fmt::Display,
    V: serde::Deserialize<'de>,
{
    struct Visit<K, V>(std::marker::PhantomData<(K, V)>);
    impl<'de, K: serde::Deserialize<'de> + Ord + std::fmt::Display, V: serde::Deserialize<'de>> serde::de::Visitor<'de> for Visit<K, V> {
        type Value = std::collections::BTreeMap<K, V>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            let mut out = std::collections::BTreeMap::new();
            while let Some(k) = a.next_key::<K>()? {
                if out.contains_key(&k) {
                    return Err(serde::de::Error::custom(format!("the key '{k}' is written twice")));
                }
                let v = a.next_value()?;
                out.insert(k, v);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Visit(std::marker::PhantomData))
}

/// [`unique_keys`] for an optional map field.
pub fn unique_keys_opt<'de, D, K, V>(d: D) -> Result<Option<std::collections::BTreeMap<K, V>>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: serde::Deserialize<'de> + Ord + std::fmt::Display,
    V: serde::Deserialize<'de>,
{
    struct Wrap<K, V>(std::collections::BTreeMap<K, V>);
    impl<'de, K: serde::Deserialize<'de> + Ord + std::fmt::Display, V: serde::Deserialize<'de>> serde::Deserialize<'de> for Wrap<K, V> {
        fn deserialize<D2: serde::Deserializer<'de>>(d: D2) -> Result<Self, D2::Error> {
            unique_keys(d).map(Wrap)
        }
    }
    Ok(<Option<Wrap<K, V>> as serde::Deserialize>::deserialize(d)?.map(|w| w.0))
}
