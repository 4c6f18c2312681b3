//! The table macro the word lists are written with.

/// Declares a key enum and the function giving its words, from one table in which each key
/// sits beside its Chinese and English. A key may carry doc comments; so may the function
/// (written after `=>`), which otherwise gets a plain one.
macro_rules! words {
    (
        $(#[$doc:meta])*
        $vis:vis enum $name:ident => $(#[$fdoc:meta])+ $fvis:vis fn $func:ident;
        $($(#[$kdoc:meta])* $key:ident => ($zh:expr, $en:expr $(,)?)),* $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$kdoc])* $key),*
        }

        $(#[$fdoc])*
        $fvis fn $func(key: $name, lang: $crate::i18n::Lang) -> &'static str {
            match key {
                $($name::$key => lang.pick($zh, $en)),*
            }
        }
    };
    (
        $(#[$doc:meta])*
        $vis:vis enum $name:ident => $fvis:vis fn $func:ident;
        $($(#[$kdoc:meta])* $key:ident => ($zh:expr, $en:expr $(,)?)),* $(,)?
    ) => {
        $crate::i18n::words! {
            $(#[$doc])*
            $vis enum $name =>
            /// The words for `key` in `lang`.
            $fvis fn $func;
            $($(#[$kdoc])* $key => ($zh, $en)),*
        }
    };
}
pub(crate) use words;
