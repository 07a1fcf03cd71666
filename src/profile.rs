//! Profiles: `compat` (the default) reproduces the reference byte for
//! byte; `lean` is this project's own — detection that names payloads as a
//! person would, and compressors that drop more while stating what held.
//!
//! A profile is a parameter of detection, the registry and the shared
//! skeleton, never a second copy of a compressor.

use std::fmt;

/// Which rules detection and the compressors follow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The reference's behaviour, byte-identical on every conformance case.
    #[default]
    Compat,
    /// Ours: more kinds compressed, fewer representatives, facts in markers.
    Lean,
}

/// The environment variable that picks the profile when no flag does.
pub const ENV: &str = "CAVEMAN_ENGINE_PROFILE";

impl Profile {
    pub const ALL: [Profile; 2] = [Profile::Compat, Profile::Lean];

    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Compat => "compat",
            Profile::Lean => "lean",
        }
    }

    /// The profile named `name` (exact, lower case).
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// The profile `CAVEMAN_ENGINE_PROFILE` names: unset or empty is
    /// compat; anything else must be a profile's name.
    pub fn from_env() -> Result<Profile, String> {
        match std::env::var(ENV) {
            Ok(v) if !v.is_empty() => Profile::from_name(&v).ok_or_else(|| unknown(ENV, &v)),
            _ => Ok(Profile::Compat),
        }
    }

    pub fn is_lean(self) -> bool {
        self == Profile::Lean
    }
}

/// The message for a profile name that is none of ours.
pub fn unknown(source: &str, name: &str) -> String {
    format!("{source}: unknown profile {name:?} (compat or lean)")
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Profile::ALL {
            assert_eq!(Profile::from_name(p.as_str()), Some(p));
        }
        assert_eq!(Profile::from_name("Lean"), None);
        assert_eq!(Profile::default(), Profile::Compat);
    }
}
