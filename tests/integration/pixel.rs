//! `pixel render` and its PNG writer: property tests against a standard
//! inflater (miniz_oxide), and the command's promises through the binary.

use caveman_engine::pixel::{render, text, Density, Options};
use caveman_engine::png::{self, ColorType};
use proptest::prelude::*;

use crate::util::{TempDir, TestCommand};

/// A decoded PNG: width, height, bytes per pixel, samples.
struct Image {
    width: usize,
    height: usize,
    bpp: usize,
    pixels: Vec<u8>,
}

/// Reads the PNGs the writer makes (8-bit gray or RGB), checking the
/// signature, every chunk CRC and the chunk order, with miniz_oxide as the
/// inflater.
fn read_png(png: &[u8]) -> Image {
    let body = png.strip_prefix(b"\x89PNG\r\n\x1a\n").expect("signature");
    let (mut pos, mut idat, mut kinds, mut hdr) = (0, Vec::new(), Vec::new(), Vec::new());
    while pos < body.len() {
        let len = u32::from_be_bytes(body[pos..pos + 4].try_into().unwrap()) as usize;
        let kind = &body[pos + 4..pos + 8];
        let data = &body[pos + 8..pos + 8 + len];
        let crc = u32::from_be_bytes(body[pos + 8 + len..pos + 12 + len].try_into().unwrap());
        assert_eq!(png::crc32(&body[pos + 4..pos + 8 + len]), crc, "chunk CRC");
        match kind {
            b"IHDR" => hdr = data.to_vec(),
            b"IDAT" => {
                assert!(len > 0, "no empty IDAT");
                idat.extend_from_slice(data)
            }
            _ => {}
        }
        kinds.push(String::from_utf8_lossy(kind).into_owned());
        pos += 12 + len;
    }
    assert_eq!(kinds.first().map(String::as_str), Some("IHDR"));
    assert_eq!(kinds.last().map(String::as_str), Some("IEND"));
    assert!(kinds[1..kinds.len() - 1].iter().all(|k| k == "IDAT"));
    let width = u32::from_be_bytes(hdr[0..4].try_into().unwrap()) as usize;
    let height = u32::from_be_bytes(hdr[4..8].try_into().unwrap()) as usize;
    assert_eq!(&hdr[8..9], &[8]);
    assert_eq!(&hdr[10..13], &[0, 0, 0]);
    let bpp = if hdr[9] == 2 { 3 } else { 1 };
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat).expect("zlib stream inflates");
    let stride = width * bpp;
    assert_eq!(raw.len(), (stride + 1) * height);
    let mut pixels = vec![0u8; stride * height];
    for y in 0..height {
        let f = raw[y * (stride + 1)];
        for x in 0..stride {
            let i = y * stride + x;
            let a = if x >= bpp { pixels[i - bpp] as i32 } else { 0 };
            let b = if y > 0 { pixels[i - stride] as i32 } else { 0 };
            let c = if x >= bpp && y > 0 {
                pixels[i - stride - bpp] as i32
            } else {
                0
            };
            let p = match f {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let (pa, pb, pc) = ((b - c).abs(), (a - c).abs(), (a + b - 2 * c).abs());
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                other => panic!("filter type {other}"),
            };
            pixels[i] = raw[y * (stride + 1) + 1 + x].wrapping_add(p as u8);
        }
    }
    Image {
        width,
        height,
        bpp,
        pixels,
    }
}

/// Bytes that compress in every way: runs, repeats near and far, noise.
fn payload() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..300),
            (any::<u8>(), 1usize..2000).prop_map(|(b, n)| vec![b; n]),
            (0u8..4, 1usize..400).prop_map(|(k, n)| b"abcabd\xff\x00"[k as usize..].repeat(n)),
        ],
        0..12,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every deflate and zlib stream inflates to its input, however the
    /// input is cut into writes.
    #[test]
    fn deflate_round_trips(data in payload(), step in 1usize..70_000) {
        let writes: Vec<&[u8]> = data.chunks(step).collect();
        let raw = png::deflate(&writes);
        prop_assert_eq!(miniz_oxide::inflate::decompress_to_vec(&raw).unwrap(), data.clone());
        let z = png::zlib(&writes);
        prop_assert_eq!(&z[..2], &[0x78, 0x9C]);
        prop_assert_eq!(miniz_oxide::inflate::decompress_to_vec_zlib(&z).unwrap(), data);
    }

    /// Every PNG decodes to the samples it was given.
    #[test]
    fn png_round_trips(w in 1usize..90, h in 1usize..40, rgb in any::<bool>(), seed in any::<u64>()) {
        let color = if rgb { ColorType::Rgb } else { ColorType::Gray };
        let mut x = seed | 1;
        let pixels: Vec<u8> = (0..w * h * color.bpp())
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 3 == 0 { (x >> 8) as u8 } else { (i / 7) as u8 }
            })
            .collect();
        let img = read_png(&png::encode(w, h, color, &pixels));
        prop_assert_eq!((img.width, img.height, img.bpp), (w, h, color.bpp()));
        prop_assert_eq!(img.pixels, pixels);
    }

    /// Any text with any options renders without panicking into pages
    /// whose PNGs are well-formed and of the reported size, same bytes
    /// every time.
    #[test]
    fn render_pages_are_well_formed(
        bytes in prop::collection::vec(
            prop_oneof![any::<u8>(), Just(b'\n'), Just(b'\t'), Just(b' '), Just(0x7f)],
            0..600,
        ),
        level in 0usize..3,
        cols in prop::option::of(1usize..60),
        multicol in 1usize..4,
        dense in any::<bool>(),
        reflow in any::<bool>(),
    ) {
        let opts = Options {
            density: [Density::Conservative, Density::Balanced, Density::Max][level],
            cols,
            multicol,
            dense,
            reflow,
        };
        let t = text::decode(&bytes);
        let pages = render(&t, &opts).unwrap();
        prop_assert!(!pages.is_empty());
        for p in &pages {
            let img = read_png(&p.png);
            prop_assert_eq!((img.width, img.height), (p.width, p.height));
        }
        prop_assert_eq!(render(&t, &opts).unwrap(), pages);
    }
}

#[test]
fn a_stored_block_stream_inflates() {
    // Incompressible data makes stored blocks (and a direct large write).
    let mut x = 0x1234_5678_9abc_def1u64;
    let noise: Vec<u8> = (0..200_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let z = png::zlib(&[&noise]);
    assert_eq!(
        miniz_oxide::inflate::decompress_to_vec_zlib(&z).unwrap(),
        noise
    );
    let img = read_png(&png::encode(1000, 200, ColorType::Gray, &noise));
    assert_eq!(img.pixels, noise);
}

#[test]
fn render_writes_pages_next_to_the_file() {
    let dir = TempDir::new("pixel");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/doc.txt"), "hello\n").unwrap();
    let r = TestCommand::new().cwd(dir.path()).expect(
        &[
            "pixel",
            "render",
            "--density",
            "conservative",
            "sub/doc.txt",
        ],
        b"",
        0,
    );
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "{\"width\":38,\"height\":16,\"charsRendered\":6,\"droppedChars\":0,\"estTokens\":3,\"density\":\"conservative\"}\n\
         {\"summary\":true,\"pages\":1,\"textEstTokens\":2,\"imageEstTokens\":3,\"density\":\"conservative\"}\n"
    );
    let img = read_png(&std::fs::read(dir.path().join("sub/doc.txt.px1.png")).unwrap());
    assert_eq!((img.width, img.height, img.bpp), (38, 16, 1));
    assert!(img.pixels.contains(&0) && img.pixels.contains(&255));
    assert!(r.stderr.is_empty());
}

#[test]
fn simulate_is_a_verb() {
    let r = TestCommand::new().expect(&["pixel", "simulate", "req.json"], b"", 1);
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "pixel simulate read: open req.json: no such file or directory\n"
    );
    let r = TestCommand::new().expect(&["pixel"], b"", 2);
    assert!(String::from_utf8_lossy(&r.stderr).contains("usage: caveman-engine pixel simulate"));
}

#[test]
fn a_huge_cols_is_refused_before_drawing() {
    let dir = TempDir::new("pixel");
    std::fs::write(dir.path().join("doc.txt"), "x".repeat(100)).unwrap();
    for args in [
        &[
            "pixel",
            "render",
            "--multicol",
            "2",
            "--cols",
            "999999999999",
            "doc.txt",
        ][..],
        &[
            "pixel",
            "render",
            "--cols",
            "9223372036854775807",
            "--multicol",
            "3",
            "doc.txt",
        ],
    ] {
        let r = TestCommand::new().cwd(dir.path()).expect(args, b"", 1);
        assert!(
            String::from_utf8_lossy(&r.stderr).contains("use a smaller --cols"),
            "{}",
            r.stderr_str()
        );
        assert!(r.stdout.is_empty());
        assert!(!dir.path().join("doc.txt.px1.png").exists());
    }
    // Measured paths are bounded by the text: a huge --cols is fine there.
    TestCommand::new().cwd(dir.path()).expect(
        &["pixel", "render", "--cols", "999999999999", "doc.txt"],
        b"",
        0,
    );
}

/// The writer alone: every reference PNG in the golden cases, decoded and
/// encoded again, gives the reference's bytes.
#[test]
fn reencoding_reference_pngs_gives_their_bytes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/conformance");
    let mut n = 0;
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|x| x != "png") {
                continue;
            }
            let want = std::fs::read(&path).unwrap();
            let img = read_png(&want);
            let color = if img.bpp == 3 {
                ColorType::Rgb
            } else {
                ColorType::Gray
            };
            let got = png::encode(img.width, img.height, color, &img.pixels);
            assert!(
                got == want,
                "{}: {} bytes, want {}",
                path.display(),
                got.len(),
                want.len()
            );
            n += 1;
        }
    }
    assert!(n >= 29, "only {n} reference PNGs");
}
