// The statuses each kind of record may have, from the spec's catalog (@exchange-kit/types): what the control API
// may move a record to (record-kinds.ts) and what a history page may filter on (api/).
import { recordStatuses, webhookEventsByType } from "@exchange-kit/types";
import type { BankStatus, CustomerStatus, EddStatus, PayinStatus, PayoutStatus } from "./rows.js";

export const CUSTOMER_STATUSES: readonly CustomerStatus[] = ["UNVERIFIED", ...webhookEventsByType.CUSTOMER];
export const BANK_STATUSES: readonly BankStatus[] = recordStatuses.BankAccount;
export const PAYIN_STATUSES: readonly PayinStatus[] = recordStatuses.PayinOrder;
export const PAYOUT_STATUSES: readonly PayoutStatus[] = recordStatuses.PayoutOrder;
export const EDD_STATUSES: readonly EddStatus[] = ["PROCESSING", ...webhookEventsByType.EDD];
