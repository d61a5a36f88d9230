# Sourced by the release builds of the bundles a site ships (scripts/build-release.sh, and
# scripts/build-widget.sh): the standard library is rebuilt for size with the panic strategy
# `immediate-abort` (a panic is a trap at once: no formatting of its message, no location
# strings), `Debug` derives that print only the type's name and core's `optimize_for_size`
# code paths. −41 KB gzip on the lean widget (docs/dev/size.md).
#
# These are unstable options of the installed stable toolchain, enabled with RUSTC_BOOTSTRAP
# (no nightly toolchain is installed here); they need the `rust-src` component
# (scripts/setup.sh adds it). Only these release builds get them: the tests build as usual.
_sysroot="$(rustc --print sysroot)"
if [ ! -d "$_sysroot/lib/rustlib/src/rust/library/std" ]; then
    echo "release-env: the rust-src component is missing (rustup component add rust-src)" >&2
    return 1 2>/dev/null || exit 1
fi
export RUSTC_BOOTSTRAP=1
# RUSTFLAGS replaces the target's rustflags of .cargo/config.toml: keep erase_components.
export RUSTFLAGS="--cfg erase_components -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=shallow"
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
