//! Why a setup could not be built.

use std::fmt;

use crate::ppn::rules::setups::names::{normalize_name, title_case};

/// Why a setup could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum SetupError {
    /// No setup of that name in the system nor among the piecepack setups.
    UnknownGame {
        name: String,
        system: String,
        suggestions: Vec<String>,
    },
    /// The system is not known and the game has no piecepack setup either.
    UnknownSystem {
        system: String,
        suggestions: Vec<String>,
    },
    /// An argument the setup does not take, or a value it cannot use.
    BadArgument { argument: String, message: String },
    /// An argument the setup does not take (normalised name), and those it does take.
    UnknownArgument {
        argument: String,
        accepted: Vec<String>,
    },
    /// The `SetUp`/`GameType` value is neither a name nor a mapping with a `Name`.
    BadValue { message: String },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnknownGame {
                name,
                system,
                suggestions,
            } => {
                write!(f, "unknown game `{name}` for system `{system}`")?;
                if !suggestions.is_empty() {
                    let titled: Vec<String> = suggestions
                        .iter()
                        .map(|name| {
                            let title = title_case(name);
                            if normalize_name(&title) == *name {
                                format!("`{title}`")
                            } else {
                                format!("`{name}`")
                            }
                        })
                        .collect();
                    write!(f, "; did you mean {}?", titled.join(", "))?;
                }
                Ok(())
            }
            SetupError::UnknownSystem {
                system,
                suggestions,
            } => {
                write!(f, "unknown game system `{system}`")?;
                if !suggestions.is_empty() {
                    write!(f, "; did you mean {}?", suggestions.join(", "))?;
                }
                Ok(())
            }
            SetupError::BadArgument { argument, message } => {
                write!(f, "bad setup argument `{argument}`: {message}")
            }
            SetupError::UnknownArgument { argument, accepted } => {
                if accepted.is_empty() {
                    write!(
                        f,
                        "`{argument}` is not an argument of this setup, which takes none"
                    )
                } else {
                    write!(
                        f,
                        "`{argument}` is not an argument of this setup; it takes {}",
                        accepted.join(", ")
                    )
                }
            }
            SetupError::BadValue { message } => write!(f, "bad SetUp/GameType value: {message}"),
        }
    }
}

impl std::error::Error for SetupError {}
