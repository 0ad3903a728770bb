// Headless Chromium for the tests lives in @exchange-kit/test-servers, so the CLI's team-sandbox test (the
// dashboard through nginx) launches it the same way.
export * from "@exchange-kit/test-servers/chromium";
