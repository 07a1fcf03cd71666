//! The recovery store in S3-compatible object storage (`CAVEMAN_CCR_URL=
//! s3://bucket/prefix`), through the `object_store` crate. One object per
//! handle, named as a record file is, holding the same checksummed record
//! bytes; every read is verified as a file is (lengths, BLAKE3, the
//! original's SHA-256 against its handle). Content addressing makes a
//! write idempotent: a conditional create, no lock; an existing object is
//! kept when it verifies and replaced when it does not.
//!
//! Credentials and endpoint come from the standard AWS environment
//! (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`,
//! `AWS_ENDPOINT_URL`, `AWS_ALLOW_HTTP`, `AWS_SKIP_SIGNATURE`). Every
//! request gives up once the server has not answered for
//! `CAVEMAN_CCR_TIMEOUT_MS` (default 2000): `compress` then passes its
//! input through with `cave_ccr_unavailable`, and `retrieve`, `stats` and
//! `store` fail naming the URL. An answer that keeps coming (a 64 MiB
//! original on a slow link) may take longer, up to [`TRANSFER_TIMEOUT`].
//! There is no byte budget in a bucket: a lifecycle rule is the way to
//! bound it.
//!
//! The async runtime (one thread, the caller's) is started only when the
//! URL is set; the file store never sees it.

use std::future::Future;
use std::time::{Duration, SystemTime};

use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutMode, PutOptions, PutPayload};

use super::record::{self, Header};
use super::{GetError, Handle, NewRecord, PutError};

/// Default bound of a server's silence (`CAVEMAN_CCR_TIMEOUT_MS`): a put,
/// the start of an answer, each further part of it.
const TIMEOUT: Duration = Duration::from_secs(2);
/// Bound of one whole transfer that keeps making progress (a 64 MiB
/// original on a slow link).
const TRANSFER_TIMEOUT: Duration = Duration::from_secs(60);
/// A header is read from the first bytes of its object.
const HEAD_BYTES: u64 = 4096;

pub(super) struct Remote {
    store: Box<dyn ObjectStore>,
    prefix: ObjectPath,
    rt: tokio::runtime::Runtime,
    url: String,
    /// How long a request may go unanswered (`CAVEMAN_CCR_TIMEOUT_MS`).
    timeout: Duration,
    /// Why the last put failed, for the one line `compress` prints.
    put_failure: std::sync::Mutex<Option<String>>,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote").field("url", &self.url).finish()
    }
}

/// One object of the store: its handle, size and last write.
pub(super) struct Listed {
    pub handle: Handle,
    pub size: u64,
    pub modified: SystemTime,
}

impl Remote {
    /// Opens `url` (`s3://bucket[/prefix]`); nothing is contacted yet.
    pub fn open(url: &str, timeout_ms: Option<&str>) -> Result<Remote, String> {
        let rest = url
            .strip_prefix("s3://")
            .or_else(|| url.strip_prefix("s3a://"))
            .ok_or_else(|| {
                format!("CAVEMAN_CCR_URL {url:?}: only s3:// URLs are supported (S3 and S3-compatible servers)")
            })?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(format!("CAVEMAN_CCR_URL {url:?}: no bucket"));
        }
        plain_http_allowed(url)?;
        let timeout = match timeout_ms.map(str::trim) {
            None | Some("") => TIMEOUT,
            Some(s) => match s.parse::<u64>() {
                Ok(ms) if ms > 0 => Duration::from_millis(ms),
                _ => return Err("CAVEMAN_CCR_TIMEOUT_MS must be a positive integer".into()),
            },
        };
        let retry = object_store::RetryConfig {
            max_retries: 1,
            retry_timeout: timeout,
            ..Default::default()
        };
        let client = object_store::ClientOptions::new()
            .with_connect_timeout(timeout)
            .with_timeout(TRANSFER_TIMEOUT);
        // The standard AWS environment, read as `from_env` reads it, after
        // the client options so that it can still change them.
        let mut builder = AmazonS3Builder::new()
            .with_client_options(client)
            .with_retry(retry);
        for (key, value) in std::env::vars() {
            if key.starts_with("AWS_") {
                if let Ok(k) = key.to_ascii_lowercase().parse() {
                    builder = builder.with_config(k, value);
                }
            }
        }
        let mut builder = builder.with_bucket_name(bucket);
        if std::env::var_os("AWS_REGION").is_none()
            && std::env::var_os("AWS_DEFAULT_REGION").is_none()
        {
            builder = builder.with_region("us-east-1");
        }
        // No credentials at all: anonymous requests rather than a slow
        // probe of the instance-metadata endpoint.
        if std::env::var_os("AWS_ACCESS_KEY_ID").is_none()
            && std::env::var_os("AWS_PROFILE").is_none()
            && std::env::var_os("AWS_WEB_IDENTITY_TOKEN_FILE").is_none()
        {
            builder = builder.with_skip_signature(true);
        }
        let store = builder
            .build()
            .map_err(|e| format!("CAVEMAN_CCR_URL {url:?}: {e}"))?;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("object store runtime: {e}"))?;
        Ok(Remote {
            store: Box::new(store),
            prefix: ObjectPath::from(prefix.trim_matches('/')),
            rt,
            url: url.to_string(),
            timeout,
            put_failure: std::sync::Mutex::new(None),
        })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    fn path(&self, h: &Handle) -> ObjectPath {
        self.prefix.child(h.as_str())
    }

    /// Runs one request to its answer, giving up after the timeout.
    fn run<T>(&self, fut: impl Future<Output = object_store::Result<T>>) -> Result<T, Failure> {
        self.rt.block_on(self.answer(fut))
    }

    /// `fut`'s answer within the timeout, its error as a [`Failure`].
    async fn answer<T>(
        &self,
        fut: impl Future<Output = object_store::Result<T>>,
    ) -> Result<T, Failure> {
        match tokio::time::timeout(self.timeout, fut).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(object_store::Error::NotFound { .. })) => Err(Failure::NotFound),
            Ok(Err(object_store::Error::AlreadyExists { .. })) => Err(Failure::Exists),
            Ok(Err(e)) => Err(Failure::Other(format!("{}: {}", self.url, short(&e)))),
            Err(_) => Err(self.silent()),
        }
    }

    /// The server said nothing for the timeout.
    fn silent(&self) -> Failure {
        Failure::Other(format!(
            "{}: no answer within {} ms",
            self.url,
            self.timeout.as_millis()
        ))
    }

    /// Every item of `stream`, each one (a part of a body, a page of a
    /// listing) within the timeout of the one before.
    async fn collect<T>(
        &self,
        mut stream: impl futures_util::Stream<Item = object_store::Result<T>> + Unpin,
    ) -> Result<Vec<T>, Failure> {
        use futures_util::StreamExt;
        let mut items = Vec::new();
        while let Some(item) = self
            .answer(async { Ok::<_, object_store::Error>(stream.next().await) })
            .await?
        {
            items.push(self.answer(async { item }).await?);
        }
        Ok(items)
    }

    /// Why the last put failed (`None` after a put that worked).
    pub fn put_failure(&self) -> Option<String> {
        self.put_failure.lock().ok().and_then(|f| f.clone())
    }

    /// Stores a record; idempotent.
    pub fn put(
        &self,
        h: Handle,
        rec: &NewRecord<'_>,
        created_at: String,
    ) -> Result<Handle, PutError> {
        let header = Header {
            content_type: rec.content_type.to_string(),
            compressor: rec.compressor.to_string(),
            tokens_before: rec.tokens_before,
            tokens_after: rec.tokens_after,
            created_at,
            original_len: rec.original.len() as u64,
            metadata_len: rec.metadata.len() as u64,
        };
        let bytes = record::encode(&header, rec.original, rec.metadata);
        let path = self.path(&h);
        let create = PutOptions {
            mode: PutMode::Create,
            ..Default::default()
        };
        let put = |opts: PutOptions| {
            self.run(
                self.store
                    .put_opts(&path, PutPayload::from(bytes.clone()), opts),
            )
        };
        let done = match put(create) {
            Ok(_) => Ok(h),
            Err(Failure::Exists) => match self.get(&h) {
                // The same original is there already.
                Ok(_) => Ok(h),
                Err(GetError::Io(e)) => Err(PutError::Io(e)),
                // Damaged (or gone meanwhile): write it again.
                Err(_) => put(PutOptions::default())
                    .map(|_| h)
                    .map_err(|f| PutError::Io(f.text())),
            },
            Err(f) => Err(PutError::Io(f.text())),
        };
        if let Ok(mut failure) = self.put_failure.lock() {
            *failure = match &done {
                Err(PutError::Io(why)) => Some(why.clone()),
                _ => None,
            };
        }
        done
    }

    /// A record's header, original and metadata, verified.
    pub fn get(&self, h: &Handle) -> Result<(Header, Vec<u8>, Vec<u8>), GetError> {
        let path = self.path(h);
        let bytes = self
            .rt
            .block_on(async {
                let r = self.answer(self.store.get(&path)).await?;
                if r.meta.size > record::MAX_PART * 2 + HEAD_BYTES {
                    return Ok(None);
                }
                let parts = self.collect(r.into_stream()).await?;
                Ok(Some(parts.concat()))
            })
            .map_err(Failure::into_get)?;
        match bytes {
            Some(b) => record::decode_verified(&b, h),
            None => Err(record::damaged(h, "declared length too large")),
        }
    }

    /// A record's header, from its first bytes.
    pub fn header(&self, h: &Handle, size: u64) -> Result<Header, GetError> {
        let path = self.path(h);
        let head = self
            .run(self.store.get_range(&path, 0..HEAD_BYTES.min(size)))
            .map_err(Failure::into_get)?;
        record::decode_header(&head, size, h).map(|(hd, _)| hd)
    }

    /// Every object named like a record, in handle order.
    pub fn list(&self) -> Result<Vec<Listed>, String> {
        let metas: Vec<object_store::ObjectMeta> = self
            .rt
            .block_on(self.collect(self.store.list(Some(&self.prefix))))
            .map_err(Failure::text)?;
        let mut out: Vec<Listed> = metas
            .into_iter()
            .filter_map(|m| {
                let handle = Handle::parse(m.location.filename()?)?;
                // Only the prefix's own objects, not a deeper folder's.
                (m.location == self.path(&handle)).then(|| Listed {
                    handle,
                    size: m.size,
                    modified: m.last_modified.into(),
                })
            })
            .collect();
        out.sort_by(|a, b| a.handle.cmp(&b.handle));
        Ok(out)
    }

    /// Removes a record; `Ok(false)` when there was none.
    pub fn remove(&self, h: &Handle) -> Result<bool, String> {
        let path = self.path(h);
        match self.run(self.store.head(&path)) {
            Err(Failure::NotFound) => return Ok(false),
            Err(f) => return Err(f.text()),
            Ok(_) => {}
        }
        match self.run(self.store.delete(&path)) {
            Ok(()) | Err(Failure::NotFound) => Ok(true),
            Err(f) => Err(f.text()),
        }
    }
}

/// An `http://` endpoint is refused by the client unless `AWS_ALLOW_HTTP`
/// is true, at the first request and in words that do not say so: refuse
/// it here, naming the fix.
fn plain_http_allowed(url: &str) -> Result<(), String> {
    let endpoint = ["AWS_ENDPOINT_URL", "AWS_ENDPOINT"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()));
    let Some(endpoint) = endpoint else {
        return Ok(());
    };
    let allowed = std::env::var("AWS_ALLOW_HTTP").is_ok_and(|v| {
        matches!(
            v.to_ascii_lowercase().as_str(),
            "1" | "true" | "on" | "yes" | "y"
        )
    });
    if endpoint.to_ascii_lowercase().starts_with("http://") && !allowed {
        return Err(format!(
            "CAVEMAN_CCR_URL {url:?}: the endpoint {endpoint} is plain HTTP; set AWS_ALLOW_HTTP=true to use it"
        ));
    }
    Ok(())
}

/// Why a request failed.
enum Failure {
    NotFound,
    Exists,
    Other(String),
}

impl Failure {
    fn text(self) -> String {
        match self {
            Failure::NotFound => "not found".into(),
            Failure::Exists => "already exists".into(),
            Failure::Other(s) => s,
        }
    }

    fn into_get(self) -> GetError {
        match self {
            Failure::NotFound => GetError::NotFound,
            f => GetError::Io(f.text()),
        }
    }
}

/// An error's first line, without the crate's nested source chain noise.
fn short(e: &object_store::Error) -> String {
    if std::env::var_os("CAVEMAN_DEBUG_S3").is_some() {
        eprintln!("{e:?}");
    }
    let s = e.to_string();
    s.lines().next().unwrap_or("").chars().take(300).collect()
}
