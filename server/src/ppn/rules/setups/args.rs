//! The extra keys of a `SetUp`/`GameType` mapping, passed to the setup as arguments.

use std::collections::BTreeMap;

use serde_yaml::Value;

use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::names::normalize_name;

/// Setup arguments by normalised name (`Cell Width` is `cell_width`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Args {
    values: BTreeMap<String, Value>,
}

impl Args {
    /// Split a mapping into game name, system and the remaining arguments.
    pub(crate) fn from_mapping(
        value: &Value,
        default_system: &str,
    ) -> Result<(String, String, Args), SetupError> {
        let Value::Mapping(mapping) = value else {
            return Err(SetupError::BadValue {
                message: "expected a mapping".to_string(),
            });
        };
        let mut values = BTreeMap::new();
        for (key, value) in mapping {
            let key = scalar_text(key).ok_or_else(|| SetupError::BadValue {
                message: "mapping keys must be names".to_string(),
            })?;
            values.insert(normalize_name(&key), value.clone());
        }
        let name = values
            .remove("name")
            .and_then(|v| scalar_text(&v))
            .ok_or_else(|| SetupError::BadValue {
                message: "the mapping needs a `Name`".to_string(),
            })?;
        let system = match values.remove("system") {
            Some(v) => scalar_text(&v).ok_or_else(|| SetupError::BadArgument {
                argument: "system".to_string(),
                message: "expected a system name".to_string(),
            })?,
            None => default_system.to_string(),
        };
        Ok((name, system, Args { values }))
    }

    /// The same arguments without `name` (a normalised name).
    pub fn without(mut self, name: &str) -> Args {
        self.values.remove(name);
        self
    }

    pub(crate) fn check_allowed(&self, allowed: &[(&str, &str)]) -> Result<(), SetupError> {
        match self
            .values
            .keys()
            .find(|key| !allowed.iter().any(|(name, _)| name == key))
        {
            Some(unknown) => Err(SetupError::UnknownArgument {
                argument: unknown.clone(),
                accepted: allowed.iter().map(|(name, _)| name.to_string()).collect(),
            }),
            None => Ok(()),
        }
    }

    pub(crate) fn seed(&self) -> Result<Option<i32>, SetupError> {
        self.integer("seed")
    }

    pub(crate) fn integer(&self, name: &str) -> Result<Option<i32>, SetupError> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .or_else(|| n.as_f64().map(|f| f.trunc() as i64))
                .and_then(|v| i32::try_from(v).ok())
                .map(Some)
                .ok_or_else(|| bad(name, "expected an integer")),
            Some(Value::String(s)) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| bad(name, "expected an integer")),
            Some(_) => Err(bad(name, "expected an integer")),
        }
    }

    pub(crate) fn number(&self, name: &str) -> Result<Option<f64>, SetupError> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(Value::String(s)) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| bad(name, "expected a number")),
            Some(_) => Err(bad(name, "expected a number")),
        }
    }

    pub(crate) fn flag(&self, name: &str) -> Result<Option<bool>, SetupError> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "t" => Ok(Some(true)),
                "false" | "no" | "f" => Ok(Some(false)),
                _ => Err(bad(name, "expected true or false")),
            },
            Some(_) => Err(bad(name, "expected true or false")),
        }
    }

    /// One of a fixed set of values (the first is the default); unambiguous
    /// prefixes are accepted.
    pub(crate) fn choice(
        &self,
        name: &str,
        options: &[&'static str],
    ) -> Result<&'static str, SetupError> {
        let Some(given) = self.text(name)? else {
            return Ok(options.first().copied().unwrap_or(""));
        };
        if let Some(exact) = options.iter().find(|o| **o == given) {
            return Ok(exact);
        }
        let mut prefixed = options.iter().filter(|o| o.starts_with(given.as_str()));
        match (prefixed.next(), prefixed.next()) {
            (Some(only), None) if !given.is_empty() => Ok(only),
            _ => Err(bad(
                name,
                &format!("expected one of {}", options.join(", ")),
            )),
        }
    }

    /// A text argument; lists are joined (each element is one character's worth).
    pub(crate) fn text(&self, name: &str) -> Result<Option<String>, SetupError> {
        match self.values.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Sequence(items)) => items
                .iter()
                .map(scalar_text)
                .collect::<Option<Vec<String>>>()
                .map(|parts| Some(parts.concat()))
                .ok_or_else(|| bad(name, "expected text")),
            Some(other) => scalar_text(other)
                .map(Some)
                .ok_or_else(|| bad(name, "expected text")),
        }
    }
}

pub(crate) fn bad(argument: &str, message: &str) -> SetupError {
    SetupError::BadArgument {
        argument: argument.to_string(),
        message: message.to_string(),
    }
}

fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "TRUE" } else { "FALSE" }.to_string()),
        _ => None,
    }
}
