//! The `locklab` binary: parse the command line, pick the language and the content, and run
//! the command.

use locklab::cli::Cli;
use locklab::i18n::Lang;
use locklab::source::Source;

use locklab::explore::memory;
use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, reporting the heap in use so that a search can stop at its memory
/// limit instead of running out.
struct Counting;

// SAFETY: every call is passed straight to the system allocator; the reports are arithmetic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            memory::allocated(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            memory::allocated(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        memory::freed(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            memory::allocated(new_size);
            memory::freed(layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// glibc keeps freed memory for reuse; a finished search's is handed back to the system.
fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

fn main() {
    memory::on_give_back(give_back);
    let cli = Cli::parse_args();
    let lang = cli.lang.unwrap_or_else(Lang::from_env);
    let source = match cli.content.clone() {
        None => Source::Embedded,
        Some(dir) => Source::from_dir(dir).unwrap_or_else(|e| {
            let e = locklab::error::UserError::from(e);
            eprintln!("locklab: {}", locklab::text::bounded_message(&e.message));
            std::process::exit(e.status)
        }),
    };
    if let Err(e) = locklab::cmd::run(cli, lang, &source) {
        // Messages can quote a user's file: no control character reaches the terminal, and no
        // line runs on with a whole bad value.
        eprintln!("locklab: {}", locklab::text::bounded_message(&e.message));
        std::process::exit(e.status);
    }
}
