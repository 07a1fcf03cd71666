//! `pixel render`'s pipeline never panics on any text and option mix, and
//! every page it returns is a PNG of the size it reports.
#![no_main]
use caveman_engine::pixel::{render, Density, Options};
use libfuzzer_sys::fuzz_target;

#[path = "pngread.rs"]
mod pngread;

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, data)) = data.split_first() else {
        return;
    };
    let opts = Options {
        density: [Density::Conservative, Density::Balanced, Density::Max][knobs as usize % 3],
        cols: (knobs & 4 != 0).then_some(1 + (knobs as usize >> 3) * 3),
        multicol: 1 + (knobs as usize >> 6),
        dense: knobs & 8 != 0,
        reflow: knobs & 16 == 0,
    };
    let text = caveman_engine::pixel::text::decode(data);
    let Ok(pages) = render(&text, &opts) else {
        return;
    };
    for page in pages {
        let img = pngread::read(&page.png).expect("a well-formed PNG");
        assert_eq!((img.width, img.height), (page.width, page.height));
    }
});
