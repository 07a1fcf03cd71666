//! Every deflate and zlib stream the PNG writer makes inflates back to its
//! input, whatever the input and however it is cut into writes (the first
//! byte picks the write size), and every PNG decodes to its pixels.
#![no_main]
use caveman_engine::png;
use libfuzzer_sys::fuzz_target;

#[path = "pngread.rs"]
mod pngread;

fuzz_target!(|data: &[u8]| {
    let Some((&cut, data)) = data.split_first() else {
        return;
    };
    let step = 1 + cut as usize * 37;
    let writes: Vec<&[u8]> = data.chunks(step).collect();
    let raw = png::deflate(&writes);
    let back = miniz_oxide::inflate::decompress_to_vec(&raw).expect("deflate stream inflates");
    assert_eq!(back, data);
    let z = png::zlib(&writes);
    let back = miniz_oxide::inflate::decompress_to_vec_zlib(&z).expect("zlib stream inflates");
    assert_eq!(back, data);
    // The same bytes as a gray image `step` pixels wide.
    if !data.is_empty() && data.len() % step == 0 {
        let file = png::encode(step, data.len() / step, png::ColorType::Gray, data);
        assert_eq!(pngread::read(&file).map(|i| i.pixels).as_deref(), Some(data));
    }
});
