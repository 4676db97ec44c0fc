//! The memory this process may use, and the default `--max-heap` and
//! `--max-stack` taken from it.
//!
//! A process in a memory cgroup (a container, a systemd unit) is killed by
//! the kernel when the cgroup passes its limit, however much memory the
//! machine has. So the memory available is the smallest of physical memory
//! (`MemTotal` in `/proc/meminfo`) and the memory limits of the cgroups
//! this process is in: cgroup v2's `memory.max` of its cgroup and of each
//! ancestor up to the mount point, cgroup v1's `memory.limit_in_bytes` of
//! the same (and `hierarchical_memory_limit` in its `memory.stat`). The
//! cgroups are found as the kernel lists them in `/proc/self/cgroup`, under
//! the mount points `/proc/self/mountinfo` gives (in a container with a
//! cgroup namespace the process's own cgroup is the mount's root).
//!
//! Without flags the heap may take [`HEAP_SHARE_PERCENT`] of it and the
//! stacks [`STACK_SHARE_PERCENT`]: together 80%, leaving room for the
//! program text, the profile and whatever else the cgroup holds, so that a
//! run that grows without end stops with a limit's error and its profile
//! rather than being killed.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The default heap limit's share of the memory available.
pub const HEAP_SHARE_PERCENT: u64 = 60;
/// The default stack limit's share of the memory available.
pub const STACK_SHARE_PERCENT: u64 = 20;
/// Assumed when neither physical memory nor a cgroup limit can be read.
const UNKNOWN_BYTES: u64 = 4 << 30;
/// A cgroup v1 limit at or above this is "no limit" (the kernel writes
/// `PAGE_COUNTER_MAX` pages, about 2^63 bytes).
const NO_LIMIT: u64 = 1 << 62;

/// Where the memory available was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The limit of a memory cgroup (`version` 1 or 2) in this directory.
    Cgroup { version: u8, dir: PathBuf },
    /// Physical memory, `MemTotal`.
    Physical,
    /// Nothing could be read: 4 GiB is assumed.
    Unknown,
}

/// The memory this process may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Available {
    pub bytes: u64,
    pub source: Source,
}

impl Available {
    /// For messages: "the 1610612736-byte limit of the memory cgroup
    /// /sys/fs/cgroup/...".
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Cgroup { version, dir } => format!(
                "the {}-byte limit of the memory cgroup {} (cgroup v{version})",
                self.bytes,
                dir.display()
            ),
            Source::Physical => format!("the {} bytes of physical memory", self.bytes),
            Source::Unknown => format!(
                "{} bytes (neither physical memory nor a cgroup limit could be read)",
                self.bytes
            ),
        }
    }
}

/// A limit in force: the bytes, and where they came from when no flag
/// gave them as they are (`None`: the flag gave them), as errors say it
/// after the limit ("the default: 60% of ...").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    pub bytes: u64,
    pub default_of: Option<String>,
}

impl Limit {
    fn new(flag: Option<u64>, percent: u64) -> Limit {
        match flag {
            Some(bytes) => Limit {
                bytes,
                default_of: None,
            },
            None => {
                let a = available();
                Limit {
                    bytes: a.bytes / 100 * percent,
                    default_of: Some(format!("the default: {percent}% of {}", a.describe())),
                }
            }
        }
    }
}

/// The heap limit: `--max-heap`, else [`HEAP_SHARE_PERCENT`] of [`available`].
pub fn heap_limit(flag: Option<u64>) -> Limit {
    Limit::new(flag, HEAP_SHARE_PERCENT)
}

/// The stack limit: `--max-stack`, else [`STACK_SHARE_PERCENT`] of
/// [`available`], but at most [`STACK_ADDRESS_SPACE_DIVISOR`]th of the
/// address space the process has left under its limit (`ulimit -v`,
/// [`address_space_left`]). Called once the heap has reserved its spaces,
/// which the address space left then leaves out.
pub fn stack_limit(flag: Option<u64>) -> Limit {
    let limit = Limit::new(flag, STACK_SHARE_PERCENT);
    match (limit.default_of.is_some(), address_space_left()) {
        (true, Some(left)) if left / STACK_ADDRESS_SPACE_DIVISOR < limit.bytes => {
            let share = left / STACK_ADDRESS_SPACE_DIVISOR;
            if share >= MIN_DEFAULT_STACK_BYTES {
                Limit {
                    bytes: share,
                    default_of: Some(format!(
                        "the default: a quarter of the {left} bytes of address space left under the process's limit (ulimit -v)"
                    )),
                }
            } else {
                Limit {
                    bytes: MIN_DEFAULT_STACK_BYTES.min(limit.bytes),
                    default_of: Some(format!(
                        "the default: the least default, though only {left} bytes of address space are left under the process's limit (ulimit -v)"
                    )),
                }
            }
        }
        _ => limit,
    }
}

/// The least default stack limit (1 MiB), where the address space left
/// would make it less: a run stops at it, or when the system will not
/// give the stacks the memory, with an error naming `ulimit -v`.
const MIN_DEFAULT_STACK_BYTES: u64 = 1 << 20;

/// The default stack limit's share of the address space left: the stacks
/// take up to about 2.5 bytes of memory (with the room they reserve as
/// they grow, and the reference engine's environments) for each byte
/// `--max-stack` counts, and the rest of the run (the profile, a census's
/// tables) needs some too.
pub const STACK_ADDRESS_SPACE_DIVISOR: u64 = 4;

/// The address space the process may still map under its limit
/// (`RLIMIT_AS`, `ulimit -v`): the limit less what is mapped now (the
/// size of the process's virtual memory, `/proc/self/statm`), in whole
/// MiB; `None`
/// without a limit, or where the system does not say.
pub fn address_space_left() -> Option<u64> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `rl` is a valid, writable `rlimit` that lives for the call;
    // `getrlimit` writes only it.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut rl) } != 0
        || rl.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let pages: u64 = read_small(Path::new("/proc/self/statm"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    // SAFETY: `sysconf` reads a configuration value; it has no memory
    // effects.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let mapped = pages.saturating_mul(u64::try_from(page).ok().filter(|&p| p > 0)?);
    // Whole MiB: a page more or less mapped before the engines ask (they
    // allocate differently) changes no default, so both name the same.
    Some(rl.rlim_cur.saturating_sub(mapped) >> 20 << 20)
}

/// The memory this process may use, read once per process.
pub fn available() -> &'static Available {
    static AVAILABLE: OnceLock<Available> = OnceLock::new();
    AVAILABLE.get_or_init(|| available_in(Path::new("/proc"), Path::new("/")))
}

/// [`available`] with `/proc` at `proc` and the file system's root at
/// `root` (cgroup mount points are read below it): tests give a tree of
/// fixture files.
pub fn available_in(proc: &Path, root: &Path) -> Available {
    let physical = read_small(&proc.join("meminfo")).and_then(|s| mem_total(&s));
    let mut best = match physical {
        Some(bytes) => Available {
            bytes,
            source: Source::Physical,
        },
        None => Available {
            bytes: UNKNOWN_BYTES,
            source: Source::Unknown,
        },
    };
    for (bytes, source) in cgroup_limits(proc, root) {
        if bytes < best.bytes || best.source == Source::Unknown {
            best = Available { bytes, source };
        }
    }
    best
}

/// Read a small text file of `/proc` or a cgroup (at most 1 MiB).
fn read_small(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut s = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(1 << 20)
        .read_to_string(&mut s)
        .ok()?;
    Some(s)
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// A line of `/proc/self/cgroup`: `hierarchy:controllers:path`.
#[derive(Debug, PartialEq, Eq)]
struct CgroupLine {
    controllers: String,
    path: String,
}

fn parse_proc_cgroup(text: &str) -> Vec<CgroupLine> {
    text.lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ':');
            let _hierarchy = parts.next()?;
            let controllers = parts.next()?.to_string();
            let path = parts.next()?.to_string();
            Some(CgroupLine { controllers, path })
        })
        .collect()
}

/// A cgroup mount of `/proc/self/mountinfo`.
#[derive(Debug, PartialEq, Eq)]
struct CgroupMount {
    /// 1 (`cgroup`) or 2 (`cgroup2`).
    version: u8,
    /// The cgroup at the mount's root.
    root: String,
    mount_point: String,
    /// The super options: for v1, the controllers (`rw,memory`).
    options: String,
}

/// The cgroup mounts of a `mountinfo` text: `id parent dev root point
/// options [optional...] - fstype source super-options`.
fn parse_mountinfo(text: &str) -> Vec<CgroupMount> {
    text.lines()
        .filter_map(|l| {
            let (left, right) = l.split_once(" - ")?;
            let left: Vec<&str> = left.split(' ').collect();
            let mut right = right.split(' ');
            let version = match right.next()? {
                "cgroup" => 1,
                "cgroup2" => 2,
                _ => return None,
            };
            let _source = right.next()?;
            let options = right.next().unwrap_or("").to_string();
            Some(CgroupMount {
                version,
                root: unescape(left.get(3)?),
                mount_point: unescape(left.get(4)?),
                options,
            })
        })
        .collect()
}

/// Undo mountinfo's octal escapes (`\040` for a space, and so on).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = b.get(i + 1..i + 4).filter(|d| {
            (b'0'..=b'3').contains(&d[0]) && d[1..].iter().all(|c| (b'0'..=b'7').contains(c))
        });
        if let (b'\\', Some(d)) = (b[i], octal) {
            out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The directory of cgroup `path` under `mount` (read below `root`), and
/// the mount point's directory, where the walk up to ancestors stops.
fn cgroup_dir(root: &Path, mount: &CgroupMount, path: &str) -> (PathBuf, PathBuf) {
    let point = root.join(mount.mount_point.trim_start_matches('/'));
    let rel = if mount.root == "/" {
        Some(path)
    } else {
        path.strip_prefix(mount.root.as_str())
            .filter(|r| r.is_empty() || r.starts_with('/'))
    };
    // A path outside the mount's root (another cgroup namespace) is not
    // below this mount: the mount's root is then the nearest we can see.
    let dir = match rel {
        Some(r) => point.join(r.trim_start_matches('/')),
        None => point.clone(),
    };
    (dir, point)
}

/// Every memory limit of the cgroups this process is in, with where each
/// was read.
fn cgroup_limits(proc: &Path, root: &Path) -> Vec<(u64, Source)> {
    let Some(cgroups) = read_small(&proc.join("self/cgroup")) else {
        return vec![];
    };
    let Some(mounts) = read_small(&proc.join("self/mountinfo")) else {
        return vec![];
    };
    let mounts = parse_mountinfo(&mounts);
    let mut limits = vec![];
    for line in parse_proc_cgroup(&cgroups) {
        let v2 = line.controllers.is_empty();
        let v1_memory = line.controllers.split(',').any(|c| c == "memory");
        if !v2 && !v1_memory {
            continue;
        }
        for m in &mounts {
            let fits = if v2 {
                m.version == 2
            } else {
                m.version == 1 && m.options.split(',').any(|o| o == "memory")
            };
            if !fits {
                continue;
            }
            let (dir, point) = cgroup_dir(root, m, &line.path);
            if let Some(bytes) = limit_up_to(&dir, &point, m.version) {
                limits.push((
                    bytes,
                    Source::Cgroup {
                        version: m.version,
                        dir: strip_root(root, &dir),
                    },
                ));
            }
        }
    }
    limits
}

/// `dir` as the process sees it (without the fixture root).
fn strip_root(root: &Path, dir: &Path) -> PathBuf {
    match dir.strip_prefix(root) {
        Ok(rel) => Path::new("/").join(rel),
        Err(_) => dir.to_path_buf(),
    }
}

/// The smallest limit of `dir` and its ancestors up to `point`.
fn limit_up_to(dir: &Path, point: &Path, version: u8) -> Option<u64> {
    let mut best: Option<u64> = None;
    let mut keep = |v: Option<u64>| {
        if let Some(v) = v.filter(|&v| v < NO_LIMIT) {
            best = Some(best.map_or(v, |b| b.min(v)));
        }
    };
    let mut d = dir.to_path_buf();
    loop {
        if version == 2 {
            keep(read_small(&d.join("memory.max")).and_then(|s| s.trim().parse().ok()));
        } else {
            keep(read_small(&d.join("memory.limit_in_bytes")).and_then(|s| s.trim().parse().ok()));
            keep(read_small(&d.join("memory.stat")).and_then(|s| {
                let l = s
                    .lines()
                    .find(|l| l.starts_with("hierarchical_memory_limit "))?;
                l.split_whitespace().nth(1)?.parse().ok()
            }));
        }
        if d == point || !d.pop() || !d.starts_with(point) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixture tree: `proc/` and `root/` under a fresh directory.
    struct Fixture(PathBuf);

    impl Fixture {
        fn new(name: &str) -> Fixture {
            let d = std::env::temp_dir()
                .join(format!("stg-run-memlimit-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(d.join("proc/self")).unwrap();
            std::fs::create_dir_all(d.join("root")).unwrap();
            Fixture(d)
        }
        fn write(&self, rel: &str, text: &str) {
            let p = self.0.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        fn available(&self) -> Available {
            available_in(&self.0.join("proc"), &self.0.join("root"))
        }
    }

    impl Drop for Fixture {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const MEMINFO: &str = "MemTotal:       24576000 kB\nMemFree:         1000 kB\n";

    #[test]
    fn physical_memory_without_cgroups() {
        let f = Fixture::new("physical");
        f.write("proc/meminfo", MEMINFO);
        assert_eq!(
            f.available(),
            Available {
                bytes: 24_576_000 * 1024,
                source: Source::Physical
            }
        );
    }

    #[test]
    fn nothing_readable_is_four_gib() {
        let f = Fixture::new("unknown");
        assert_eq!(f.available().bytes, 4 << 30);
        assert_eq!(f.available().source, Source::Unknown);
    }

    #[test]
    fn cgroup_v2_limit_of_an_ancestor() {
        let f = Fixture::new("v2");
        f.write("proc/meminfo", MEMINFO);
        f.write("proc/self/cgroup", "0::/user.slice/run.scope\n");
        f.write(
            "proc/self/mountinfo",
            "22 1 0:21 / / rw - ext4 /dev/vda rw\n\
             30 22 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
        );
        f.write("root/sys/fs/cgroup/memory.max", "max\n");
        f.write("root/sys/fs/cgroup/user.slice/memory.max", "1610612736\n");
        f.write(
            "root/sys/fs/cgroup/user.slice/run.scope/memory.max",
            "max\n",
        );
        assert_eq!(
            f.available(),
            Available {
                bytes: 1_610_612_736,
                source: Source::Cgroup {
                    version: 2,
                    dir: PathBuf::from("/sys/fs/cgroup/user.slice/run.scope")
                }
            }
        );
    }

    #[test]
    fn cgroup_v2_in_a_namespace_is_the_mount_root() {
        // Docker with a cgroup namespace: the process's cgroup is "/", the
        // mount's root.
        let f = Fixture::new("v2ns");
        f.write("proc/meminfo", MEMINFO);
        f.write("proc/self/cgroup", "0::/\n");
        f.write(
            "proc/self/mountinfo",
            "600 590 0:27 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw\n",
        );
        f.write("root/sys/fs/cgroup/memory.max", "1610612736\n");
        assert_eq!(f.available().bytes, 1_610_612_736);
    }

    #[test]
    fn cgroup_v1_limit_and_hierarchical_limit() {
        let f = Fixture::new("v1");
        f.write("proc/meminfo", MEMINFO);
        f.write(
            "proc/self/cgroup",
            "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n",
        );
        // Docker without a cgroup namespace: the mount's root is the
        // container's cgroup; a mount point with a space in its name.
        f.write(
            "proc/self/mountinfo",
            "35 31 0:32 /docker/abc /sys/fs/cgroup/mem\\040ory rw - cgroup cgroup rw,memory\n\
             32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n\
             41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n",
        );
        f.write(
            "root/sys/fs/cgroup/mem ory/memory.limit_in_bytes",
            "9223372036854771712\n",
        );
        f.write(
            "root/sys/fs/cgroup/mem ory/memory.stat",
            "cache 0\nhierarchical_memory_limit 2147483648\n",
        );
        // No memory.max under the v2 mount: no v2 limit.
        assert_eq!(
            f.available(),
            Available {
                bytes: 2_147_483_648,
                source: Source::Cgroup {
                    version: 1,
                    dir: PathBuf::from("/sys/fs/cgroup/mem ory")
                }
            }
        );
    }

    #[test]
    fn a_limit_above_physical_memory_is_physical_memory() {
        let f = Fixture::new("above");
        f.write("proc/meminfo", MEMINFO);
        f.write("proc/self/cgroup", "0::/a\n");
        f.write(
            "proc/self/mountinfo",
            "30 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
        );
        f.write("root/sys/fs/cgroup/a/memory.max", "99999999999999\n");
        assert_eq!(f.available().source, Source::Physical);
    }

    #[test]
    fn garbage_files_are_ignored() {
        let f = Fixture::new("garbage");
        f.write("proc/meminfo", "MemTotal: lots\n");
        f.write("proc/self/cgroup", "::::\nno colons\n4:memory:\n");
        f.write("proc/self/mountinfo", "x - cgroup\n - \n1 2 3\n");
        assert_eq!(f.available().source, Source::Unknown);
    }

    #[test]
    fn defaults_are_shares_and_say_so() {
        let h = heap_limit(None);
        let s = stack_limit(None);
        let a = available();
        assert_eq!(h.bytes, a.bytes / 100 * HEAP_SHARE_PERCENT);
        assert_eq!(s.bytes, a.bytes / 100 * STACK_SHARE_PERCENT);
        assert!(h.default_of.unwrap().starts_with("the default: 60% of "));
        assert_eq!(heap_limit(Some(5)).default_of, None);
    }
}
