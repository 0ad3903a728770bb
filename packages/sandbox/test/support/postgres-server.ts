// The throwaway PostgreSQL server of the tests lives in @exchange-kit/test-servers, so the CLI's tests (the team
// sandbox behind nginx) start it the same way.
export * from "@exchange-kit/test-servers/postgres";
