//! A script's expected values against a run's (numbers compared as numbers; an expected object
//! matches when each of its fields does).

use serde_json::Value;
use std::collections::BTreeMap;

/// Does `actual` contain every field of `expected` with equal values (numbers compared as numbers)?
pub fn matches_fields(actual: &Value, expected: &BTreeMap<String, Value>) -> bool {
    expected.iter().all(|(k, v)| actual.get(k).is_some_and(|a| value_eq(a, v)))
}

pub(super) fn value_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| value_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => y.iter().all(|(k, v)| x.get(k).is_some_and(|w| value_eq(w, v))),
        _ => a == b,
    }
}
