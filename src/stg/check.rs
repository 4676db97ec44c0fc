//! Static checks of LANGUAGE.md "Static errors", free-variable inference and `\n` normalisation.
