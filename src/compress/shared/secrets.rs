//! What never appears in a summary: fields with a secret-looking name (at
//! any depth: every segment of a nested path is screened) and values
//! shaped like a credential (a deliberate difference from the reference,
//! which screens a few name fragments only). A summary entry whose text
//! holds a credential is dropped, as an entry of a secret-named field is.
//! Formats only, each anchored on its fixed prefix or shape, found inside
//! longer tokens too (`prod_AKIA…`, `AKIA…_prod`): a generic entropy rule
//! would also hide UUIDs, hashes and ids, which summaries must keep.

use std::sync::LazyLock;

use regex::Regex;

/// The recognised formats (any match anywhere in the text):
/// AWS access key ids, Google API keys, GitHub tokens (classic and
/// fine-grained), GitLab personal tokens, Slack tokens, Stripe keys,
/// OpenAI/Anthropic-style `sk-` keys, JWTs, PEM headers, and
/// `user:password@` in URLs.
static CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        // The fixed prefixes may sit inside a longer token: after an
        // underscore or anything but a letter or digit.
        r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}",
        r"|(?:^|[^A-Za-z0-9])(?:",
        r"AIza[0-9A-Za-z_-]{35}",
        r"|gh[pousr]_[A-Za-z0-9]{36,}",
        r"|github_pat_[A-Za-z0-9_]{22,}",
        r"|glpat-[A-Za-z0-9_-]{20,}",
        r"|xox[abprs]-[A-Za-z0-9-]{10,}",
        r"|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
        r"|sk-[A-Za-z0-9_-]{20,}",
        r"|eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.",
        r")",
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
        || holds_aws_secret_key(text)
}

/// An AWS secret access key: exactly 40 characters of `[A-Za-z0-9/+]`
/// between characters that are none of those, with upper- and lowercase
/// letters and a digit, `/` or `+` (so a 40-digit hex SHA-1, lowercase,
/// and a plain word are not one).
fn holds_aws_secret_key(text: &str) -> bool {
    let is_key_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'/' || b == b'+';
    text.len() >= 40
        && text.as_bytes().split(|&b| !is_key_byte(b)).any(|run| {
            run.len() == 40
                && run.first() != Some(&b'/')
                && run.last() != Some(&b'/')
                && run.iter().filter(|b| b.is_ascii_uppercase()).count() >= 2
                && run.iter().filter(|b| b.is_ascii_lowercase()).count() >= 2
                && run
                    .iter()
                    .any(|&b| b.is_ascii_digit() || b == b'/' || b == b'+')
                && !run.windows(2).any(|w| w == b"//")
        })
}

/// Name fragments that keep a field out of every summary: the
/// reference's `(?i)(secret|passw|token|api[_-]?key|authoriz|credential|cookie|session)`
/// and a few more spellings of a password or key.
const SECRET_FRAGMENTS: [&str; 15] = [
    "secret",
    "passw",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "authoriz",
    "credential",
    "cookie",
    "session",
    "pwd",
    "passphrase",
    "passcode",
    "privatekey",
    "private_key",
];

/// Whether a field's name (or any segment of a nested path such as
/// `cfg.db.pass`) looks like it holds a secret. Case-folded as Go's `(?i)`.
pub fn is_secret_name(name: &str) -> bool {
    let folded = crate::go::unicode::fold_str(name);
    SECRET_FRAGMENTS.iter().any(|f| folded.contains(f))
        || folded
            .split(|c: char| !c.is_alphanumeric())
            .any(|seg| seg == "pass" || seg == "pw" || seg.ends_with("key") && is_key_kind(seg))
        || folded.ends_with("key") && is_key_kind(&folded)
}

/// `private…key`, `access…key`, `signing…key`, `secret…key`.
fn is_key_kind(name: &str) -> bool {
    ["private", "access", "signing", "encryption"]
        .iter()
        .any(|k| name.contains(k))
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
            // Inside longer tokens.
            "AKIAIOSFODNN7EXAMPLE_prod",
            "prod_AKIAIOSFODNN7EXAMPLE",
            "AKIAIOSFODNN7EXAMPLEX",
            "key=prod_ghp_0123456789abcdefghijklmnopqrstuvwxyz",
            // An AWS secret access key.
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "aws_secret=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY;",
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
            "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "desk-reservation-system-abcdefghijklmnop",
            "src/compress/shared/secrets/formats/x.rs",
            "ThisIsAVeryLongCamelCaseIdentifierNames",
        ] {
            assert!(!holds_credential(s), "{s}");
        }
    }

    #[test]
    fn secret_names_at_any_depth() {
        use super::is_secret_name;
        for n in [
            "password",
            "db.password",
            "cfg.a.pwd",
            "auth.pass",
            "DB_PASSWD",
            "api_key",
            "x.apiKey",
            "aws.secretAccessKey",
            "AccessKey",
            "private_key",
            "tls.privateKey",
            "signingKey",
            "sessionId",
            "passphrase",
        ] {
            assert!(is_secret_name(n), "{n}");
        }
        for n in [
            "id",
            "passed",
            "bypass_cache",
            "key",
            "primary_key",
            "sort_key",
            "compass.heading",
            "status",
        ] {
            assert!(!is_secret_name(n), "{n}");
        }
    }
}
