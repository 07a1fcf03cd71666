//! Credential formats that never appear in a summary (a deliberate
//! difference from the reference, which screens secret-looking field
//! *names* only): a summary entry whose text holds one is dropped, as an
//! entry of a secret-named field is. Formats only, each anchored on its
//! fixed prefix or shape: a generic entropy rule would also hide UUIDs,
//! hashes and ids, which summaries must keep.

use std::sync::LazyLock;

use regex::Regex;

/// The recognised formats (any match anywhere in the text):
/// AWS access key ids, Google API keys, GitHub tokens (classic and
/// fine-grained), GitLab personal tokens, Slack tokens, Stripe keys,
/// OpenAI/Anthropic-style `sk-` keys, JWTs, PEM headers, and
/// `user:password@` in URLs.
static CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?-u:\b)(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?-u:\b)",
        r"|(?-u:\b)AIza[0-9A-Za-z_-]{35}",
        r"|(?-u:\b)gh[pousr]_[A-Za-z0-9]{36,}",
        r"|(?-u:\b)github_pat_[A-Za-z0-9_]{22,}",
        r"|(?-u:\b)glpat-[A-Za-z0-9_-]{20,}",
        r"|(?-u:\b)xox[abprs]-[A-Za-z0-9-]{10,}",
        r"|(?-u:\b)(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
        r"|(?-u:\b)sk-[A-Za-z0-9_-]{20,}",
        r"|(?-u:\b)eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.",
        r"|-----BEGIN [A-Z ]*(?:PRIVATE KEY|CERTIFICATE)-----",
        r"|[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@",
    ))
    .expect("credential patterns compile")
});

/// A fixed string every format above contains (the `formats` test has
/// one text per prefix): a text holding none of them cannot match, and the pattern (costly to compile, for a small
/// payload a tenth of the run) is never built for it.
const ANCHORS: [&str; 15] = [
    "AKIA",
    "ASIA",
    "ABIA",
    "ACCA",
    "AIza",
    "gh",
    "github_pat_",
    "glpat-",
    "xox",
    "_live_",
    "_test_",
    "sk-",
    "eyJ",
    "-----BEGIN ",
    "://",
];

/// True when `text` holds something shaped like a credential.
pub fn holds_credential(text: &str) -> bool {
    ANCHORS.iter().any(|a| text.contains(a)) && CREDENTIAL.is_match(text)
}

#[cfg(test)]
mod tests {
    use super::holds_credential;

    #[test]
    fn formats() {
        for s in [
            "AKIAIOSFODNN7EXAMPLE",
            "key AKIAIOSFODNN7EXAMPLE here",
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
            "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
            "github_pat_11ABCDEFG0123456789_abcdefghij",
            "glpat-abcdefghij0123456789",
            "xoxb-1234567890-abcdef",
            "sk_live_0123456789abcdefXYZ",
            "sk-proj-abcdefghijklmnopqrstuvwxyz",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
            "-----BEGIN RSA PRIVATE KEY-----",
            "https://admin:hunter2@db.example.com/x",
            // One of each prefix the anchors must let through.
            "ASIAIOSFODNN7EXAMPLE",
            "ABIAIOSFODNN7EXAMPLE",
            "ACCAIOSFODNN7EXAMPLE",
            "ghs_0123456789abcdefghijklmnopqrstuvwxyz",
            "xoxp-1234567890-abcdef",
            "rk_test_0123456789abcdefXYZ",
            "pk_live_0123456789abcdefXYZ",
            "-----BEGIN CERTIFICATE-----",
            "postgres+ssl://u:p@h",
        ] {
            assert!(holds_credential(s), "{s}");
        }
    }

    #[test]
    fn ids_and_hashes_are_not_credentials() {
        for s in [
            "550e8400-e29b-41d4-a716-446655440000",
            "d41d8cd98f00b204e9800998ecf8427e",
            "ccr_ca978112ca1bbdcafac231b39a23dc4d",
            "https://example.com/path?q=1",
            "user@example.com",
            "sku-12345",
            "pw000644",
            "ORD-000123",
        ] {
            assert!(!holds_credential(s), "{s}");
        }
    }
}
