// The working set lives in Maps (fast, synchronous); a Persistence, when configured, mirrors every write so the
// state survives a restart. Handlers mutate a row and then `put` it, which is the moment it is persisted.
import type {
  BankRow,
  CustomerRow,
  EddRow,
  EventRow,
  OrgSettingsRow,
  PayinQuotationRow,
  PayinRow,
  PayoutQuotationRow,
  PayoutRow,
  RemitterRow,
  SenderKycRow,
  WalletRow,
} from "./records.js";

export interface Persistence {
  upsert(kind: string, id: string, org: string, row: unknown): void;
  remove(kind: string, id: string): void;
  setMeta(key: string, value: string): void;
}

interface Row {
  id: string;
  org: string;
}

export class Table<T extends Row> {
  private readonly rows = new Map<string, T>();
  private readonly indexes = new Map<string, { key: (row: T) => string | undefined; ids: Map<string, string> }>();

  constructor(
    readonly kind: string,
    private readonly persistence: Persistence | undefined,
  ) {}

  /** A unique lookup key (e.g. organization + client_reference_id), kept up to date on put and delete. */
  addIndex(name: string, key: (row: T) => string | undefined): this {
    this.indexes.set(name, { key, ids: new Map() });
    return this;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  /** The row of this organization, or undefined; `other` tells whether it exists in another one. */
  owned(org: string, id: string): { row: T | undefined; other: boolean } {
    const row = this.rows.get(id);
    if (!row) return { row: undefined, other: false };
    return row.org === org ? { row, other: false } : { row: undefined, other: true };
  }

  byIndex(name: string, key: string): T | undefined {
    const id = this.indexes.get(name)?.ids.get(key);
    return id === undefined ? undefined : this.rows.get(id);
  }

  all(): IterableIterator<T> {
    return this.rows.values();
  }

  filter(predicate: (row: T) => boolean): T[] {
    const out: T[] = [];
    for (const row of this.rows.values()) if (predicate(row)) out.push(row);
    return out;
  }

  put(row: T): T {
    const previous = this.rows.get(row.id);
    for (const index of this.indexes.values()) {
      if (previous) {
        const oldKey = index.key(previous);
        if (oldKey !== undefined && index.ids.get(oldKey) === previous.id) index.ids.delete(oldKey);
      }
      const key = index.key(row);
      if (key !== undefined) index.ids.set(key, row.id);
    }
    this.rows.set(row.id, row);
    this.persistence?.upsert(this.kind, row.id, row.org, row);
    return row;
  }

  /** Loads a persisted row without writing it back. */
  restore(row: T): void {
    this.rows.set(row.id, row);
    for (const index of this.indexes.values()) {
      const key = index.key(row);
      if (key !== undefined) index.ids.set(key, row.id);
    }
  }

  delete(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    for (const index of this.indexes.values()) {
      const key = index.key(row);
      if (key !== undefined && index.ids.get(key) === id) index.ids.delete(key);
    }
    this.rows.delete(id);
    this.persistence?.remove(this.kind, id);
  }
}

export class Store {
  readonly customers: Table<CustomerRow>;
  readonly banks: Table<BankRow>;
  readonly wallets: Table<WalletRow>;
  readonly payoutQuotations: Table<PayoutQuotationRow>;
  readonly payinQuotations: Table<PayinQuotationRow>;
  readonly payouts: Table<PayoutRow>;
  readonly payins: Table<PayinRow>;
  readonly edd: Table<EddRow>;
  readonly remitters: Table<RemitterRow>;
  readonly senderKyc: Table<SenderKycRow>;
  readonly orgSettings: Table<OrgSettingsRow>;
  readonly events: Table<EventRow>;
  private readonly meta = new Map<string, string>();

  constructor(private readonly persistence?: Persistence) {
    const table = <T extends Row>(kind: string) => new Table<T>(kind, persistence);
    this.customers = table<CustomerRow>("customer").addIndex("clientRef", (r) => `${r.org}|${r.client_reference_id}`);
    this.banks = table<BankRow>("bank");
    this.wallets = table<WalletRow>("wallet");
    this.payoutQuotations = table<PayoutQuotationRow>("payout_quotation");
    this.payinQuotations = table<PayinQuotationRow>("payin_quotation");
    this.payouts = table<PayoutRow>("payout").addIndex("clientRef", (r) =>
      r.client_reference_id === null ? undefined : `${r.org}|${r.client_reference_id}`,
    );
    this.payins = table<PayinRow>("payin")
      .addIndex("clientRef", (r) => `${r.org}|${r.client_reference_id}`)
      .addIndex("utr", (r) => `${r.org}|${r.transaction_reference_id.toUpperCase()}`);
    this.edd = table<EddRow>("edd");
    this.remitters = table<RemitterRow>("remitter");
    this.senderKyc = table<SenderKycRow>("sender_kyc");
    this.orgSettings = table<OrgSettingsRow>("org_settings");
    this.events = table<EventRow>("event");
  }

  tables(): Array<Table<Row>> {
    return [
      this.customers,
      this.banks,
      this.wallets,
      this.payoutQuotations,
      this.payinQuotations,
      this.payouts,
      this.payins,
      this.edd,
      this.remitters,
      this.senderKyc,
      this.orgSettings,
      this.events,
    ] as unknown as Array<Table<Row>>;
  }

  /** Loads persisted rows (kind + JSON) and meta values. */
  restore(rows: Iterable<{ kind: string; json: string }>, meta: Iterable<[string, string]>): void {
    const byKind = new Map(this.tables().map((t) => [t.kind, t]));
    for (const { kind, json } of rows) byKind.get(kind)?.restore(JSON.parse(json) as Row);
    for (const [key, value] of meta) this.meta.set(key, value);
  }

  getMeta(key: string): string | undefined {
    return this.meta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.meta.set(key, value);
    this.persistence?.setMeta(key, value);
  }

  /** The next integer wallet ID (wallet IDs are integers, unlike every other ID). */
  nextWalletId(): number {
    const next = Number(this.getMeta("wallet_seq") ?? "1000") + 1;
    this.setMeta("wallet_seq", String(next));
    return next;
  }
}
