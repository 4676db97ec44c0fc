// The flags every headless-Chromium test here starts Debian's Chromium
// with (tests/browser/chromium.mjs, tests/explorer/drive.mjs): no sandbox
// (tests run as root), and no background connections (the network is
// closed, and refused connections slow every start). No imports, so
// either npm folder can use it without the other's packages.
// tests/cli_common/mod.rs's `dump_dom` reads this list from this file:
// keep it one quoted flag an element.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
