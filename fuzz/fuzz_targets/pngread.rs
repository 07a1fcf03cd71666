//! A small PNG reader for the fuzz targets (8-bit gray or RGB, as the
//! writer makes them): checks the signature, the chunk CRCs and order,
//! inflates the IDATs with miniz_oxide and undoes the filters.
#![allow(dead_code)]

pub struct Image {
    pub width: usize,
    pub height: usize,
    pub bpp: usize,
    pub pixels: Vec<u8>,
}

pub fn read(png: &[u8]) -> Option<Image> {
    let body = png.strip_prefix(b"\x89PNG\r\n\x1a\n")?;
    let (mut pos, mut idat, mut hdr, mut ended) = (0, Vec::new(), None, false);
    while pos < body.len() {
        let len = u32::from_be_bytes(body.get(pos..pos + 4)?.try_into().ok()?) as usize;
        let kind = body.get(pos + 4..pos + 8)?;
        let data = body.get(pos + 8..pos + 8 + len)?;
        let crc = u32::from_be_bytes(body.get(pos + 8 + len..pos + 12 + len)?.try_into().ok()?);
        if caveman_engine::png::crc32(&body[pos + 4..pos + 8 + len]) != crc || ended {
            return None;
        }
        match kind {
            b"IHDR" => hdr = Some(data.to_vec()),
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => ended = true,
            _ => return None,
        }
        pos += 12 + len;
    }
    let hdr = hdr?;
    let width = u32::from_be_bytes(hdr[0..4].try_into().ok()?) as usize;
    let height = u32::from_be_bytes(hdr[4..8].try_into().ok()?) as usize;
    let bpp = match hdr[9] {
        0 => 1,
        2 => 3,
        _ => return None,
    };
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat).ok()?;
    let stride = width * bpp;
    if !ended || raw.len() != (stride + 1) * height {
        return None;
    }
    let mut pixels = vec![0u8; stride * height];
    for y in 0..height {
        let f = raw[y * (stride + 1)];
        for x in 0..stride {
            let i = y * stride + x;
            let a = if x >= bpp { pixels[i - bpp] as i32 } else { 0 };
            let b = if y > 0 { pixels[i - stride] as i32 } else { 0 };
            let c = if x >= bpp && y > 0 { pixels[i - stride - bpp] as i32 } else { 0 };
            let p = match f {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let (pa, pb, pc) = ((b - c).abs(), (a - c).abs(), (a + b - 2 * c).abs());
                    if pa <= pb && pa <= pc { a } else if pb <= pc { b } else { c }
                }
                _ => return None,
            };
            pixels[i] = raw[y * (stride + 1) + 1 + x].wrapping_add(p as u8);
        }
    }
    Some(Image { width, height, bpp, pixels })
}
