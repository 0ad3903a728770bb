// The sandbox's fixed configuration: enabled countries, KYC requirements, corridors, rates and bounds. The
// document leaves these to each organization's configuration; the values here are the sandbox's choice and are
// served by the configuration operations, so a client reading them sees the rules it is held to.

export interface CountryInfo {
  dialCode: string;
  /** National mobile number rule (digits only, without the dial code). */
  phone: RegExp;
  documents: string[];
  taxRequired: boolean;
}

const EU_DOCUMENTS = ["PASSPORT", "NATIONAL_ID", "DRIVING_LICENSE"];

export const COUNTRIES: Record<string, CountryInfo> = {
  IND: {
    dialCode: "+91",
    phone: /^[6-9]\d{9}$/,
    documents: ["AADHAAR", "PAN", "PASSPORT", "VOTER_ID", "DRIVING_LICENSE"],
    taxRequired: true,
  },
  USA: {
    dialCode: "+1",
    phone: /^\d{10}$/,
    documents: ["PASSPORT", "DRIVING_LICENSE", "STATE_ID"],
    taxRequired: false,
  },
  BRA: {
    dialCode: "+55",
    phone: /^\d{10,11}$/,
    documents: ["PASSPORT", "NATIONAL_ID", "DRIVING_LICENSE"],
    taxRequired: true,
  },
  MEX: { dialCode: "+52", phone: /^\d{10}$/, documents: ["PASSPORT", "NATIONAL_ID"], taxRequired: false },
  GBR: { dialCode: "+44", phone: /^\d{9,10}$/, documents: ["PASSPORT", "DRIVING_LICENSE"], taxRequired: false },
  DEU: { dialCode: "+49", phone: /^\d{8,12}$/, documents: EU_DOCUMENTS, taxRequired: false },
  FRA: { dialCode: "+33", phone: /^\d{9}$/, documents: EU_DOCUMENTS, taxRequired: false },
  ESP: { dialCode: "+34", phone: /^\d{9}$/, documents: EU_DOCUMENTS, taxRequired: false },
  ITA: { dialCode: "+39", phone: /^\d{9,11}$/, documents: EU_DOCUMENTS, taxRequired: false },
  NLD: { dialCode: "+31", phone: /^\d{9}$/, documents: EU_DOCUMENTS, taxRequired: false },
  PRT: { dialCode: "+351", phone: /^\d{9}$/, documents: EU_DOCUMENTS, taxRequired: false },
  ARE: { dialCode: "+971", phone: /^\d{8,9}$/, documents: ["PASSPORT", "EMIRATES_ID"], taxRequired: false },
  SGP: { dialCode: "+65", phone: /^\d{8}$/, documents: ["PASSPORT", "NATIONAL_ID"], taxRequired: false },
  PHL: { dialCode: "+63", phone: /^\d{10}$/, documents: ["PASSPORT", "NATIONAL_ID"], taxRequired: false },
  NGA: { dialCode: "+234", phone: /^\d{10}$/, documents: ["PASSPORT", "NATIONAL_ID"], taxRequired: false },
  KEN: { dialCode: "+254", phone: /^\d{9}$/, documents: ["PASSPORT", "NATIONAL_ID"], taxRequired: false },
};

/** additional_info_required of the KYC configuration (the same for every country in the sandbox). */
export const ADDITIONAL_INFO = {
  options: ["occupation", "annual_income", "source_of_funds"],
  rules: { type: "MIN_REQUIRED", min_required: 1 },
  fields: {
    occupation: { type: "string", required: true },
    annual_income: { type: "string", required: false },
    source_of_funds: { type: "string", required: false },
  } as Record<string, { type: string; required: boolean }>,
};

/** Decimals of each currency: amounts are written with exactly this many, and requests may not carry more. */
export const CURRENCY_DECIMALS: Record<string, number> = { INR: 2, BRL: 2, EUR: 2, USD: 2, MXN: 2, USDT: 6, USDC: 6 };

/** Decimals of a currency code (any case): fiat 2, crypto 6. */
export function decimalsOf(currency: string): number {
  const decimals = CURRENCY_DECIMALS[currency.toUpperCase()];
  if (decimals === undefined) throw new Error(`No precision for currency ${currency}`);
  return decimals;
}

/** Decimals of the rates the sandbox answers. */
export const RATE_DECIMALS = 4;

/**
 * Fees, as decimal fractions of the gross fiat amount (GST: of the fee it taxes). Payout: service 0.5 %, client
 * 0.25 % plus 18 % GST on it, TDS 1 %. Payin: service 0.5 %, payment gateway 0.2 %, client 0.25 %, each plus 18 % GST.
 */
export const PAYOUT_FEES = { service: "0.005", client: "0.0025", clientGst: "0.18", tds: "0.01" } as const;
export const PAYIN_FEES = {
  service: "0.005",
  serviceGst: "0.18",
  pg: "0.002",
  pgGst: "0.18",
  client: "0.0025",
  clientGst: "0.18",
} as const;

export interface MethodBounds {
  /** Fiat bounds (decimal strings), exclusive: the amount must be greater than min and less than max. */
  minFiat: string;
  maxFiat: string;
  settlementMinutes: { fastest: number; slowest: number };
}

export interface PayoutCorridor {
  fiat: string;
  /** Fiat per 1 unit of crypto, before fees (a decimal string). */
  rate: string;
  assets: string[];
  networks: string[];
  methods: Record<string, MethodBounds>;
  requiredRiskParameters: string[];
}

const NETWORKS = ["tron", "polygon", "ethereum", "bsc", "solana"];

export const PAYOUT_CORRIDORS: Record<string, PayoutCorridor> = {
  INR: {
    fiat: "INR",
    rate: "88",
    assets: ["usdt", "usdc"],
    networks: NETWORKS,
    methods: {
      // The document's bounds: greater than 2,500 INR; less than 500,000 INR for IMPS.
      IMPS: { minFiat: "2500", maxFiat: "500000", settlementMinutes: { fastest: 1, slowest: 30 } },
      NEFT: { minFiat: "2500", maxFiat: "2500000", settlementMinutes: { fastest: 30, slowest: 180 } },
      UPI: { minFiat: "2500", maxFiat: "100000", settlementMinutes: { fastest: 1, slowest: 15 } },
    },
    requiredRiskParameters: ["ip_address"],
  },
  BRL: {
    fiat: "BRL",
    rate: "5.4",
    assets: ["usdt", "usdc"],
    networks: NETWORKS,
    methods: { PIX: { minFiat: "10", maxFiat: "100000", settlementMinutes: { fastest: 1, slowest: 10 } } },
    requiredRiskParameters: [],
  },
  EUR: {
    fiat: "EUR",
    rate: "0.92",
    assets: ["usdt", "usdc"],
    networks: NETWORKS,
    methods: { SEPA: { minFiat: "10", maxFiat: "100000", settlementMinutes: { fastest: 60, slowest: 1440 } } },
    requiredRiskParameters: [],
  },
  USD: {
    fiat: "USD",
    rate: "1",
    assets: ["usdt", "usdc"],
    networks: NETWORKS,
    methods: {
      ACH_PUSH: { minFiat: "10", maxFiat: "100000", settlementMinutes: { fastest: 60, slowest: 4320 } },
      WIRE: { minFiat: "100", maxFiat: "1000000", settlementMinutes: { fastest: 60, slowest: 2880 } },
    },
    requiredRiskParameters: [],
  },
  MXN: {
    fiat: "MXN",
    rate: "18.2",
    assets: ["usdt", "usdc"],
    networks: NETWORKS,
    methods: { SPEI: { minFiat: "100", maxFiat: "2000000", settlementMinutes: { fastest: 1, slowest: 60 } } },
    requiredRiskParameters: [],
  },
};

export interface PayinCorridor {
  fiat: string;
  /** Fiat per 1 unit of crypto the customer pays, before fees (a decimal string). */
  rate: string;
  assets: string[];
  networks: string[];
  /** Payment method → the bank account rail it needs and the fiat bounds (decimal strings, inclusive). */
  methods: Record<string, { rail: "ACCOUNT_DETAILS" | "UPI"; minFiat: string; maxFiat: string }>;
}

export const PAYIN_CORRIDORS: Record<string, PayinCorridor> = {
  INR: {
    fiat: "INR",
    rate: "90.5",
    assets: ["usdt", "usdc"],
    networks: NETWORKS,
    methods: {
      IMPS: { rail: "ACCOUNT_DETAILS", minFiat: "100", maxFiat: "500000" },
      NEFT: { rail: "ACCOUNT_DETAILS", minFiat: "100", maxFiat: "2500000" },
      UPI: { rail: "UPI", minFiat: "100", maxFiat: "100000" },
    },
  },
};

/** Default payout method (bank_account_type of payout bank accounts) per country. */
export const PAYOUT_METHOD_BY_COUNTRY: Record<string, string> = {
  IND: "IMPS",
  BRA: "PIX",
  USA: "ACH_PUSH",
  MEX: "SPEI",
  DEU: "SEPA",
  FRA: "SEPA",
  ESP: "SEPA",
  ITA: "SEPA",
  NLD: "SEPA",
  PRT: "SEPA",
};

/** Daily fiat limit per customer and direction, in INR; raised after a VERIFIED EDD. */
export const DAILY_LIMIT_INR = { standard: "1000000", afterEdd: "5000000" };

/** How long a quotation is valid by default (the document does not publish the period). */
export const DEFAULT_QUOTATION_TTL_SECONDS = 300;

export const IFSC_BANKS: Record<string, string> = {
  HDFC: "HDFC Bank",
  ICIC: "ICICI Bank",
  SBIN: "State Bank of India",
  UTIB: "Axis Bank",
  KKBK: "Kotak Mahindra Bank",
  YESB: "Yes Bank",
  PUNB: "Punjab National Bank",
};

export const UPI_HANDLES: Record<string, string> = {
  okhdfc: "HDFC Bank",
  okhdfcbank: "HDFC Bank",
  okicici: "ICICI Bank",
  oksbi: "State Bank of India",
  okaxis: "Axis Bank",
  ybl: "Yes Bank",
  paytm: "Paytm Payments Bank",
  upi: "NPCI",
};

/** Every ISO 3166-1 alpha-3 code: a well-formed code that is not one is "invalid"; one that is but is not in COUNTRIES is "not enabled". */
export const ISO_ALPHA3 = new Set(
  (
    "ABW AFG AGO AIA ALA ALB AND ARE ARG ARM ASM ATA ATF ATG AUS AUT AZE BDI BEL BEN BES BFA BGD BGR BHR BHS BIH BLM BLR BLZ " +
    "BMU BOL BRA BRB BRN BTN BVT BWA CAF CAN CCK CHE CHL CHN CIV CMR COD COG COK COL COM CPV CRI CUB CUW CXR CYM CYP CZE DEU " +
    "DJI DMA DNK DOM DZA ECU EGY ERI ESH ESP EST ETH FIN FJI FLK FRA FRO FSM GAB GBR GEO GGY GHA GIB GIN GLP GMB GNB GNQ GRC " +
    "GRD GRL GTM GUF GUM GUY HKG HMD HND HRV HTI HUN IDN IMN IND IOT IRL IRN IRQ ISL ISR ITA JAM JEY JOR JPN KAZ KEN KGZ KHM " +
    "KIR KNA KOR KWT LAO LBN LBR LBY LCA LIE LKA LSO LTU LUX LVA MAC MAF MAR MCO MDA MDG MDV MEX MHL MKD MLI MLT MMR MNE MNG " +
    "MNP MOZ MRT MSR MTQ MUS MWI MYS MYT NAM NCL NER NFK NGA NIC NIU NLD NOR NPL NRU NZL OMN PAK PAN PCN PER PHL PLW PNG POL " +
    "PRI PRK PRT PRY PSE PYF QAT REU ROU RUS RWA SAU SDN SEN SGP SGS SHN SJM SLB SLE SLV SMR SOM SPM SRB SSD STP SUR SVK SVN " +
    "SWE SWZ SXM SYC SYR TCA TCD TGO THA TJK TKL TKM TLS TON TTO TUN TUR TUV TZA UGA UKR UMI URY USA UZB VAT VCT VEN VGB VIR " +
    "VNM VUT WLF WSM YEM ZAF ZMB ZWE"
  ).split(" "),
);
