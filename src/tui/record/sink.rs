//! Where the crossterm backend writes a recording's frames: memory shared with the recorder,
//! which takes what each frame wrote.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

#[derive(Debug, Clone, Default)]
pub struct Sink(Rc<RefCell<Vec<u8>>>);

impl Sink {
    /// What was written since the last call. The backend writes whole escape sequences and
    /// whole characters, so the bytes are text.
    pub fn take(&self) -> String {
        let bytes = std::mem::take(&mut *self.0.borrow_mut());
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
