/** Credentials every signing call takes. */
export interface Credentials {
  /** Your API key, sent as X-API-KEY and the first part of the signed message. */
  apiKey: string;
  /** Your API secret, the HMAC key. Keep it on your server. */
  apiSecret: string;
  /**
   * Sign even where `window` and `document` exist. Off by default because
   * an API secret in a browser or mobile app is readable by its users.
   */
  dangerouslyAllowBrowser?: boolean;
}

export interface ComputeSignatureOptions extends Credentials {
  /** Unix time in whole seconds, exactly as sent in X-TIMESTAMP. */
  timestamp: number | string;
  /**
   * The canonical body (see canonicalize); `{}` for a request without a body. Bytes (UTF-8, exactly as
   * sent or received) are signed as they are, without a copy or a decode: the bytes signed are the bytes sent.
   */
  canonicalBody: string | Uint8Array;
}

export interface SignRequestOptions extends Credentials {
  /**
   * The JSON body as a value (not as text). Leave it out for GET and DELETE:
   * `{}` is signed and no body is sent.
   */
  body?: unknown;
  /** Unix time in whole seconds; defaults to now. */
  timestamp?: number | string;
}

export interface VerifySignatureOptions extends Credentials {
  /** The X-TIMESTAMP header as received. */
  timestamp: number | string;
  /**
   * The canonical body; for raw JSON text you received, pass `canonicalizeText(raw)`, or the raw bytes
   * themselves when the sender signs them as sent.
   */
  canonicalBody: string | Uint8Array;
  /** The X-SIGNATURE header as received. */
  signature: string;
  /** Largest accepted distance between timestamp and now, either way. Default 300. */
  toleranceSeconds?: number;
  /** The current Unix time in seconds; defaults to the clock. */
  now?: number;
}

/** The three authentication headers. */
export type SignatureHeaders = Record<"X-API-KEY" | "X-TIMESTAMP" | "X-SIGNATURE", string>;

/** A signed request with a JSON body (POST, PUT, PATCH). */
export interface SignedRequestWithBody {
  /** Send exactly this string as the body: it is what was signed. */
  body: string;
  headers: Record<"X-API-KEY" | "X-TIMESTAMP" | "X-SIGNATURE" | "Content-Type", string>;
}

/** A signed request without a body (GET, DELETE): `{}` was signed, nothing is sent. */
export interface SignedRequestWithoutBody {
  body: undefined;
  headers: SignatureHeaders;
}

/** Either kind of signed request; `body === undefined` tells them apart. */
export type SignedRequest = SignedRequestWithBody | SignedRequestWithoutBody;
