// The organizations that may call the sandbox, kept in the store's `organization` table: every replica on one
// database reads the same table, so an organization added on one replica is known to all of them at its next
// lookup. On a shared database (PostgreSQL) nothing is cached: a key is read by its ID (one primary-key lookup)
// on each request, which is what makes "added on one replica, accepted by the next request on any other" hold
// without any signalling. A SQLite database has one writer, this process, so there the organizations read are
// remembered until it writes one (a lookup is then a Map read, as before organizations were stored).
import type { Organization } from "../api/route.js";
import type { OrganizationRow } from "../records/rows.js";
import type { Store } from "../store/store.js";
import { generatedCredentials, organizationId } from "./organization-id.js";

/** An organization as the directory answers it: its credentials and when it was first registered. */
export interface StoredOrganization extends Organization {
  createdAt: string;
}

/** An organization to register: the sandbox's options (or a generated one). */
export interface OrganizationCredentials {
  name: string;
  apiKey: string;
  apiSecret: string;
}

/** What registering the options' organizations did: the organizations, and those whose stored secret it replaced. */
export interface Registration {
  organizations: StoredOrganization[];
  replacedSecret: StoredOrganization[];
}

function fromRow(row: OrganizationRow): StoredOrganization {
  return { id: row.id, name: row.name, apiKey: row.api_key, apiSecret: row.api_secret, createdAt: row.created_at };
}

/**
 * The organizations of the store.
 *
 * @example
 * const directory = new OrganizationDirectory(store);
 * const added = directory.add("QA team"); // its apiKey and apiSecret work on every replica at once
 * directory.byKey(added.apiKey)?.id === added.id; // true
 */
export class OrganizationDirectory {
  /**
   * The organizations read, by ID and by API key (the key's digest costs more than the read it saves), when the
   * database has no other writer (see the top of this file).
   */
  private readonly read: { byId: Map<string, StoredOrganization>; byKey: Map<string, StoredOrganization> } | undefined;
  /** An organization was written and its transaction has not committed: nothing read now is remembered. */
  private writing = false;

  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {
    // A SQLite database is this process's alone (a file is locked for it): what it read stays true until it writes.
    this.read = store.engine === "postgres" ? undefined : { byId: new Map(), byKey: new Map() };
  }

  /** The organization of an API key, or undefined (an unknown key). */
  async byKey(apiKey: string): Promise<StoredOrganization | undefined> {
    const remembered = this.read?.byKey.get(apiKey);
    if (remembered) return remembered;
    const found = await this.byId(organizationId(apiKey));
    // The ID is a digest: the stored key must be the very key given.
    if (!found || found.apiKey !== apiKey) return undefined;
    if (!this.writing) this.read?.byKey.set(apiKey, found);
    return found;
  }

  async byId(id: string): Promise<StoredOrganization | undefined> {
    const remembered = this.read?.byId.get(id);
    if (remembered) return remembered;
    const row = await this.store.cached("organization", id, async () => await this.store.organizations.get(id));
    const found = row && fromRow(row);
    // Unknown IDs are not remembered: a stream of made-up keys must not fill memory.
    if (found && !this.writing) this.read?.byId.set(id, found);
    return found;
  }

  /** Every organization, in the order they were first registered. */
  async list(): Promise<StoredOrganization[]> {
    return (await this.store.organizations.where("TRUE", [])).map(fromRow);
  }

  /**
   * Registers the organizations (upsert by ID, in one transaction): a new one is added; a known one takes the
   * name and secret given (a restarted replica's options win), keeping its first registration time.
   */
  async register(organizations: readonly OrganizationCredentials[]): Promise<Registration> {
    return await this.store.transaction(async () => {
      const replacedSecret: StoredOrganization[] = [];
      const registered: StoredOrganization[] = [];
      for (const given of organizations) {
        const stored = await this.byKey(given.apiKey);
        const organization = await this.put(given, stored?.createdAt ?? this.now().toISOString());
        if (stored && stored.apiSecret !== given.apiSecret) replacedSecret.push(organization);
        registered.push(organization);
      }
      return { organizations: registered, replacedSecret };
    });
  }

  /** The options' organizations; when they name none, the stored ones, or else one generated and stored. */
  async registerOrReuse(
    organizations: readonly OrganizationCredentials[],
    generatedName: string,
  ): Promise<Registration> {
    if (organizations.length > 0) return await this.register(organizations);
    // One transaction: replicas starting at once on a fresh database do not each generate one.
    return await this.store.transaction(async () => {
      const stored = await this.list();
      if (stored.length > 0) return { organizations: stored, replacedSecret: [] };
      return await this.register([{ name: generatedName, ...generatedCredentials() }]);
    });
  }

  /** Adds an organization with a new generated key pair; the answer is the only place its secret is shown. */
  async add(name: string): Promise<StoredOrganization> {
    return await this.store.transaction(() => this.put({ name, ...generatedCredentials() }, this.now().toISOString()));
  }

  private forget(): void {
    this.read?.byId.clear();
    this.read?.byKey.clear();
  }

  private async put(given: OrganizationCredentials, createdAt: string): Promise<StoredOrganization> {
    const id = organizationId(given.apiKey);
    const row: OrganizationRow = {
      id,
      org: id,
      name: given.name,
      api_key: given.apiKey,
      api_secret: given.apiSecret,
      created_at: createdAt,
    };
    // Forgotten before the write, and nothing remembered until it commits: a transaction that rolls it back
    // leaves nothing uncommitted remembered (after a rollback nothing is remembered again: safe, only slower).
    this.forget();
    this.writing = true;
    const written = fromRow(await this.store.organizations.put(row));
    this.store.afterCommit(() => {
      this.writing = false;
      this.forget();
    });
    return written;
  }
}
