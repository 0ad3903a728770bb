// The demo as a table: the whole integration, step by step, as a fintech backend would run it.
import { CUSTOMER_STEPS } from "./customer-steps.js";
import { HISTORY_STEPS } from "./history-steps.js";
import { PAYIN_STEPS } from "./payin-steps.js";
import { PAYOUT_STEPS } from "./payout-steps.js";
import { SETUP_STEPS } from "./setup-steps.js";
import type { DemoStep } from "./step.js";

export const DEMO_STEPS: readonly DemoStep[] = [
  ...SETUP_STEPS,
  ...CUSTOMER_STEPS,
  ...PAYIN_STEPS,
  ...PAYOUT_STEPS,
  ...HISTORY_STEPS,
];
