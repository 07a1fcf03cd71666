//! A PNG writer whose bytes are those of Go's `image/png` encoder at its
//! default level (spec/pixel-render.md §7): 8-bit grayscale or RGB, no
//! ancillary chunks, Go's adaptive filter choice, zlib framing around a
//! deflate stream that makes `compress/flate` level 6's choices, cut into
//! 32 KiB IDAT chunks. `pixel simulate` sums PNG sizes, so the bytes, not
//! just the pixels, are the contract.

mod deflate;
mod filter;
mod huffman;
#[cfg(test)]
mod oracle;

use deflate::Deflater;

/// The sample layout of an image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorType {
    /// One byte per pixel (PNG colour type 0).
    Gray,
    /// Three bytes per pixel, R G B (PNG colour type 2).
    Rgb,
}

impl ColorType {
    /// Bytes per pixel.
    pub fn bpp(self) -> usize {
        match self {
            ColorType::Gray => 1,
            ColorType::Rgb => 3,
        }
    }

    fn code(self) -> u8 {
        match self {
            ColorType::Gray => 0,
            ColorType::Rgb => 2,
        }
    }
}

/// The size of Go's `bufio.Writer` in front of the IDAT writer: one IDAT
/// chunk per full buffer.
const IDAT_BUFFER: usize = 1 << 15;

/// Encodes a `width` × `height` image whose rows are `pixels` (row-major,
/// `color.bpp()` bytes per pixel) as PNG bytes.
///
/// # Panics
/// If `pixels` does not hold exactly `width · height · bpp` bytes, or a
/// dimension is zero.
pub fn encode(width: usize, height: usize, color: ColorType, pixels: &[u8]) -> Vec<u8> {
    let stride = width * color.bpp();
    assert!(pixels.len() == stride * height);
    encode_rows(width, height, color, |y, row| {
        row.copy_from_slice(&pixels[y * stride..(y + 1) * stride])
    })
}

/// Encodes a `width` × `height` image whose row `y` the closure writes
/// into the buffer it is given (`width · bpp` bytes), one row at a time:
/// the image never has to exist whole.
///
/// # Panics
/// If a dimension is zero.
pub fn encode_rows(
    width: usize,
    height: usize,
    color: ColorType,
    mut row_of: impl FnMut(usize, &mut [u8]),
) -> Vec<u8> {
    assert!(width > 0 && height > 0);
    let stride = width * color.bpp();
    let mut z = ZlibStream::new();
    let mut rows = filter::Rows::new(stride, color.bpp());
    let mut row = vec![0u8; stride];
    for y in 0..height {
        row_of(y, &mut row);
        z.write(rows.next_row(&row));
    }
    let (stream, raw) = z.finish();

    let mut out = Vec::with_capacity(stream.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&(width as u32).to_be_bytes());
    ihdr[4..8].copy_from_slice(&(height as u32).to_be_bytes());
    ihdr[8] = 8;
    ihdr[9] = color.code();
    chunk(&mut out, b"IHDR", &ihdr);
    for range in idat_ranges(stream.len(), &raw) {
        chunk(&mut out, b"IDAT", &stream[range]);
    }
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A zlib stream (`78 9C`, deflate, Adler-32) fed one scanline per write.
struct ZlibStream {
    deflater: Deflater,
    adler: Adler32,
}

impl ZlibStream {
    fn new() -> ZlibStream {
        ZlibStream {
            deflater: Deflater::take(),
            adler: Adler32::default(),
        }
    }

    fn write(&mut self, data: &[u8]) {
        self.adler.update(data);
        self.deflater.write(data);
    }

    /// The whole zlib stream and the `(start, len)` of each stored-block
    /// payload in it (Go writes each in one call).
    fn finish(self) -> (Vec<u8>, Vec<(usize, usize)>) {
        let w = self.deflater.finish();
        let mut out = Vec::with_capacity(w.out.len() + 6);
        out.extend_from_slice(&[0x78, 0x9C]);
        out.extend_from_slice(&w.out);
        out.extend_from_slice(&self.adler.value().to_be_bytes());
        let raw = w.raw_writes.iter().map(|&(s, n)| (s + 2, n)).collect();
        (out, raw)
    }
}

/// Where the IDAT chunks cut a zlib stream of `len` bytes: Go's 32 KiB
/// `bufio.Writer`, where every write is small except the stored-block
/// payloads listed in `raw` (spec §7.1 *IDAT split*).
fn idat_ranges(len: usize, raw: &[(usize, usize)]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut chunk_start = 0; // start of the bytes in the buffer
    let mut pos = 0; // bytes written so far
                     // Small writes fill the buffer and flush it whenever it is full, which
                     // is the same as writing them a byte at a time.
    let small_until = |out: &mut Vec<_>, chunk_start: &mut usize, pos: &mut usize, to: usize| {
        while to - *chunk_start >= IDAT_BUFFER {
            out.push(*chunk_start..*chunk_start + IDAT_BUFFER);
            *chunk_start += IDAT_BUFFER;
        }
        *pos = to;
    };
    for &(start, n) in raw {
        small_until(&mut out, &mut chunk_start, &mut pos, start);
        let mut p = start;
        let mut left = n;
        while left > IDAT_BUFFER - (p - chunk_start) {
            if p == chunk_start {
                // An empty buffer: the rest goes out directly.
                out.push(p..p + left);
                p += left;
                chunk_start = p;
                left = 0;
            } else {
                let take = IDAT_BUFFER - (p - chunk_start);
                out.push(chunk_start..p + take);
                p += take;
                chunk_start = p;
                left -= take;
            }
        }
        pos = p + left;
    }
    small_until(&mut out, &mut chunk_start, &mut pos, len);
    if len > chunk_start {
        out.push(chunk_start..len);
    }
    out
}

/// Appends one chunk: length, type, data, CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// CRC-32 (ISO-HDLC, the PNG and zlib polynomial).
pub fn crc32(data: &[u8]) -> u32 {
    static TABLE: std::sync::LazyLock<[u32; 256]> = std::sync::LazyLock::new(|| {
        let mut t = [0u32; 256];
        for (n, e) in t.iter_mut().enumerate() {
            let mut c = n as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            *e = c;
        }
        t
    });
    let mut c = !0u32;
    for &b in data {
        c = TABLE[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// Adler-32 as zlib defines it.
struct Adler32 {
    a: u32,
    b: u32,
}

impl Default for Adler32 {
    fn default() -> Self {
        Adler32 { a: 1, b: 0 }
    }
}

impl Adler32 {
    /// Bytes summed before the sums must be reduced (zlib's NMAX).
    const RUN: usize = 5552;

    fn update(&mut self, data: &[u8]) {
        for part in data.chunks(Self::RUN) {
            // Whole 16-byte blocks in 16 lanes, which vectorise: lane `j`
            // sums byte `j` of every block (`sums`), and before each
            // block adds what it has so far (`later`), so a byte counts
            // once in `later` per block after its own. Over `n = 16·m`
            // bytes, `b` gains n·a + 16·Σ later + Σ (16 − j)·sums[j].
            let mut blocks = part.chunks_exact(16);
            let (mut sums, mut later) = ([0u32; 16], [0u32; 16]);
            let mut n = 0u64;
            for block in &mut blocks {
                let block: &[u8; 16] = block.try_into().unwrap();
                for ((l, s), &x) in later.iter_mut().zip(sums.iter_mut()).zip(block) {
                    *l += *s;
                    *s += x as u32;
                }
                n += 16;
            }
            let sum: u64 = sums.iter().map(|&s| s as u64).sum();
            let weighted: u64 = (sums.iter().enumerate())
                .map(|(j, &s)| (16 - j as u64) * s as u64)
                .sum();
            let later: u64 = later.iter().map(|&s| s as u64).sum();
            let b = self.b as u64 + n * self.a as u64 + 16 * later + weighted;
            self.a = ((self.a as u64 + sum) % 65521) as u32;
            self.b = (b % 65521) as u32;
            for &x in blocks.remainder() {
                self.a += x as u32;
                self.b += self.a;
            }
            self.a %= 65521;
            self.b %= 65521;
        }
    }

    fn value(&self) -> u32 {
        self.b << 16 | self.a
    }
}

/// Raw deflate of `writes`, each one of Go's `Write` calls: for the fuzz
/// target and the property tests, which inflate it back.
pub fn deflate(writes: &[&[u8]]) -> Vec<u8> {
    let mut d = Deflater::take();
    for w in writes {
        d.write(w);
    }
    d.finish().out
}

/// A zlib stream of `writes` (header, deflate, Adler-32).
pub fn zlib(writes: &[&[u8]]) -> Vec<u8> {
    let mut z = ZlibStream::new();
    for w in writes {
        z.write(w);
    }
    z.finish().0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums() {
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
        let mut a = Adler32::default();
        a.update(b"Wikipedia");
        assert_eq!(a.value(), 0x11E6_0398);
        // Whole 16-byte blocks and a remainder, over several reductions,
        // agree with the byte-at-a-time definition.
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let (mut x, mut y) = (1u32, 0u32);
        for &d in &data {
            x = (x + d as u32) % 65521;
            y = (y + x) % 65521;
        }
        let mut a = Adler32::default();
        a.update(&data[..333]);
        a.update(&data[333..]);
        assert_eq!(a.value(), y << 16 | x);
    }

    #[test]
    fn idat_cuts_at_32_kib() {
        assert_eq!(idat_ranges(10, &[]), vec![0..10]);
        assert_eq!(
            idat_ranges(70000, &[]),
            vec![0..32768, 32768..65536, 65536..70000]
        );
        assert_eq!(idat_ranges(32768, &[]), vec![0..32768]);
        // A 40000-byte stored payload after 100 small bytes: the buffer is
        // topped up and flushed, the 7332 left are buffered.
        assert_eq!(
            idat_ranges(40200, &[(100, 40000)]),
            vec![0..32768, 32768..40200]
        );
        // The same payload meeting an empty buffer goes out whole.
        assert_eq!(
            idat_ranges(32768 + 40000 + 5, &[(32768, 40000)]),
            vec![0..32768, 32768..72768, 72768..72773]
        );
    }

    #[test]
    fn empty_image_row_stream_is_valid() {
        let png = encode(1, 1, ColorType::Gray, &[255]);
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(
            &png[png.len() - 12..],
            &[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82]
        );
    }
}
