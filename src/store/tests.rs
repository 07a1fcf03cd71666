use super::record::rfc3339_nano_now;
use super::*;

#[test]
fn handle_of_a() {
    assert_eq!(
        Handle::of(b"a").as_str(),
        "ccr_ca978112ca1bbdcafac231b39a23dc4d"
    );
}

#[test]
fn handle_validation() {
    assert!(Handle::parse("ccr_ca978112ca1bbdcafac231b39a23dc4d").is_some());
    for bad in [
        "../x",
        "/etc/passwd",
        "ccr_ca978112ca1bbdcafac231b39a23dc4",
        "ccr_CA978112CA1BBDCAFAC231B39A23DC4D",
        "ccr_ca978112ca1bbdcafac231b39a23dc4d/",
        "ccr_../../../../../../../etc/passwd0",
        "ccr_ca978112ca1bbdcafac231b39a23d\0c4",
    ] {
        assert!(Handle::parse(bad).is_none(), "{bad}");
    }
}

#[test]
fn timestamp_shape() {
    let t = rfc3339_nano_now();
    assert!(t.ends_with('Z') && t.len() >= 20, "{t}");
}

#[test]
fn full_disk_is_the_budget_refusal() {
    for code in [libc::ENOSPC, libc::EDQUOT, libc::EFBIG] {
        let e = io::Error::from_raw_os_error(code);
        assert!(matches!(PutError::from_io(&e), PutError::Budget));
    }
    let e = io::Error::from_raw_os_error(libc::EIO);
    assert!(matches!(PutError::from_io(&e), PutError::Io(_)));
}
