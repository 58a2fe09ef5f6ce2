//! The process's limit of open descriptors, for `feedlint serve`: each
//! connection holds one, and the usual soft limit (1,024) is what a
//! slowloris client exhausts first.

/// Raises the soft limit of open descriptors to the hard limit, and
/// returns the limit in force (1,024, the usual default, where it cannot
/// be read).
pub fn raise_to_hard_limit() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the plain struct given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    if !read {
        return 1024;
    }
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit = raised;
        }
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}
