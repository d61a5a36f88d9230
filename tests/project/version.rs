//! One version everywhere: the crate's (`Cargo.toml`), the npm package's (`npm/package.json`),
//! the loader's `version` export, the changelog's latest release, and every `agui-leptos@X` a
//! document or example pins. (`AguiChat.version` is the crate's: `env!("CARGO_PKG_VERSION")`.)

use std::path::PathBuf;

fn read(path: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

const VERSION: &str = env!("CARGO_PKG_VERSION");

#[test]
fn the_npm_package_has_the_crates_version() {
    let package: serde_json::Value =
        serde_json::from_str(&read("npm/package.json")).expect("npm/package.json is JSON");
    assert_eq!(package["version"], VERSION, "npm/package.json");
    assert_eq!(package["name"], "agui-leptos");
    assert_eq!(
        package["license"],
        env!("CARGO_PKG_LICENSE"),
        "the licence is the crate's"
    );
}

#[test]
fn the_loader_exports_the_crates_version() {
    let loader = read("src/loader/agui-chat.js");
    assert!(
        loader.contains(&format!("export const version = '{VERSION}';")),
        "src/loader/agui-chat.js's version is not {VERSION}"
    );
    assert!(
        read("src/widget/api.rs").contains(r#"&env!("CARGO_PKG_VERSION").into()"#),
        "AguiChat.version is the crate's"
    );
}

#[test]
fn the_changelogs_latest_release_is_this_version() {
    let changelog = read("CHANGELOG.md");
    let latest = changelog
        .lines()
        .filter(|l| l.starts_with("## ["))
        .find(|l| !l.starts_with("## [Unreleased]"))
        .expect("a released version in CHANGELOG.md");
    assert!(
        latest.starts_with(&format!("## [{VERSION}] - ")),
        "CHANGELOG.md's latest release is {latest:?}, the crate is {VERSION}"
    );
}

#[test]
fn every_pinned_version_in_the_docs_is_this_one() {
    let mut files = vec![
        "README.md".to_owned(),
        "examples/hosts/plain/index.html".to_owned(),
        "examples/hosts/plain/assets.html".to_owned(),
        "examples/hosts/plain/full.html".to_owned(),
    ];
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut stack = vec![docs];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let rel = path
                    .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                    .expect("in the repo");
                files.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    let mut pins = 0;
    for file in &files {
        let text = read(file);
        for (i, _) in text.match_indices("agui-leptos@") {
            let rest = &text[i + "agui-leptos@".len()..];
            let pinned: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
                .collect();
            if !pinned.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            pins += 1;
            assert_eq!(pinned, VERSION, "{file} pins agui-leptos@{pinned}");
        }
    }
    assert!(pins >= 2, "the README and the plain host pin the version");
}
