//! Every file both tools read or write, and how: input read with a bound
//! ([`read_input`], [`open_input`]: a regular file no larger than a limit,
//! or standard input), output written whole or not at all ([`OutputFile`],
//! [`write_atomic`]: a temporary file whose name fits the file system's
//! limit, renamed over the path; stale temporaries of dead processes
//! removed), output paths checked before a run ([`OutputPlan`]: creatable,
//! and not one of the run's own inputs), and a writer that waits for room
//! in a pipe or terminal without ignoring a stop request
//! ([`WaitingWriter`]).

use std::ffi::{OsStr, OsString};
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::stop;

/// The default largest input file, in bytes (`--max-input-size`): far
/// above any program or profile a person writes or a run produces, far
/// below what would exhaust memory.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 256 << 20;

/// The name that reads standard input where a tool accepts it.
pub const STDIN_NAME: &str = "-";

// ----- reading -------------------------------------------------------------

/// Why an input was not read. Its `Display` names the file, says what is
/// wrong and what to do: `cannot read prog.stg: ...`.
#[derive(Debug)]
pub struct InputError {
    /// The file as the user named it (`standard input` for `-`).
    pub name: String,
    pub problem: InputProblem,
    /// Whether the tool takes `-` for standard input (the message then
    /// says so for a pipe or a device).
    pub stdin_accepted: bool,
}

#[derive(Debug)]
pub enum InputProblem {
    /// Opening or reading failed.
    Io(io::Error),
    /// Not a regular file: a directory, a device, a FIFO, a socket.
    NotRegular { kind: &'static str },
    /// Larger than the limit (`size` is what was seen: the file's size, or
    /// more than `limit` bytes of standard input).
    TooLarge { size: Option<u64>, limit: u64 },
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: ", self.name)?;
        match &self.problem {
            InputProblem::Io(e) => write!(f, "{e}"),
            InputProblem::NotRegular { kind } => {
                write!(
                    f,
                    "it is {kind}, not a regular file; give the path of a file"
                )?;
                if self.stdin_accepted && !kind.contains("directory") {
                    write!(f, ", or `-` and send the data to standard input")?;
                }
                Ok(())
            }
            InputProblem::TooLarge { size, limit } => {
                match size {
                    Some(size) => write!(f, "it is {}", bytes_text(*size))?,
                    None => write!(f, "it gives more than {}", bytes_text(*limit))?,
                }
                write!(
                    f,
                    ", over the limit of {} on input files; raise it with \
                     --max-input-size if the file is right",
                    bytes_text(*limit)
                )
            }
        }
    }
}

impl std::error::Error for InputError {}

/// `n` bytes as people read it: `300 MB (314572800 bytes)`.
pub fn bytes_text(n: u64) -> String {
    const M: u64 = 1 << 20;
    if n >= M {
        format!("{} MB ({n} bytes)", n / M)
    } else {
        format!("{n} bytes")
    }
}

/// What a file that is not a regular one is, for messages.
fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_char_device() {
        "a character device (like /dev/zero or a terminal)"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// An input opened for reading: a regular file of at most the limit, or
/// standard input. Reading more than the limit is an error (a file that
/// grows while it is read, or standard input), so whatever reads it holds
/// at most the limit.
pub struct Input {
    name: String,
    source: Box<dyn Read>,
    size: Option<u64>,
    read: u64,
    limit: u64,
    stdin_accepted: bool,
}

impl Input {
    /// The file's size when it is a regular one: the capacity to read it into.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// The file as messages name it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Reads it all, into a buffer of exactly its size for a regular file.
    pub fn read_all(mut self) -> Result<Vec<u8>, InputError> {
        // Never more than the limit: a file's size is checked at opening.
        let capacity = self.size.unwrap_or(0).min(self.limit) as usize;
        let mut bytes = Vec::with_capacity(capacity);
        match self.read_to_end(&mut bytes) {
            Ok(_) => Ok(bytes),
            Err(e) => Err(self.error_of(e)),
        }
    }

    /// The [`InputError`] for an error that reading it gave (a streaming
    /// reader calls it on the errors of its `read` calls).
    pub fn error_of(&self, e: io::Error) -> InputError {
        let problem = match e
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<OverLimit>())
        {
            Some(_) => InputProblem::TooLarge {
                size: None,
                limit: self.limit,
            },
            None => InputProblem::Io(e),
        };
        InputError {
            name: self.name.clone(),
            problem,
            stdin_accepted: self.stdin_accepted,
        }
    }
}

/// The error reading gives past the limit ([`Input::error_of`] names it).
#[derive(Debug)]
struct OverLimit;

impl std::fmt::Display for OverLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("more input than the limit")
    }
}

impl std::error::Error for OverLimit {}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // One byte past the limit is read to tell "exactly the limit" from "more".
        let room = (self.limit + 1 - self.read).min(buf.len() as u64) as usize;
        let n = self.source.read(&mut buf[..room])?;
        self.read += n as u64;
        if self.read > self.limit {
            return Err(io::Error::new(io::ErrorKind::InvalidData, OverLimit));
        }
        Ok(n)
    }
}

/// Opens `path` for reading: refused at once, before anything is read, if
/// it is not a regular file or is larger than `limit` bytes. The file is
/// opened without waiting (a FIFO with no writer would block the opening)
/// and checked on what was opened, not on the name.
pub fn open_input(path: &Path, limit: u64) -> Result<Input, InputError> {
    open(path, limit, false)
}

/// Opens `path` as [`open_input`] does, except that `-` is standard input
/// (any kind but a directory: a pipe, a terminal, a redirected file),
/// bounded by the same `limit`.
pub fn open_input_or_stdin(path: &Path, limit: u64) -> Result<Input, InputError> {
    open(path, limit, true)
}

fn open(path: &Path, limit: u64, stdin_accepted: bool) -> Result<Input, InputError> {
    let stdin = stdin_accepted && path.as_os_str() == STDIN_NAME;
    let name = if stdin {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let fail = |problem| InputError {
        name: name.clone(),
        problem,
        stdin_accepted,
    };
    let (source, meta): (Box<dyn Read>, _) = if stdin {
        let stdin = io::stdin();
        // A duplicate of descriptor 0, to look at what it is.
        let meta = stdin
            .as_fd()
            .try_clone_to_owned()
            .map(File::from)
            .and_then(|f| f.metadata())
            .map_err(|e| fail(InputProblem::Io(e)))?;
        (Box::new(stdin), meta)
    } else {
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
            .map_err(|e| fail(InputProblem::Io(e)))?;
        let meta = file.metadata().map_err(|e| fail(InputProblem::Io(e)))?;
        (Box::new(file), meta)
    };
    // Standard input may be a pipe or a terminal, bounded as it is read.
    if !meta.is_file() && (meta.is_dir() || !stdin) {
        return Err(fail(InputProblem::NotRegular {
            kind: kind_of(&meta),
        }));
    }
    // Of a redirected standard input only what follows its offset is
    // read; the file's size bounds that.
    let size = meta.is_file().then_some(meta.len());
    if let Some(size) = size.filter(|&size| size > limit) {
        return Err(fail(InputProblem::TooLarge {
            size: Some(size),
            limit,
        }));
    }
    Ok(Input {
        name,
        source,
        size,
        read: 0,
        limit,
        stdin_accepted,
    })
}

/// The whole of `path` (see [`open_input`]): a regular file of at most
/// `limit` bytes, read into a buffer of its size.
pub fn read_input(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    open_input(path, limit)?.read_all()
}

/// The whole of `path`, or of standard input for `-` (see
/// [`open_input_or_stdin`]).
pub fn read_input_or_stdin(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    open_input_or_stdin(path, limit)?.read_all()
}

/// Which file a path names: its device and inode, so that two names of one
/// file (a relative and an absolute path, a hard or symbolic link) compare
/// equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// The file `path` names (links followed), if it exists.
    pub fn of(path: &Path) -> Option<FileId> {
        std::fs::metadata(path).ok().map(|m| FileId::from(&m))
    }
}

impl From<&Metadata> for FileId {
    fn from(m: &Metadata) -> FileId {
        FileId {
            dev: m.dev(),
            ino: m.ino(),
        }
    }
}

// ----- waiting for room ------------------------------------------------------

/// How long a [`WaitingWriter`] waits for room once a stop is requested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Patience {
    /// The output of a run: wait for room until a stop is requested; after
    /// one, write only what goes without waiting (the run stops at its next
    /// look at the flag anyway).
    Run,
    /// The end of a run (messages, the profile): wait, after a stop
    /// request, until [`stop::GRACE`] after it.
    End,
}

/// A writer to a descriptor that may have no room (a pipe, a terminal, a
/// socket, a FIFO): before each write it waits, in slices of 20 ms, until
/// the descriptor takes data, and gives up with [`stop::Stopped`] when a
/// stop is requested (see [`Patience`]). A regular file is written
/// directly. Writes to anything else are at most `PIPE_BUF` bytes, which a
/// pipe with room takes without blocking. EINTR and EAGAIN are retried, so
/// a descriptor another process left non-blocking works too.
pub struct WaitingWriter {
    fd: RawFd,
    /// The file, when this writer owns the descriptor.
    _owned: Option<File>,
    regular: bool,
    patience: Patience,
    /// Set when the descriptor was closed when the process started: every
    /// write fails with this name of it.
    closed: Option<&'static str>,
}

/// The most bytes one write to a pipe takes without blocking once poll
/// says there is room (POSIX's `PIPE_BUF`, 4096 on Linux).
const PIPE_CHUNK: usize = 4096;

/// One slice of waiting for room, between two looks at the stop request.
const WAIT_SLICE_MS: i32 = 20;

impl WaitingWriter {
    /// A writer to the process's descriptor `fd` (1 or 2), which it does
    /// not close. `closed` names it when it was closed at start-up.
    pub fn borrowed(fd: RawFd, patience: Patience, closed: Option<&'static str>) -> WaitingWriter {
        WaitingWriter {
            fd,
            _owned: None,
            regular: is_regular(fd),
            patience,
            closed,
        }
    }

    /// A writer to `file`, which it owns.
    pub fn owned(file: File, patience: Patience) -> WaitingWriter {
        WaitingWriter {
            fd: file.as_raw_fd(),
            regular: file.metadata().is_ok_and(|m| m.is_file()),
            _owned: Some(file),
            patience,
            closed: None,
        }
    }

    /// Waits until the descriptor takes data, or gives up on a stop request.
    fn wait_for_room(&self) -> io::Result<()> {
        loop {
            // The last wait: no room at its end means giving up.
            let (wait_ms, last) = match (stop::grace_left(), self.patience) {
                (None, _) => (WAIT_SLICE_MS, false),
                (Some(_), Patience::Run) => (0, true),
                (Some(left), Patience::End) => {
                    let left = left.as_millis().min(WAIT_SLICE_MS as u128) as i32;
                    (left, left < WAIT_SLICE_MS)
                }
            };
            let mut pfd = libc::pollfd {
                fd: self.fd,
                events: libc::POLLOUT,
                revents: 0,
            };
            // SAFETY: `pfd` is one valid pollfd for the duration of the call.
            let n = unsafe { libc::poll(&mut pfd, 1, wait_ms) };
            if n > 0 {
                // Room, or an error or hang-up that the write will report.
                return Ok(());
            }
            if n < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            } else if last {
                return Err(stop::Stopped::error());
            }
        }
    }
}

fn is_regular(fd: RawFd) -> bool {
    // SAFETY: `st` is written by fstat before it is read; a bad descriptor
    // gives -1 and leaves it unread.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st) == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFREG
    }
}

impl Write for WaitingWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if let Some(name) = self.closed {
            return Err(io::Error::other(format!("{name} is closed")));
        }
        loop {
            let n = if self.regular {
                buf.len()
            } else {
                self.wait_for_room()?;
                buf.len().min(PIPE_CHUNK)
            };
            // SAFETY: `buf[..n]` is valid for reads of `n` bytes.
            let r = unsafe { libc::write(self.fd, buf.as_ptr().cast(), n) };
            if r >= 0 {
                return Ok(r as usize);
            }
            let e = io::Error::last_os_error();
            match e.raw_os_error() {
                // Retried: a signal, or a descriptor left non-blocking
                // (the next wait is for room).
                Some(libc::EINTR) | Some(libc::EAGAIN) => {}
                _ => return Err(e),
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

// ----- writing whole or not at all -----------------------------------------

/// The temporary files this process is writing, removed by
/// [`remove_live_temporaries`] when a second signal ends it at once.
static LIVE_TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary files this process is writing. For the signal
/// handler ending the process: it does not wait for a writer holding the
/// list (that writer's file is then left, to be removed by a later run).
pub fn remove_live_temporaries() {
    if let Ok(list) = LIVE_TEMPORARIES.try_lock() {
        for path in list.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn register_temporary(path: &Path) {
    if let Ok(mut list) = LIVE_TEMPORARIES.lock() {
        list.push(path.to_path_buf());
    }
}

fn unregister_temporary(path: &Path) {
    if let Ok(mut list) = LIVE_TEMPORARIES.lock() {
        list.retain(|p| p != path);
    }
}

/// A file being written whole or not at all: into a temporary file in the
/// same directory, synced, and renamed over the path by
/// [`OutputFile::finish`]; dropped unfinished, the temporary is removed. A
/// path that exists and is not a regular file (`/dev/null`, `/dev/full`,
/// a FIFO) is written to directly, as a shell redirection would: renaming
/// over it would replace the device or pipe with a file. A symbolic link is
/// followed (the file it names is replaced, the link kept).
///
/// Streaming writers (a heap profile written as its samples are taken)
/// write to it as they go and finish it at the end.
pub struct OutputFile {
    target: Target,
}

enum Target {
    Temporary {
        file: File,
        temp: PathBuf,
        path: PathBuf,
        dir: PathBuf,
    },
    Direct(WaitingWriter),
    Done,
}

impl OutputFile {
    /// Starts writing `path`: removes stale temporaries of dead processes
    /// left for it, then creates this run's.
    pub fn create(path: &Path) -> io::Result<OutputFile> {
        let path = follow_links(path)?;
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "it is a directory; give a file name",
                ));
            }
            Ok(m) if !m.is_file() => {
                let file = open_direct(&path)?;
                return Ok(OutputFile {
                    target: Target::Direct(WaitingWriter::owned(file, Patience::End)),
                });
            }
            _ => {}
        }
        let (dir, name) = dir_and_name(&path)?;
        let stem = temp_stem(&dir, name);
        remove_stale_temporaries(&dir, &stem);
        let (temp, file) = create_temporary(&dir, &stem)?;
        register_temporary(&temp);
        Ok(OutputFile {
            target: Target::Temporary {
                file,
                temp,
                path,
                dir,
            },
        })
    }

    /// Ends the writing: syncs the temporary and renames it over the path.
    pub fn finish(mut self) -> io::Result<()> {
        match std::mem::replace(&mut self.target, Target::Done) {
            Target::Temporary {
                file,
                temp,
                path,
                dir,
            } => {
                let result = (|| {
                    file.sync_all()?;
                    drop(file);
                    std::fs::rename(&temp, &path)?;
                    // Make the rename itself durable where the platform allows it.
                    if let Ok(d) = File::open(&dir) {
                        let _ = d.sync_all();
                    }
                    Ok(())
                })();
                if result.is_err() {
                    let _ = std::fs::remove_file(&temp);
                }
                unregister_temporary(&temp);
                result
            }
            Target::Direct(mut w) => w.flush(),
            Target::Done => Ok(()),
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Temporary { file, .. } => file.write(buf),
            Target::Direct(w) => w.write(buf),
            Target::Done => Ok(0),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.target {
            Target::Temporary { file, .. } => file.flush(),
            Target::Direct(w) => w.flush(),
            Target::Done => Ok(()),
        }
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Target::Temporary { temp, .. } = &self.target {
            let _ = std::fs::remove_file(temp);
            unregister_temporary(temp);
        }
    }
}

/// Writes `bytes` to `path` whole or not at all (see [`OutputFile`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut out = OutputFile::create(path)?;
    out.write_all(bytes)?;
    out.finish()
}

/// Opens an existing device or FIFO for writing. A FIFO with no reader yet
/// is waited for, as `cat > fifo` waits, but in slices, so that a stop
/// request ends the wait after [`stop::GRACE`].
fn open_direct(path: &Path) -> io::Result<File> {
    loop {
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => {
                // Writes wait in `WaitingWriter`, not in the kernel.
                return Ok(file);
            }
            // ENXIO: a FIFO that nobody has opened for reading yet.
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                if stop::grace_left().is_some_and(|left| left.is_zero()) {
                    return Err(io::Error::new(
                        io::ErrorKind::Interrupted,
                        "interrupted while waiting for a reader of the FIFO",
                    ));
                }
                std::thread::sleep(std::time::Duration::from_millis(WAIT_SLICE_MS as u64));
            }
            Err(e) => return Err(e),
        }
    }
}

/// The directory `path` is in (`.` for a bare name) and its file name.
fn dir_and_name(path: &Path) -> io::Result<(PathBuf, &OsStr)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file name", path.display()),
        )
    })?;
    Ok((dir, name))
}

/// Creates a new temporary `<stem>.<pid>.<n>.tmp` in `dir`, with the first
/// `n` that names no existing file (`create_new` never clobbers anything).
fn create_temporary(dir: &Path, stem: &OsStr) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    for attempt in 0..MAX_ATTEMPTS {
        let candidate = dir.join(temp_name(stem, pid, attempt));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => return Ok((candidate, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "{MAX_ATTEMPTS} temporary files named {}.{pid}.N.tmp exist in {}; remove them",
            stem.to_string_lossy(),
            dir.display()
        ),
    ))
}

/// Attempts at a free temporary name (their number has at most 3 digits).
const MAX_ATTEMPTS: u32 = 1000;

/// The longest suffix a temporary's stem gets: `.<pid>.<n>.tmp` with a
/// 10-digit process id and a 3-digit attempt.
const MAX_SUFFIX: usize = ".4294967295.999.tmp".len();

/// The bytes of a hash of a long name kept in its temporary's stem.
const HASH_DIGITS: usize = 16;

/// The longest file name `dir` takes (`NAME_MAX`, 255 where it cannot be asked).
fn name_max(dir: &Path) -> usize {
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return 255;
    };
    // SAFETY: `c` is a valid NUL-terminated string for the call.
    let n = unsafe { libc::pathconf(c.as_ptr(), libc::_PC_NAME_MAX) };
    if n > 0 { n as usize } else { 255 }
}

/// The stem of the temporary files for `name` in `dir`: `.NAME`, or, when
/// that with the longest suffix would pass the directory's limit on name
/// length, `.` + the start of NAME + `~` + a hash of the whole NAME, so
/// that the temporary's name always fits and two long names still get
/// different stems. The same for every run, so that a later run finds the
/// temporaries an earlier one left.
fn temp_stem(dir: &Path, name: &OsStr) -> OsString {
    let budget = name_max(dir).saturating_sub(1 + MAX_SUFFIX);
    let bytes = name.as_bytes();
    let mut stem = vec![b'.'];
    if bytes.len() <= budget {
        stem.extend_from_slice(bytes);
    } else {
        let mut keep = budget.saturating_sub(1 + HASH_DIGITS);
        // Cut at a character boundary when the name is UTF-8.
        if let Ok(text) = std::str::from_utf8(bytes) {
            while keep > 0 && !text.is_char_boundary(keep) {
                keep -= 1;
            }
        }
        stem.extend_from_slice(&bytes[..keep]);
        stem.extend_from_slice(format!("~{:016x}", fnv1a(bytes)).as_bytes());
    }
    OsString::from_vec(stem)
}

/// `<stem>.<pid>.<attempt>.tmp`.
fn temp_name(stem: &OsStr, pid: u32, attempt: u32) -> OsString {
    let mut name = stem.to_os_string();
    name.push(format!(".{pid}.{attempt}.tmp"));
    name
}

/// The 64-bit FNV-1a hash (stable across runs and builds, unlike std's).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Removes the temporaries `<stem>.<pid>.<n>.tmp` in `dir` whose process is
/// no longer running (a run killed with SIGKILL while writing): each run
/// that writes a file cleans up after the runs before it, so at most one
/// is ever left. A temporary of a live process (another run writing the
/// same file) is left alone.
fn remove_stale_temporaries(dir: &Path, stem: &OsStr) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let own = std::process::id();
    let live = LIVE_TEMPORARIES
        .lock()
        .map(|l| l.clone())
        .unwrap_or_default();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = temporary_pid(name.as_bytes(), stem.as_bytes()) else {
            continue;
        };
        let path = entry.path();
        let dead = if pid == own {
            !live.contains(&path)
        } else {
            !process_is_running(pid)
        };
        if dead {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The process id in `name` if it is a temporary `<stem>.<pid>.<n>.tmp`.
fn temporary_pid(name: &[u8], stem: &[u8]) -> Option<u32> {
    let rest = name.strip_prefix(stem)?.strip_prefix(b".")?;
    let rest = rest.strip_suffix(b".tmp")?;
    let text = std::str::from_utf8(rest).ok()?;
    let (pid, attempt) = text.split_once('.')?;
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(pid) || !all_digits(attempt) {
        return None;
    }
    pid.parse().ok()
}

/// Whether a process `pid` exists (a process of another user counts).
fn process_is_running(pid: u32) -> bool {
    // 0 and negative ids name process groups: never ask about them.
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    if pid <= 0 {
        return true;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// `path` with its symbolic links followed (the last one may name a file
/// that does not exist yet). A link the kernel follows to something other
/// than a file or a folder but whose text names nothing, as
/// `/dev/stdout` → `/proc/self/fd/1` → `pipe:[123]` does when standard
/// output is a pipe or a socket, is kept: it is opened as it is, the
/// device it leads to written directly.
pub fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // As the kernel's limit on links followed in one look-up.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                let next = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(&target),
                    _ => target,
                };
                if std::fs::symlink_metadata(&next).is_err()
                    && std::fs::metadata(&path).is_ok_and(|m| !m.is_file() && !m.is_dir())
                {
                    return Ok(path);
                }
                path = next;
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: too many levels of symbolic links", path.display()),
    ))
}

// ----- checking outputs before a run ---------------------------------------

/// The files a run will write, checked before it starts (a profile that
/// cannot be written is found before the run, not after it): each can be
/// created, none is one of the run's own input files, and no two are the
/// same file.
pub struct OutputPlan {
    inputs: Vec<(PathBuf, FileId)>,
    outputs: Vec<(String, PathBuf, Option<FileId>)>,
}

impl OutputPlan {
    /// A plan for a run that reads `inputs` (files that do not exist are
    /// skipped: reading them fails first).
    pub fn new(inputs: &[PathBuf]) -> OutputPlan {
        OutputPlan {
            inputs: inputs
                .iter()
                .filter_map(|p| Some((p.clone(), FileId::of(p)?)))
                .collect(),
            outputs: Vec::new(),
        }
    }

    /// Adds `path`, where the run will write `what` ("the profile"): an
    /// error saying what is wrong and what to do if it cannot be created,
    /// is one of the inputs or is where another output goes. Creating it is
    /// tried with a temporary file, removed at once: nothing at `path` is
    /// touched.
    pub fn add(&mut self, what: &str, path: &Path) -> Result<(), String> {
        let cannot = |why: String| format!("cannot write {what} to {}: {why}", path.display());
        let resolved = follow_links(path).map_err(|e| cannot(e.to_string()))?;
        let (dir, name) = dir_and_name(&resolved).map_err(|e| cannot(e.to_string()))?;
        let existing = std::fs::metadata(&resolved).ok();
        let id = existing.as_ref().map(FileId::from);
        if let Some(id) = id
            && let Some((input, _)) = self.inputs.iter().find(|(_, i)| *i == id)
        {
            let which = if input == path {
                String::new()
            } else {
                format!(" {} (the same file)", input.display())
            };
            return Err(cannot(format!(
                "it is one of the run's input files{which}, which would be \
                 overwritten; choose another path"
            )));
        }
        match &existing {
            Some(m) if m.is_dir() => {
                return Err(cannot("it is a directory; give a file name".into()));
            }
            Some(m) if !m.is_file() => {
                // A device or FIFO is written directly: it must be writable.
                let c = std::ffi::CString::new(resolved.as_os_str().as_bytes())
                    .map_err(|e| cannot(e.to_string()))?;
                // SAFETY: `c` is a valid NUL-terminated string for the call.
                if unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0 {
                    return Err(cannot(io::Error::last_os_error().to_string()));
                }
            }
            _ => {
                if !dir.is_dir() {
                    let what_dir = if dir.exists() {
                        "is not a folder"
                    } else {
                        "does not exist"
                    };
                    return Err(cannot(format!(
                        "{} {what_dir}; create it or choose another path",
                        dir.display()
                    )));
                }
                if name.len() > name_max(&dir) {
                    return Err(cannot(format!(
                        "the file name is {} bytes long, more than the {} this file system allows",
                        name.len(),
                        name_max(&dir)
                    )));
                }
                let stem = temp_stem(&dir, name);
                let (temp, file) = create_temporary(&dir, &stem).map_err(|e| {
                    cannot(format!("no file can be created in {}: {e}", dir.display()))
                })?;
                drop(file);
                let _ = std::fs::remove_file(&temp);
            }
        }
        let canonical = dir
            .canonicalize()
            .map(|d| d.join(name))
            .unwrap_or_else(|_| resolved.clone());
        if let Some((other, _, _)) = self
            .outputs
            .iter()
            .find(|(_, p, i)| *p == canonical || (id.is_some() && *i == id))
        {
            return Err(cannot(format!(
                "{other} is written there too; give them different paths"
            )));
        }
        self.outputs.push((what.to_string(), canonical, id));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_name_gets_a_stem_that_fits_with_any_suffix() {
        let dir = Path::new("/tmp");
        for len in [1, 200, 230, 234, 235, 243, 255] {
            let name = OsString::from("a".repeat(len));
            let stem = temp_stem(dir, &name);
            let longest = temp_name(&stem, u32::MAX, MAX_ATTEMPTS - 1);
            assert!(longest.len() <= 255, "{len}: {}", longest.len());
            if len <= 234 {
                assert_eq!(stem.len(), len + 1);
            }
        }
        // Two long names that share their start get different stems.
        let a = OsString::from(format!("{}a", "x".repeat(250)));
        let b = OsString::from(format!("{}b", "x".repeat(250)));
        assert_ne!(temp_stem(dir, &a), temp_stem(dir, &b));
    }

    #[test]
    fn only_temporaries_of_the_stem_give_a_pid() {
        assert_eq!(temporary_pid(b".p.pgcl.123.0.tmp", b".p.pgcl"), Some(123));
        assert_eq!(temporary_pid(b".p.pgcl.123.tmp", b".p.pgcl"), None);
        assert_eq!(temporary_pid(b".p.pgcl.x.0.tmp", b".p.pgcl"), None);
        assert_eq!(temporary_pid(b".p.pgcl2.1.0.tmp", b".p.pgcl"), None);
        assert_eq!(temporary_pid(b".p.pgcl.1.0.tmp.x", b".p.pgcl"), None);
    }
}
