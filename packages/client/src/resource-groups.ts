// The client's resource groups as users see them: the generated groups (src/generated/resources/) with the
// helpers added to some (polling, aliases). Above the generated groups, which type their methods with
// resource-types.ts.
import type { GeneratedResources } from "./generated/resources/index.js";
import type { WaitOptions } from "./wait-for.js";

type DataOfMethod<M> = M extends (...args: never[]) => Promise<infer D> ? D : never;
type Group<G extends string> = G extends keyof GeneratedResources ? GeneratedResources[G] : {};

/** Helpers added to the derived groups (polling, aliases). */
export interface ResourceHelpers {
  customers: Group<"customers"> extends { get: infer Get }
    ? {
        /**
         * Polls the customer until KYC is final (VERIFIED or FAILED) and returns it.
         *
         * @example
         * const customer = await client.customers.waitForKyc(customerId, { timeoutMs: 600_000 });
         */
        waitForKyc(customerId: string, options?: WaitOptions<DataOfMethod<Get>>): Promise<DataOfMethod<Get>>;
      }
    : {};
  banks: Group<"banks"> extends { get: infer Get }
    ? {
        /**
         * Polls the bank account until VERIFIED or FAILED and returns it.
         *
         * @example
         * const bank = await client.banks.waitFor(customerId, bankId);
         */
        waitFor(
          customerId: string,
          bankId: string,
          options?: WaitOptions<DataOfMethod<Get>>,
        ): Promise<DataOfMethod<Get>>;
      }
    : {};
  payins: PollingHelpers<Group<"payins">>;
  payouts: PollingHelpers<Group<"payouts">>;
}

type PollingHelpers<R> = (R extends { get: infer Get }
  ? {
      /**
       * Polls the order until a final status (SUCCESS, FAILED, REFUNDED) and returns it.
       *
       * @example
       * const payout = await client.payouts.waitFor(payoutId, { timeoutMs: 15 * 60_000 });
       */
      waitFor(id: string, options?: WaitOptions<DataOfMethod<Get>>): Promise<DataOfMethod<Get>>;
    }
  : {}) &
  (R extends { listHistory: infer History } ? { /** Alias of listHistory. */ history: History } : {});

/** The resource groups of the client: the generated methods plus the helpers. */
export type Resources = {
  readonly [G in keyof GeneratedResources]: GeneratedResources[G] &
    (G extends keyof ResourceHelpers ? ResourceHelpers[G] : {});
};
