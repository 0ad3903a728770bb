import { type WebhookMetadataRule, webhookMetadataRules } from "@exchange-kit/types";

// The catalog the built-in validator checks: which (type, event) pairs exist and what each event's metadata
// holds. It is generated from the spec into @exchange-kit/types, so an event the spec adds is a known event here
// without an edit. Plain arrays and objects, small enough for the core entry: no schema library.

/** What the metadata keys of one event may hold, by key. */
export type MetadataRules = { readonly [key: string]: WebhookMetadataRule };

/** The catalog indexed by any string; looked up only under its own keys (never __proto__ or toString). */
export const CATALOG: { readonly [type: string]: { readonly [event: string]: MetadataRules } } = webhookMetadataRules;
