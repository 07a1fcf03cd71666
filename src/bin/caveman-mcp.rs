//! `caveman-mcp`: the MCP stdio server (spec/mcp.md), the same as
//! `caveman-engine mcp`, on a large stack like the CLI.

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let code =
        match caveman_engine::on_large_stack(move || match caveman_engine::mcp::main(&args) {
            0 => Ok(()),
            code => Err(caveman_engine::error::Error::exit(code)),
        }) {
            Ok(()) => 0,
            Err(e) => {
                if let Some(m) = e.message() {
                    eprintln!("{m}");
                }
                e.code()
            }
        };
    std::process::exit(code);
}

/// The same allocator as the CLI.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
