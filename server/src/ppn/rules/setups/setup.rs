//! A game's starting position, and what the movetext parser in use contributes to it.

use serde_yaml::Value;

use crate::model::piece::Piece;
use crate::ppn::rules::setups::names::normalize_name;

/// The starting position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Bottom piece first.
    pub pieces: Vec<Piece>,
    /// How many inches a coordinate unit is worth (checker boards with wide cells,
    /// some piecepack layouts and the marble board change it).
    pub scale_factor: f64,
    /// Macros the setup defines for the movetext, as (name, expansion).
    pub macros: Vec<(String, String)>,
}

impl Default for Setup {
    /// An empty board at the usual scale.
    fn default() -> Self {
        Setup {
            pieces: Vec::new(),
            scale_factor: 1.0,
            macros: Vec::new(),
        }
    }
}

/// What the movetext parser in use contributes to setups.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupContext {
    /// The system used when the metadata names none (`piecepack` for the default
    /// parser, `checker` for the checker parser, ...).
    pub default_system: String,
    /// Board cell width chosen by the checker and chess parsers; `None` means 1.
    pub cell_width: Option<u32>,
}

impl SetupContext {
    /// The context a `MovetextParser` sets up: its default system and, for the
    /// checker and chess parsers, a cell width (2 unless given).
    pub fn for_parser(parser: &str, cell_width: Option<u32>) -> SetupContext {
        let name = normalize_name(parser);
        let (system, width) = match name.as_str() {
            "checker" | "chess" => (name.as_str(), Some(cell_width.unwrap_or(2))),
            "alquerque" | "domino" | "go" | "morris" | "tarot" => (name.as_str(), None),
            "marble" => ("marbles", None),
            _ => ("piecepack", None),
        };
        SetupContext {
            default_system: system.to_string(),
            cell_width: width,
        }
    }
}

impl SetupContext {
    /// The context for a game's metadata: from its `MovetextParser`, a parser
    /// name or a mapping with `Name` and perhaps `Cell Width`.
    pub fn from_metadata(metadata: &Value) -> SetupContext {
        match metadata.get("MovetextParser") {
            Some(Value::String(name)) => SetupContext::for_parser(name, None),
            Some(Value::Mapping(mapping)) => {
                let mut name = None;
                let mut cell_width = None;
                for (key, value) in mapping {
                    match key.as_str().map(normalize_name).as_deref() {
                        Some("name") => name = value.as_str().map(str::to_string),
                        Some("cell_width") => {
                            cell_width = value.as_u64().and_then(|w| u32::try_from(w).ok())
                        }
                        _ => {}
                    }
                }
                SetupContext::for_parser(name.as_deref().unwrap_or("default"), cell_width)
            }
            _ => SetupContext::default(),
        }
    }
}

impl Default for SetupContext {
    fn default() -> Self {
        SetupContext {
            default_system: "piecepack".to_string(),
            cell_width: None,
        }
    }
}
