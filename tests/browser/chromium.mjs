// Debian's Chromium, headless, driven by playwright-core (which downloads
// no browser of its own), with the flags this machine needs
// (tests/chromium_args.mjs).
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../chromium_args.mjs";

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
}
