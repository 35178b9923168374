// The whole domain in one Drizzle schema. Migrations under ./migrations are generated from it
// (`npm run db:generate`) and applied on start, on PGlite and on PostgreSQL alike.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  char,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

// ---------------------------------------------------------------- geography

export const countries = pgTable('countries', {
  code: char('code', { length: 2 }).primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
});

export const cities = pgTable(
  'cities',
  {
    // GeoNames id, so a re-import keeps references stable.
    id: integer('id').primaryKey(),
    countryCode: char('country_code', { length: 2 })
      .notNull()
      .references(() => countries.code),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    timezone: text('timezone').notNull(),
    population: integer('population').notNull().default(0),
  },
  (t) => [
    uniqueIndex('cities_country_slug').on(t.countryCode, t.slug),
    index('cities_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

/**
 * A city's name in another language where GeoNames has one that differs from the English name (München,
 * Viena). Filled at start from the packaged file and GEONAMES_ALTERNATE_NAMES (geo/city-names.ts);
 * slugs stay the English ones (docs/decisions/0604).
 */
export const cityNames = pgTable(
  'city_names',
  {
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id, { onDelete: 'cascade' }),
    lang: text('lang').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cityId, t.lang] })],
);

/** What city_names was last filled from (one row): a start with the same files imports nothing. */
export const cityNamesSource = pgTable(
  'city_names_source',
  {
    id: boolean('id').primaryKey().default(true),
    signature: text('signature').notNull(),
  },
  (t) => [check('city_names_source_one_row', sql`${t.id}`)],
);

// ---------------------------------------------------------------- accounts

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['advertiser', 'admin'] })
      .notNull()
      .default('advertiser'),
    status: text('status', { enum: ['active', 'suspended', 'deleted'] })
      .notNull()
      .default('active'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    termsAcceptedAt: ts('terms_accepted_at').notNull(),
    emailVerifiedAt: ts('email_verified_at'),
    mobile: text('mobile'),
    mobileVerifiedAt: ts('mobile_verified_at'),
    language: text('language').notNull().default('en'),
    lastSeenAt: ts('last_seen_at'),
    deletedAt: ts('deleted_at'),
    // Set when deletion is requested; the purge job removes the data at this time (<= 14 days).
    purgeAfter: ts('purge_after'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_email_lower').on(sql`lower(${t.email})`),
    uniqueIndex('accounts_username_lower').on(sql`lower(${t.username})`),
    // Admin search (any part of an address or login, no minimum length).
    index('accounts_email_trgm').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
    index('accounts_username_trgm').using('gin', sql`lower(${t.username}) gin_trgm_ops`),
    // The deleted accounts due for their purge (hourly; docs/decisions/0757): few, not every account.
    index('accounts_purge_after')
      .on(t.purgeAfter)
      .where(sql`${t.purgeAfter} is not null`),
  ],
);

export const accountLinks = pgTable(
  'account_links',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    linkedAccountId: integer('linked_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.linkedAccountId] })],
);

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 of the cookie token: a leaked table does not leak usable sessions.
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_account').on(t.accountId)],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['email_verify', 'password_reset', 'mobile_pin', 'email_change'] }).notNull(),
    // HMAC of the secret (link hash or PIN) with the server secret; never the secret itself.
    tokenHash: text('token_hash').notNull(),
    target: text('target'),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('auth_tokens_account_purpose').on(t.accountId, t.purpose)],
);

// ---------------------------------------------------------------- profiles and listings

export const profiles = pgTable(
  'profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    screenName: text('screen_name'),
    heading: text('heading'),
    about: text('about'),
    gender: text('gender', { enum: ['female', 'male', 'trans'] }),
    sexuality: text('sexuality', { enum: ['bi', 'gay', 'straight'] }),
    services: text('services')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    personality: text('personality')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    languages: text('languages')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    currency: char('currency', { length: 3 }).notNull().default('EUR'),
    phone: text('phone'),
    landmark: text('landmark'),
    cityId: integer('city_id').references(() => cities.id),
    // Free-text area inside the city ("Soho"), shown as "City - Place".
    place: text('place'),
    adStatus: text('ad_status', { enum: ['visible', 'hidden'] })
      .notNull()
      .default('visible'),
    commentsEnabled: boolean('comments_enabled').notNull().default(true),
    dominatrix: boolean('dominatrix').notNull().default(false),
    links: jsonb('links')
      .$type<{ messenger?: Record<string, string>; crypto?: Record<string, string>; social?: Record<string, string> }>()
      .notNull()
      .default({}),
    availability: jsonb('availability')
      .$type<Record<string, { from: string; until: string } | null>>()
      .notNull()
      .default({}),
    rates: jsonb('rates')
      .$type<{ incall?: Record<string, number | null>; outcall?: Record<string, number | null> }>()
      .notNull()
      .default({}),
    complete: boolean('complete').notNull().default(false),
    flagged: boolean('flagged').notNull().default(false),
    verificationStatus: text('verification_status', { enum: ['none', 'pending', 'verified', 'declined'] })
      .notNull()
      .default('none'),
    verifiedAt: ts('verified_at'),
    // Derived: complete AND visible AND not flagged AND account active. Kept by the profile service
    // so the directory query filters on one indexed column.
    listed: boolean('listed').notNull().default(false),
    views: integer('views').notNull().default(0),
    // Lower-cased, unaccented name, heading, city and services; maintained by the profile service
    // (unaccent() is not immutable, so it cannot sit in an index expression).
    searchText: text('search_text').notNull().default(''),
    avatarMediaId: integer('avatar_media_id'),
    // "Available now" (issue 27, docs/decisions/0320): until this moment; switched on for 1 to 8 hours from
    // the edit overview, ends by itself (the directory's versions hold the next end). Null: off.
    availableUntil: ts('available_until'),
    // The date of birth given at registration while she shows her age (docs/decisions/0321), else null:
    // the public sees the age computed from it, never the date; the age filter reads this column.
    shownBirthDate: date('shown_birth_date', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('profiles_screen_name_lower').on(sql`lower(${t.screenName})`),
    index('profiles_search_trgm').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // Admin search by phone, typed with or without spaces.
    index('profiles_phone_trgm').using('gin', sql`replace(${t.phone}, ' ', '') gin_trgm_ops`),
    // How many profiles are listed (the admin's overview and its hourly snapshot; docs/decisions/0757):
    // this index counted, not every profile's row read (0.4 s at 500,000).
    index('profiles_listed')
      .on(t.userId)
      .where(sql`${t.listed}`),
    // The next end of "available now" (the directory's versions) and the filters of issue 27, item 1.
    index('profiles_available_until')
      .on(t.availableUntil)
      .where(sql`${t.availableUntil} is not null`),
    index('profiles_shown_birth_date')
      .on(t.shownBirthDate)
      .where(sql`${t.shownBirthDate} is not null`),
    // The services and languages filters (docs/decisions/0324): a filter that few listed profiles pass reads
    // them from here instead of every profile (a country page at 50,000 profiles: 120 ms to 8.5 ms).
    index('profiles_services_gin')
      .using('gin', t.services)
      .where(sql`${t.listed}`),
    index('profiles_languages_gin')
      .using('gin', t.languages)
      .where(sql`${t.listed}`),
  ],
);

// Words of listed profiles' search text, for typo tolerance: a misspelt query word is matched to the
// nearest real words here (a small table), then searched exactly. Refreshed by a periodic task.
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
    profiles: integer('profiles').notNull(),
  },
  (t) => [index('search_words_trgm').using('gin', sql`${t.word} gin_trgm_ops`)],
);

/**
 * What listed profiles' text changes did to search_words since it was last folded (decision 0739): written
 * by triggers on profiles (migration 0022), one row per word and change, never updated (writers take no
 * lock on a busy word); foldSearchWords adds them into search_words and deletes them.
 */
export const searchWordsDelta = pgTable('search_words_delta', {
  word: text('word').notNull(),
  delta: integer('delta').notNull(),
});

/**
 * Search's postings (decision 0748): one row per word of a listed profile's home entry (search_words_of:
 * each word once, three characters or more) with her rank keys, kept by triggers on directory_entries
 * (migration 0026). A search reads the entries whose text holds a word from here, index-only, in
 * place of rechecking each matching entry's text in directory_entries' wide heap.
 */
export const searchPostings = pgTable(
  'search_postings',
  {
    word: text('word').notNull(),
    bumpedAt: ts('bumped_at').notNull(),
    listingId: integer('listing_id').notNull(),
    // Her home entry's in-call, out-call, verified, video and services as bits (search_facets, migration
    // 0028, decision 0752): a filtered search tests them in the postings' index (INCLUDEd there).
    facets: integer('facets').notNull().default(0),
  },
  (t) => [uniqueIndex('search_postings_key').on(t.word, t.bumpedAt.desc(), t.listingId)],
);

/**
 * Every word search_postings has held (decision 0748), found by its trigrams: the words a search's word is
 * part of. Written by the postings' triggers as a new word arrives (an existing one writes nothing, so
 * no writer waits on another's word); a fold that changed search_words prunes the words no posting holds.
 */
export const searchVocabulary = pgTable(
  'search_vocabulary',
  {
    word: text('word').primaryKey(),
  },
  (t) => [index('search_vocabulary_trgm').using('gin', sql`${t.word} gin_trgm_ops`)],
);

export const listings = pgTable(
  'listings',
  {
    id: serial('id').primaryKey(),
    profileId: integer('profile_id')
      .notNull()
      .references(() => profiles.userId, { onDelete: 'cascade' }),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id),
    // Denormalised from the city so a country page is one index range scan.
    countryCode: char('country_code', { length: 2 }).notNull(),
    kind: text('kind', { enum: ['home', 'additional'] }).notNull(),
    bumpedAt: ts('bumped_at').notNull().defaultNow(),
    tourFrom: date('tour_from', { mode: 'string' }),
    tourUntil: date('tour_until', { mode: 'string' }),
    // When the listing stops being shown: the end of its paid days, or of its tour's last day when that
    // comes first (decision 0403). null for a home listing.
    expiresAt: ts('expires_at'),
    // The end of the days paid for (an additional location): tour dates may move within it.
    paidUntil: ts('paid_until'),
    // The first moment of the tour (tour_from at midnight in the city's time zone): the card turns from
    // "visiting from" to "on tour" then, so it is a moment the directory cache's key knows of.
    tourStartsAt: ts('tour_starts_at'),
    // The profile's best-ranked active listing in this country: the one a country page shows, so a
    // profile at home and on tour in one country appears once. Kept by the listings service; when it
    // expires before the periodic task moves it, the page finds the next one itself (decision 0723).
    countryPrimary: boolean('country_primary').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index('listings_city_rank').on(t.cityId, t.bumpedAt.desc(), t.id),
    index('listings_country_rank')
      .on(t.countryCode, t.bumpedAt.desc(), t.id)
      .where(sql`${t.countryPrimary}`),
    index('listings_home_rank')
      .on(t.bumpedAt.desc(), t.id)
      .where(sql`${t.kind} = 'home'`),
    index('listings_profile').on(t.profileId, t.countryCode),
    // The next moment a listing expires: part of the directory cache's key (docs/decisions/0700).
    index('listings_expires')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
    // The next expiry in one country or city (part of that scope's version), and the expired listings
    // still present there (subtracted from its maintained count): docs/decisions/0730.
    index('listings_country_expires')
      .on(t.countryCode, t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
    index('listings_city_expires')
      .on(t.cityId, t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
    // The next tour start, anywhere, in one country or in one city: a moment a card turns from "visiting
    // from" to "on tour", part of the versions like the next expiry (docs/decisions/0403, 0730).
    index('listings_tour_starts')
      .on(t.tourStartsAt)
      .where(sql`${t.tourStartsAt} is not null`),
    index('listings_country_tour_starts')
      .on(t.countryCode, t.tourStartsAt)
      .where(sql`${t.tourStartsAt} is not null`),
    index('listings_city_tour_starts')
      .on(t.cityId, t.tourStartsAt)
      .where(sql`${t.tourStartsAt} is not null`),
  ],
);

export const media = pgTable(
  'media',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['avatar', 'gallery', 'video', 'portrait'] }).notNull(),
    // processing: a job is converting it (videos); pending: waits for an admin; failed: conversion failed.
    status: text('status', { enum: ['processing', 'pending', 'approved', 'rejected', 'failed'] })
      .notNull()
      .default('approved'),
    position: integer('position').notNull().default(0),
    // Key in the media store: the largest JPEG of a picture, the MP4 of a video (while processing, the
    // upload waiting in the private store).
    storageKey: text('storage_key').notNull(),
    // Variant name (`webp-640`, `jpeg-320`; a video's poster the same way) -> key in the media store.
    variants: jsonb('variants').$type<Record<string, string>>().notNull().default({}),
    mime: text('mime').notNull(),
    width: integer('width'),
    height: integer('height'),
    bytes: integer('bytes').notNull().default(0),
    // Tiny blurred preview as a data: URI, shown while the picture loads.
    placeholder: text('placeholder'),
    // 64-bit perceptual hash (media/picture-hash.ts) and its four 16-bit bands: two pictures within
    // Hamming distance 8 share a band within 2 bits, so a near-duplicate search is four index lookups;
    // each band's index carries the version, the hash and the id: index-only scans (0507).
    // Version 1 was sharp-phash; rows of an older version are re-hashed by a periodic task (0507).
    phash: bigint('phash', { mode: 'bigint' }),
    phashMirror: bigint('phash_mirror', { mode: 'bigint' }),
    phashVersion: smallint('phash_version').notNull().default(1),
    phashB0: integer('phash_b0'),
    phashB1: integer('phash_b1'),
    phashB2: integer('phash_b2'),
    phashB3: integer('phash_b3'),
    // Videos: conversion progress 0-100 and length in seconds.
    progress: smallint('progress').notNull().default(100),
    duration: doublePrecision('duration'),
    createdAt: createdAt(),
  },
  (t) => [
    index('media_user_type').on(t.userId, t.type, t.position),
    index('media_phash_b0').on(t.phashB0, t.phashVersion, t.phash, t.id),
    index('media_phash_b1').on(t.phashB1, t.phashVersion, t.phash, t.id),
    index('media_phash_b2').on(t.phashB2, t.phashVersion, t.phash, t.id),
    index('media_phash_b3').on(t.phashB3, t.phashVersion, t.phash, t.id),
    index('media_pending').on(t.type, t.status, t.createdAt),
    // The pictures still hashed with an older version (picturesOfOlderHash, every minute): a range of this
    // index, usually empty, rather than a walk of every picture (docs/decisions/0757).
    index('media_older_hash')
      .on(t.phashVersion, t.id)
      .where(sql`${t.phash} is not null and ${t.type} <> 'video'`),
  ],
);

export const verificationRequests = pgTable(
  'verification_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'verified', 'declined'] })
      .notNull()
      .default('pending'),
    // Key in the private store (never under a public URL); null once deleted.
    photoIdKey: text('photo_id_key'),
    declineReason: text('decline_reason'),
    decidedBy: integer('decided_by').references(() => accounts.id),
    decidedAt: ts('decided_at'),
    photoIdDeleteAfter: ts('photo_id_delete_after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('verification_status').on(t.status, t.createdAt),
    index('verification_user').on(t.userId, t.createdAt),
    index('verification_photo_id_expiry')
      .on(t.photoIdDeleteAfter)
      .where(sql`${t.photoIdKey} is not null`),
  ],
);

// ---------------------------------------------------------------- money
// Written only by the money module (docs/decisions/0401): entries are append-only (a trigger refuses
// UPDATE and DELETE), every change locks the ledger accounts it touches in ascending id order.

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: serial('id').primaryKey(),
    // user: an advertiser's credits; cash: money received from providers; revenue: credits spent;
    // adjustments: admin corrections. The system accounts are the counterpart of user credits and so carry
    // the opposite sign: the balances of all accounts always sum to zero.
    kind: text('kind', { enum: ['user', 'cash', 'revenue', 'adjustments'] }).notNull(),
    userId: integer('user_id').references(() => accounts.id),
    // Cached sum of the entries, updated in the same transaction as the entries.
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    // A held advertiser account (docs/decisions/0423): a reversal left it below zero, or a chargeback came.
    // No spending while held; only an admin releases it, and not while the balance is below zero.
    heldSince: ts('held_since'),
    holdReason: text('hold_reason', { enum: ['negative_balance', 'chargeback'] }),
  },
  (t) => [
    uniqueIndex('ledger_accounts_kind_user').on(t.kind, sql`coalesce(${t.userId}, 0)`),
    // Below zero only while held (and only a reversal takes it there: the trigger on ledger_entries).
    check('ledger_accounts_user_balance', sql`${t.kind} <> 'user' or ${t.balance} >= 0 or ${t.heldSince} is not null`),
    check('ledger_accounts_hold', sql`(${t.heldSince} is null) = (${t.holdReason} is null)`),
    index('ledger_accounts_held')
      .on(t.heldSince)
      .where(sql`${t.heldSince} is not null`),
    check('ledger_accounts_owner', sql`(${t.kind} = 'user') = (${t.userId} is not null)`),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // refund and chargeback reverse (part of) a load (docs/decisions/0423): user -> cash.
    kind: text('kind', { enum: ['load', 'purchase', 'adjustment', 'auto_topup', 'refund', 'chargeback'] }).notNull(),
    // What the transaction stands for, once: `order:<id>`, `payment:<id>`, `adjust:<actor>:<key>`.
    idempotencyKey: text('idempotency_key').notNull(),
    // The advertiser whose credits moved (every transaction so far touches exactly one user account).
    userId: integer('user_id').references(() => accounts.id),
    paymentId: integer('payment_id'),
    orderId: integer('order_id'),
    createdBy: integer('created_by').references(() => accounts.id),
    memo: text('memo'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_idempotency').on(t.idempotencyKey),
    index('ledger_transactions_user').on(t.userId, t.id),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    ledgerAccountId: integer('ledger_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    // Signed minor units; the entries of one transaction sum to zero.
    amount: bigint('amount', { mode: 'number' }).notNull(),
    // The account's balance once this entry is applied (written under the account's lock).
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_account').on(t.ledgerAccountId, t.id),
    uniqueIndex('ledger_entries_transaction_account').on(t.transactionId, t.ledgerAccountId),
    check('ledger_entries_nonzero', sql`${t.amount} <> 0`),
  ],
);

export const products = pgTable('products', {
  id: serial('id').primaryKey(),
  code: text('code', { enum: ['standard_topup', 'additional_location'] })
    .notNull()
    .unique(),
  name: text('name').notNull(),
  price: integer('price').notNull(),
  durationDays: integer('duration_days'),
  active: boolean('active').notNull().default(true),
});

export const cartItems = pgTable(
  'cart_items',
  {
    uid: text('uid').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    productCode: text('product_code').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('cart_items_user').on(t.userId)],
);

export type OrderItem = {
  uid: string;
  productCode: 'standard_topup' | 'additional_location';
  price: number;
  params: { cityId?: number; from?: string | null; until?: string | null; days?: number };
};

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id),
    total: integer('total').notNull(),
    items: jsonb('items').$type<OrderItem[]>().notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed'] }).notNull(),
    source: text('source', { enum: ['checkout', 'auto_topup'] })
      .notNull()
      .default('checkout'),
    idempotencyKey: text('idempotency_key').notNull(),
    // What was asked with this key (method, items, amount): the same key with another request is refused.
    requestHash: text('request_hash').notNull().default(''),
    paymentId: integer('payment_id'),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
  },
  (t) => [uniqueIndex('orders_idempotency').on(t.userId, t.idempotencyKey)],
);

export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id),
    method: text('method', { enum: ['card', 'crypto', 'bank'] }).notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    amount: integer('amount').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    status: text('status', { enum: ['pending', 'requires_action', 'succeeded', 'failed', 'expired'] }).notNull(),
    idempotencyKey: text('idempotency_key'),
    // The order this load pays for, when it came from a cart.
    orderId: integer('order_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    settledAt: ts('settled_at'),
  },
  (t) => [
    uniqueIndex('payments_idempotency').on(t.userId, t.idempotencyKey),
    uniqueIndex('payments_provider_ref').on(t.provider, t.providerRef),
    index('payments_open')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('pending', 'requires_action')`),
  ],
);

// Every provider event (webhook) handled, once: a redelivery finds its id here and changes nothing.
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    paymentId: integer('payment_id'),
    outcome: text('outcome').notNull(),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [uniqueIndex('payment_events_provider_event').on(t.provider, t.eventId)],
);

// A provider's signed notification naming a payment we do not have (decisions 0420, 0423): kept here for an
// admin, not in payment_events, so the same event naming the right payment later is still applied. Listed
// until payment_events holds its (provider, event id); a redelivery of it counts up `deliveries`.
export const unmatchedNotifications = pgTable(
  'unmatched_notifications',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    // What it named: our reference (`pay_<id>`) and/or the provider's id of the sale, charge or invoice.
    reference: text('reference').notNull(),
    amount: integer('amount'),
    deliveries: integer('deliveries').notNull().default(1),
    receivedAt: ts('received_at').notNull(),
    lastReceivedAt: ts('last_received_at').notNull(),
  },
  (t) => [
    uniqueIndex('unmatched_notifications_event').on(t.provider, t.eventId, t.reference),
    index('unmatched_notifications_last').on(t.lastReceivedAt),
  ],
);

// A refund asked of a provider's API (docs/decisions/0423): written with its key and amount in the
// transaction that reads what is refundable, before the provider is called, so what is refunded meanwhile
// (a chargeback, another refund) sees it. Booked under the same ledger key when the provider made it,
// cancelled when it refused; while pending (the outcome unknown) it counts as refunded, and a retry with
// its key (the admin's, or the minute's settlement) resolves it.
export const refundIntents = pgTable(
  'refund_intents',
  {
    id: serial('id').primaryKey(),
    // The ledger key it is booked under, `refund:<provider>:<payment>-<admin key>`; the provider's key is
    // `<payment>-<admin key>`.
    key: text('key').notNull(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id),
    provider: text('provider').notNull(),
    amount: integer('amount').notNull(),
    status: text('status', { enum: ['pending', 'booked', 'cancelled'] }).notNull(),
    actorId: integer('actor_id').references(() => accounts.id),
    reason: text('reason').notNull(),
    // The provider's id of the refund, and where the buyer claims it (BTCPay's pull payment).
    providerRefundId: text('provider_refund_id'),
    claimUrl: text('claim_url'),
    createdAt: createdAt(),
    // When the provider was last asked: the minute's settlement retries a pending one only some time after.
    attemptedAt: ts('attempted_at').notNull(),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    uniqueIndex('refund_intents_key').on(t.key),
    index('refund_intents_payment').on(t.paymentId),
    index('refund_intents_pending')
      .on(t.attemptedAt)
      .where(sql`${t.status} = 'pending'`),
    check('refund_intents_amount', sql`${t.amount} > 0`),
  ],
);

// A load reversed beyond its amount (docs/decisions/0423): refunds and chargebacks that together took more
// than it credited, each booked because the money left through the provider. The reversal that went beyond
// carries the excess here; the advertiser is charged it (her account held) and an admin sees it beside the
// held account until the hold is released.
export const reversalFlags = pgTable(
  'reversal_flags',
  {
    id: serial('id').primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id),
    excess: integer('excess').notNull(),
    createdAt: createdAt(),
    resolvedAt: ts('resolved_at'),
    resolvedBy: integer('resolved_by').references(() => accounts.id),
  },
  (t) => [
    uniqueIndex('reversal_flags_transaction').on(t.transactionId),
    index('reversal_flags_open')
      .on(t.userId)
      .where(sql`${t.resolvedAt} is null`),
    check('reversal_flags_excess', sql`${t.excess} > 0`),
  ],
);

export const autoTopupTimers = pgTable(
  'auto_topup_timers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    // ISO weekdays 1 (Monday) .. 7 (Sunday).
    weekdays: smallint('weekdays').array().notNull(),
    localTime: text('local_time').notNull(),
    weeklyBudget: integer('weekly_budget'),
    enabled: boolean('enabled').notNull().default(true),
    // Slots before this instant are not this timer's (set on creation and on every change).
    activeFrom: ts('active_from').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('auto_topup_timers_user').on(t.userId)],
);

export const autoTopupRuns = pgTable(
  'auto_topup_runs',
  {
    id: serial('id').primaryKey(),
    timerId: integer('timer_id')
      .notNull()
      .references(() => autoTopupTimers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    slotAt: ts('slot_at').notNull(),
    status: text('status', { enum: ['succeeded', 'failed', 'missed', 'skipped_budget'] }).notNull(),
    reason: text('reason'),
    amount: integer('amount').notNull().default(0),
    orderId: integer('order_id'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  // Exactly once per slot, however many workers race for it.
  (t) => [uniqueIndex('auto_topup_runs_slot').on(t.timerId, t.slotAt), index('auto_topup_runs_user').on(t.userId)],
);

// ---------------------------------------------------------------- sandbox payment provider
// The built-in test acquirer and crypto processor (docs/decisions/0400). They stand for third parties:
// only src/server/modules/sandbox-acquirer reads or writes these tables, and they never hold a card
// number (the tokenizer keeps the last four digits and the test behaviour of the card).

export const sandboxCardTokens = pgTable('sandbox_card_tokens', {
  id: text('id').primaryKey(),
  last4: char('last4', { length: 4 }).notNull(),
  brand: text('brand').notNull(),
  expMonth: smallint('exp_month').notNull(),
  expYear: smallint('exp_year').notNull(),
  behaviour: text('behaviour', { enum: ['succeed', 'decline', 'challenge'] }).notNull(),
  createdAt: createdAt(),
});

export const sandboxCharges = pgTable('sandbox_charges', {
  id: text('id').primaryKey(),
  // The merchant's key: a retried charge with the same key answers the first charge.
  idempotencyKey: text('idempotency_key').notNull().unique(),
  tokenId: text('token_id').notNull(),
  amount: integer('amount').notNull(),
  currency: char('currency', { length: 3 }).notNull(),
  status: text('status', { enum: ['succeeded', 'requires_action', 'failed'] }).notNull(),
  failureCode: text('failure_code'),
  returnUrl: text('return_url'),
  // Paid on the sandbox's own payment page (docs/decisions/0421): the merchant learns the outcome only from
  // its signed notification, sent at notified_at; a test can hold it back (notification_held).
  hosted: boolean('hosted').notNull().default(false),
  notificationHeld: boolean('notification_held').notNull().default(false),
  notifiedAt: ts('notified_at'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// A refund the merchant asked of the sandbox (its refund API): once per merchant key, never above what the
// charge or invoice took in all.
export const sandboxRefunds = pgTable('sandbox_refunds', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  // The charge (`ch_...`) or invoice (`inv_...`) refunded.
  paymentRef: text('payment_ref').notNull(),
  amount: integer('amount').notNull(),
  createdAt: createdAt(),
});

export const sandboxInvoices = pgTable('sandbox_invoices', {
  id: text('id').primaryKey(),
  // The merchant's order id: creating the invoice twice for one order answers the first invoice.
  orderId: text('order_id').notNull().unique(),
  amount: integer('amount').notNull(),
  currency: char('currency', { length: 3 }).notNull(),
  address: text('address').notNull(),
  cryptoAmount: text('crypto_amount').notNull(),
  status: text('status', { enum: ['new', 'settled', 'expired'] }).notNull(),
  expiresAt: ts('expires_at').notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- jobs, community, stats, audit

export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    runAt: ts('run_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    attempts: integer('attempts').notNull().default(0),
    status: text('status', { enum: ['queued', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_due').on(t.status, t.runAt)],
);

/** When each periodic task last started, on the database's clock: one run per period across instances (0005). */
export const periodicRuns = pgTable('periodic_runs', {
  name: text('name').primaryKey(),
  startedAt: ts('started_at').notNull(),
});

export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    profileId: integer('profile_id')
      .notNull()
      .references(() => profiles.userId, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('comments_profile').on(t.profileId, t.createdAt)],
);

export const feedback = pgTable(
  'feedback',
  {
    id: serial('id').primaryKey(),
    profileId: integer('profile_id').references(() => profiles.userId, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    message: text('message'),
    contact: text('contact'),
    // Higher first in the admin queue: safeguarding reasons get the top priority.
    priority: smallint('priority').notNull().default(0),
    status: text('status', { enum: ['open', 'resolved'] })
      .notNull()
      .default('open'),
    reporterHash: text('reporter_hash'),
    createdAt: createdAt(),
    // The admin's resolution (docs/decisions/0502): what was done about it and why.
    resolvedAt: ts('resolved_at'),
    resolvedBy: integer('resolved_by'),
    resolutionAction: text('resolution_action', { enum: ['none', 'hide', 'flag', 'warn'] }),
    resolutionNote: text('resolution_note'),
  },
  (t) => [
    index('feedback_queue').on(t.status, t.priority.desc(), t.createdAt),
    index('feedback_profile').on(t.profileId, t.status),
  ],
);

export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    // Keys of the `messages` catalogue, translated when read (in the reader's language of that moment).
    title: text('title').notNull(),
    message: text('message').notNull(),
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    path: text('path'),
    readAt: ts('read_at'),
    createdAt: createdAt(),
  },
  (t) => [index('notices_user').on(t.userId, t.createdAt)],
);

// Append-only (a trigger refuses UPDATE and DELETE, docs/decisions/0500). The actor is a plain id, not a
// foreign key: the line stays true after the admin's account is gone.
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id'),
    action: text('action').notNull(),
    targetUserId: integer('target_user_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    // The state the action changed, as it was and as it became (null where nothing had a state).
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_target').on(t.targetUserId, t.createdAt),
    index('audit_log_created').on(t.createdAt.desc(), t.id.desc()),
    index('audit_log_action').on(t.action, t.createdAt.desc()),
    index('audit_log_actor').on(t.actorId, t.createdAt.desc()),
  ],
);

// Pictures of two different accounts whose perceptual hashes are near (possible stolen photo or
// impersonation), found by the duplicate scan (admin module) and reviewed by an admin.
export const duplicateMatches = pgTable(
  'duplicate_matches',
  {
    id: serial('id').primaryKey(),
    // The newer picture and the older one it resembles.
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    otherMediaId: integer('other_media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    otherUserId: integer('other_user_id').notNull(),
    distance: smallint('distance').notNull(),
    status: text('status', { enum: ['open', 'dismissed'] })
      .notNull()
      .default('open'),
    decidedBy: integer('decided_by'),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('duplicate_matches_pair').on(t.mediaId, t.otherMediaId),
    index('duplicate_matches_queue').on(t.status, t.createdAt),
    index('duplicate_matches_other').on(t.otherMediaId),
  ],
);

// Daily values of counts that have no history of their own (listed profiles, pending videos, active
// timers), written by a periodic task so the admin overview can chart them.
export const metricSnapshots = pgTable(
  'metric_snapshots',
  {
    day: date('day', { mode: 'string' }).notNull(),
    metric: text('metric').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.metric, t.day] })],
);

export const profileStatsDaily = pgTable(
  'profile_stats_daily',
  {
    profileId: integer('profile_id')
      .notNull()
      .references(() => profiles.userId, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    impressions: integer('impressions').notNull().default(0),
    views: integer('views').notNull().default(0),
    phoneReveals: integer('phone_reveals').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.day] })],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

// The directory's version (docs/decisions/0700): one row, bumped by the database itself (triggers of
// migration 0006) whenever a table the public answers read changes, so that a cached answer is keyed by
// it and no writer can forget to invalidate one.
export const directoryVersion = pgTable(
  'directory_version',
  {
    id: boolean('id').primaryKey().default(true),
    v: bigint('v', { mode: 'number' }).notNull().default(1),
    // Random per database: keys of one database never meet another's in a shared Redis.
    dbToken: text('db_token')
      .notNull()
      .default(sql`md5(random()::text || clock_timestamp()::text)`),
  },
  (t) => [check('directory_version_one_row', sql`${t.id}`)],
);

// Versions per scope of the directory (docs/decisions/0730), written only by the database's own triggers
// (migration 0010): `all` (countries, cities, their names), `g` (anything a search, nearby or the feed
// can show), `p:<profile>`, `c:<country>:<category>`, `y:<country>:<city>:<category>`, `n:<country>`
// (that country's counts), `n:*` (any count). `v` is the directory_version counter of the last commit
// that changed the scope.
export const directoryScopes = pgTable('directory_scopes', {
  scope: text('scope').primaryKey(),
  v: bigint('v', { mode: 'number' }).notNull(),
});

// How many listed profiles each country page (city_id 0: profiles by their country_primary listing) and
// how many listings each city page lists per category, expired listings included (the reader subtracts
// those still present): kept by the same triggers, in the writing transaction (docs/decisions/0730).
export const directoryCounts = pgTable(
  'directory_counts',
  {
    countryCode: char('country_code', { length: 2 }).notNull(),
    cityId: integer('city_id').notNull(),
    category: text('category').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.countryCode, t.cityId, t.category] }),
    index('directory_counts_by_category').on(t.category, t.cityId),
  ],
);

// The listings the directory's counts and lists are made of: one row per listing of a listed profile, with
// the categories its profile is in, the listing's rank keys and the facts a visitor's filters read.
// Rewritten from listings, profiles and media by the triggers (the view directory_facts says what each
// row holds); its own changes are the counts' changes (docs/decisions/0730). A list's page and its count
// walk this narrow table on its own rank indexes and never read a profile (decision 0734).
export const directoryEntries = pgTable(
  'directory_entries',
  {
    listingId: integer('listing_id')
      .primaryKey()
      .references(() => listings.id, { onDelete: 'cascade' }),
    profileId: integer('profile_id').notNull(),
    countryCode: char('country_code', { length: 2 }).notNull(),
    cityId: integer('city_id').notNull(),
    isPrimary: boolean('is_primary').notNull(),
    cats: text('cats').array().notNull(),
    // The listing's: its kind, rank keys (RANKING_ORDER: bumped_at, then listing_id) and expiry.
    kind: text('kind', { enum: ['home', 'additional'] })
      .notNull()
      .default('home'),
    bumpedAt: ts('bumped_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    // The profile's, as the filters read them (docs/decisions/0324): the age she shows, the price a price
    // filter reads (in-call 60 minutes, or out-call when she only visits) in her currency, whether she
    // offers in-call and out-call, her services and languages, verified, an approved video, available until.
    shownBirthDate: date('shown_birth_date', { mode: 'string' }),
    currency: char('currency', { length: 3 }),
    price: numeric('price'),
    incall: boolean('incall').notNull().default(false),
    outcall: boolean('outcall').notNull().default(false),
    services: text('services')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    languages: text('languages')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    verified: boolean('verified').notNull().default(false),
    video: boolean('video').notNull().default(false),
    availableUntil: ts('available_until'),
    // The profile's search text (decision 0737): a search reads it here, beside her rank and facts.
    searchText: text('search_text').notNull().default(''),
  },
  // The two rank indexes also INCLUDE every fact a list tests (migration 0020: drizzle has no word for
  // INCLUDE), so a page and its count are index-only scans; the city one the profile too, for the nearby
  // walk (migration 0023).
  (t) => [
    index('directory_entries_profile').on(t.profileId),
    index('directory_entries_city_rank').on(t.cityId, t.bumpedAt.desc(), t.listingId),
    index('directory_entries_country_rank')
      .on(t.countryCode, t.bumpedAt.desc(), t.listingId)
      .where(sql`${t.isPrimary}`),
    // Search (decision 0737): the home entries' text by trigrams, and their ranking order.
    index('directory_entries_search_trgm')
      .using('gin', sql`${t.searchText} gin_trgm_ops`)
      .where(sql`${t.kind} = 'home'`),
    index('directory_entries_home_rank')
      .on(t.bumpedAt.desc(), t.listingId)
      .where(sql`${t.kind} = 'home'`),
  ],
);

// A writing transaction's scopes and count changes until its commit folds them into directory_scopes and
// directory_counts (under the directory_version row's lock, so in one order: no deadlock).
export const directoryPending = pgTable(
  'directory_pending',
  {
    xid: bigint('xid', { mode: 'number' }).notNull(),
    scope: text('scope').notNull(),
    countryCode: char('country_code', { length: 2 }),
    cityId: integer('city_id'),
    category: text('category'),
    d: integer('d').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.xid, t.scope] })],
);
