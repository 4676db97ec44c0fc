// Debian's Chromium, headless, driven by playwright-core (which downloads
// no browser of its own), with the flags this machine needs: no sandbox
// (tests run as root), and no background connections (the network is
// closed, and refused connections slow every start).
import { chromium } from "playwright-core";

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
