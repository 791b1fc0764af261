//! Game setups.
