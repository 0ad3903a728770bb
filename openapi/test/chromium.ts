// Headless Chromium for the docs test lives in @exchange-kit/test-servers (the system's Chromium driven by
// playwright-core, which downloads no browser), so every package's browser tests launch it the same way.
export * from "@exchange-kit/test-servers/chromium";
