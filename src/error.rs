//! The one error every command returns: a message for the user and the exit status to end with.
//! The live lab, below the commands, returns the same type.

/// A failure to report to the user, with the exit status to use (2 for input the user can fix).
#[derive(Debug)]
pub struct UserError {
    pub message: String,
    pub status: i32,
}

impl UserError {
    /// Input the user can fix: a bad option, file or name.
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            status: 2,
        }
    }

    /// A failure the user's input did not cause.
    pub fn failed(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            status: 1,
        }
    }
}
