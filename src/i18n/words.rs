//! The table macro the word lists are written with.

/// Declares a key enum and the function giving its words, from one table in which each key
/// sits beside its Chinese and English.
macro_rules! words {
    (
        $(#[$doc:meta])*
        $vis:vis enum $name:ident => $fvis:vis fn $func:ident;
        $($key:ident => ($zh:expr, $en:expr $(,)?)),* $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $($key),*
        }

        /// The words for `key` in `lang`.
        $fvis fn $func(key: $name, lang: $crate::i18n::Lang) -> &'static str {
            match key {
                $($name::$key => lang.pick($zh, $en)),*
            }
        }
    };
}
pub(crate) use words;
