// Generated from GET /v1/openapi.json by openapi-typescript: do not edit by hand.
// Regenerate with `npm run gen:client`; test/integration/typed-client.test.ts fails on drift.
export interface paths {
  '/v1/opportunities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A page of canonical opportunities (keyset pagination, signed cursor).
     * @description Newest first. Each opportunity delivered to the account for the first time in the period consumes one unit of allowance (then prepaid credit); repeats are free. unseen_only=true returns only records not yet delivered this period (each one new, so each consumed); max_new=N caps the new records of one page without skipping any (the page stops before the (N+1)-th new one, next_cursor continues right after it). The cheap path for an agent: count with include=new_count (free) to see how many are new and what they would cost, then list with unseen_only=true and max_new. Send a held ETag in If-None-Match: 304 (nothing consumed, no request id spent) when the page is unchanged and every record on it was already delivered.
     */
    get: operations['listOpportunities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/opportunities/count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The number of matching opportunities; consumes no allowance.
     * @description Free, facets and new_count included. group_by (one or two dimensions) and group_limit add groups and other_count at each level, exact: a bucket counts what the same filters plus that value count. include=new_count adds new_count (matching records not yet delivered to this account this period) and new_cost_millicents (what listing them all would take from the prepaid wallet after the remaining included allowance), exact whatever the number of deliveries. Dashboards: histogram=published|first_seen with interval=day|week|month adds histogram (HistogramBucket: matching records per UTC bucket, weeks from Monday, ascending, empty buckets included, at most 400); stats=rate adds rate_stats (RateStatistics per rate unit and currency: count, min and max exact, p25, median and p75 within 5 %). Both combine with every filter, with each other and with group_by, and are free. If-None-Match with the ETag of an earlier answer: 304 when the count envelope is unchanged.
     */
    get: operations['countOpportunities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/opportunities/changes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change feed to keep an integration current: changes in indexing order, each record once at its latest state, tombstones for removed records, a cursor to poll from. Metered like list (new records consume, repeats and tombstones are free).
     * @description Acceptable use: the data is for internal tools, developer tools, workflow automation, personal projects, applications, job-search tools, job boards and related products. Plan access does not authorize systematic reconstruction of the dataset, a competing mirror, bulk republication or resale of substantially equivalent raw data, an equivalent proxy API or feed, or bypassing access controls. The feed keeps an integration current; it is not a way to rebuild or republish the dataset.
     *
     *     since=ISO (or YYYY-MM-DD): the first call returns the changes whose changed_at is at or after it (a tombstone is timed by its deletion), and from its cursor on every later change comes, whatever its changed_at; neither since nor cursor: the whole store from the start. pagination.next_cursor is never null: keep it and poll from it later (it carries since and is bound to the account); has_more says whether more changes exist now. A record removed from the store (admin CLI `delete ID`, or an import line {"id": "...", "deleted": true}) appears once as a tombstone { id, deleted: true, changed_at }. Records are metered like list (new ones consume, repeats are free, the call spends its request id); tombstones are free. Not exposed over MCP.
     */
    get: operations['listOpportunityChanges'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/opportunities/{opportunity_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One canonical opportunity, whatever its liveness. */
    get: operations['getOpportunity'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The account's usage: the usage headers in one body. Free; spends no request id; counts against the rate limit. */
    get: operations['getUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/taxonomy/occupations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The versioned occupational taxonomy; no key needed; cacheable (ETag). */
    get: operations['getOccupationTaxonomy'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/preview/opportunities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Anonymous preview: at most five live opportunities, no pagination. */
    get: operations['previewOpportunities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This document. */
    get: operations['getOpenApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Opportunity: {
      /** Format: uuid */
      id: string;
      title: string;
      normalized_title: string;
      employer: string | null;
      intermediary: string | null;
      organizations: {
        name: string;
        /** @enum {string} */
        role: 'employer' | 'intermediary' | 'client' | 'unknown';
      }[];
      canonical_url: string | null;
      application_url: string | null;
      sources: {
        source: string;
        external_id: string | null;
        url: string | null;
        /** Format: date-time */
        observed_at: string;
      }[];
      published_at: string | null;
      /** @enum {string} */
      published_precision: 'second' | 'day' | 'month' | 'unknown';
      /** Format: date-time */
      first_seen: string;
      /** Format: date-time */
      changed_at: string;
      last_verified_live_at: string | null;
      /** @enum {string} */
      liveness_status: 'live' | 'unknown' | 'blocked' | 'dead';
      /** @enum {string} */
      technology_classification:
        'core_technology' | 'technology_adjacent' | 'non_technology' | 'unknown';
      job_domain: string | null;
      job_family: string | null;
      job_subfamily: string | null;
      job_class: string | null;
      /** @enum {string} */
      level:
        | 'intern'
        | 'junior'
        | 'mid'
        | 'senior'
        | 'lead'
        | 'staff'
        | 'principal'
        | 'director'
        | 'executive'
        | 'unknown';
      /** @enum {string} */
      management_track: 'individual_contributor' | 'people_manager' | 'unknown';
      specializations: string[];
      engagement_models: ('1099' | 'w2_contract' | 'c2c')[];
      /** @enum {string} */
      commercial_eligibility: 'eligible' | 'ineligible' | 'research_required' | 'unknown';
      /** @enum {string} */
      actionability: 'actionable' | 'not_actionable' | 'unknown';
      location: {
        text: string | null;
        city: string | null;
        region: string | null;
        region_code: string | null;
        country:
          | (
              | 'AD'
              | 'AE'
              | 'AF'
              | 'AG'
              | 'AI'
              | 'AL'
              | 'AM'
              | 'AO'
              | 'AQ'
              | 'AR'
              | 'AS'
              | 'AT'
              | 'AU'
              | 'AW'
              | 'AX'
              | 'AZ'
              | 'BA'
              | 'BB'
              | 'BD'
              | 'BE'
              | 'BF'
              | 'BG'
              | 'BH'
              | 'BI'
              | 'BJ'
              | 'BL'
              | 'BM'
              | 'BN'
              | 'BO'
              | 'BQ'
              | 'BR'
              | 'BS'
              | 'BT'
              | 'BV'
              | 'BW'
              | 'BY'
              | 'BZ'
              | 'CA'
              | 'CC'
              | 'CD'
              | 'CF'
              | 'CG'
              | 'CH'
              | 'CI'
              | 'CK'
              | 'CL'
              | 'CM'
              | 'CN'
              | 'CO'
              | 'CR'
              | 'CU'
              | 'CV'
              | 'CW'
              | 'CX'
              | 'CY'
              | 'CZ'
              | 'DE'
              | 'DJ'
              | 'DK'
              | 'DM'
              | 'DO'
              | 'DZ'
              | 'EC'
              | 'EE'
              | 'EG'
              | 'EH'
              | 'ER'
              | 'ES'
              | 'ET'
              | 'FI'
              | 'FJ'
              | 'FK'
              | 'FM'
              | 'FO'
              | 'FR'
              | 'GA'
              | 'GB'
              | 'GD'
              | 'GE'
              | 'GF'
              | 'GG'
              | 'GH'
              | 'GI'
              | 'GL'
              | 'GM'
              | 'GN'
              | 'GP'
              | 'GQ'
              | 'GR'
              | 'GS'
              | 'GT'
              | 'GU'
              | 'GW'
              | 'GY'
              | 'HK'
              | 'HM'
              | 'HN'
              | 'HR'
              | 'HT'
              | 'HU'
              | 'ID'
              | 'IE'
              | 'IL'
              | 'IM'
              | 'IN'
              | 'IO'
              | 'IQ'
              | 'IR'
              | 'IS'
              | 'IT'
              | 'JE'
              | 'JM'
              | 'JO'
              | 'JP'
              | 'KE'
              | 'KG'
              | 'KH'
              | 'KI'
              | 'KM'
              | 'KN'
              | 'KP'
              | 'KR'
              | 'KW'
              | 'KY'
              | 'KZ'
              | 'LA'
              | 'LB'
              | 'LC'
              | 'LI'
              | 'LK'
              | 'LR'
              | 'LS'
              | 'LT'
              | 'LU'
              | 'LV'
              | 'LY'
              | 'MA'
              | 'MC'
              | 'MD'
              | 'ME'
              | 'MF'
              | 'MG'
              | 'MH'
              | 'MK'
              | 'ML'
              | 'MM'
              | 'MN'
              | 'MO'
              | 'MP'
              | 'MQ'
              | 'MR'
              | 'MS'
              | 'MT'
              | 'MU'
              | 'MV'
              | 'MW'
              | 'MX'
              | 'MY'
              | 'MZ'
              | 'NA'
              | 'NC'
              | 'NE'
              | 'NF'
              | 'NG'
              | 'NI'
              | 'NL'
              | 'NO'
              | 'NP'
              | 'NR'
              | 'NU'
              | 'NZ'
              | 'OM'
              | 'PA'
              | 'PE'
              | 'PF'
              | 'PG'
              | 'PH'
              | 'PK'
              | 'PL'
              | 'PM'
              | 'PN'
              | 'PR'
              | 'PS'
              | 'PT'
              | 'PW'
              | 'PY'
              | 'QA'
              | 'RE'
              | 'RO'
              | 'RS'
              | 'RU'
              | 'RW'
              | 'SA'
              | 'SB'
              | 'SC'
              | 'SD'
              | 'SE'
              | 'SG'
              | 'SH'
              | 'SI'
              | 'SJ'
              | 'SK'
              | 'SL'
              | 'SM'
              | 'SN'
              | 'SO'
              | 'SR'
              | 'SS'
              | 'ST'
              | 'SV'
              | 'SX'
              | 'SY'
              | 'SZ'
              | 'TC'
              | 'TD'
              | 'TF'
              | 'TG'
              | 'TH'
              | 'TJ'
              | 'TK'
              | 'TL'
              | 'TM'
              | 'TN'
              | 'TO'
              | 'TR'
              | 'TT'
              | 'TV'
              | 'TW'
              | 'TZ'
              | 'UA'
              | 'UG'
              | 'UM'
              | 'US'
              | 'UY'
              | 'UZ'
              | 'VA'
              | 'VC'
              | 'VE'
              | 'VG'
              | 'VI'
              | 'VN'
              | 'VU'
              | 'WF'
              | 'WS'
              | 'YE'
              | 'YT'
              | 'ZA'
              | 'ZM'
              | 'ZW'
            )
          | null;
        remote: boolean | null;
        /** @enum {string} */
        remote_scope: 'worldwide' | 'country' | 'region' | 'unknown';
      };
      rate: {
        min: number | null;
        max: number | null;
        currency: string;
        /** @enum {string} */
        unit: 'hour' | 'day' | 'month' | 'year' | 'project';
      } | null;
      is_low_pay: boolean;
      /** @enum {string} */
      pay_basis: 'hourly' | 'daily' | 'monthly' | 'annual' | 'fixed_project' | 'unknown';
      /** @enum {string} */
      work_structure:
        'fixed_project' | 'ongoing_contract' | 'contract_duration' | 'freelance_ad_hoc' | 'unknown';
      duration: {
        months_min: number | null;
        months_max: number | null;
        text: string | null;
      } | null;
      evidence: {
        field: string;
        value: string | number | boolean | null;
        /** @enum {string} */
        strength: 'explicit' | 'strong_inference' | 'weak_inference';
        excerpt: string;
        source: string | null;
      }[];
    };
    /** @description A record returned with `fields`: id plus the named top-level fields only, each as in Opportunity. */
    SparseOpportunity: {
      /** Format: uuid */
      id: string;
    } & {
      [key: string]: unknown;
    };
    PreviewOpportunity: {
      /** Format: uuid */
      id: string;
      title: string;
      normalized_title: string;
      employer: string | null;
      intermediary: string | null;
      organizations: {
        name: string;
        /** @enum {string} */
        role: 'employer' | 'intermediary' | 'client' | 'unknown';
      }[];
      canonical_url: null;
      application_url: null;
      sources: {
        source: string;
      }[];
      published_at: string | null;
      /** @enum {string} */
      published_precision: 'second' | 'day' | 'month' | 'unknown';
      /** Format: date-time */
      first_seen: string;
      /** Format: date-time */
      changed_at: string;
      last_verified_live_at: string | null;
      /** @enum {string} */
      liveness_status: 'live' | 'unknown' | 'blocked' | 'dead';
      /** @enum {string} */
      technology_classification:
        'core_technology' | 'technology_adjacent' | 'non_technology' | 'unknown';
      job_domain: string | null;
      job_family: string | null;
      job_subfamily: string | null;
      job_class: string | null;
      /** @enum {string} */
      level:
        | 'intern'
        | 'junior'
        | 'mid'
        | 'senior'
        | 'lead'
        | 'staff'
        | 'principal'
        | 'director'
        | 'executive'
        | 'unknown';
      /** @enum {string} */
      management_track: 'individual_contributor' | 'people_manager' | 'unknown';
      specializations: string[];
      engagement_models: ('1099' | 'w2_contract' | 'c2c')[];
      /** @enum {string} */
      commercial_eligibility: 'eligible' | 'ineligible' | 'research_required' | 'unknown';
      /** @enum {string} */
      actionability: 'actionable' | 'not_actionable' | 'unknown';
      location: {
        text: string | null;
        city: string | null;
        region: string | null;
        region_code: string | null;
        country:
          | (
              | 'AD'
              | 'AE'
              | 'AF'
              | 'AG'
              | 'AI'
              | 'AL'
              | 'AM'
              | 'AO'
              | 'AQ'
              | 'AR'
              | 'AS'
              | 'AT'
              | 'AU'
              | 'AW'
              | 'AX'
              | 'AZ'
              | 'BA'
              | 'BB'
              | 'BD'
              | 'BE'
              | 'BF'
              | 'BG'
              | 'BH'
              | 'BI'
              | 'BJ'
              | 'BL'
              | 'BM'
              | 'BN'
              | 'BO'
              | 'BQ'
              | 'BR'
              | 'BS'
              | 'BT'
              | 'BV'
              | 'BW'
              | 'BY'
              | 'BZ'
              | 'CA'
              | 'CC'
              | 'CD'
              | 'CF'
              | 'CG'
              | 'CH'
              | 'CI'
              | 'CK'
              | 'CL'
              | 'CM'
              | 'CN'
              | 'CO'
              | 'CR'
              | 'CU'
              | 'CV'
              | 'CW'
              | 'CX'
              | 'CY'
              | 'CZ'
              | 'DE'
              | 'DJ'
              | 'DK'
              | 'DM'
              | 'DO'
              | 'DZ'
              | 'EC'
              | 'EE'
              | 'EG'
              | 'EH'
              | 'ER'
              | 'ES'
              | 'ET'
              | 'FI'
              | 'FJ'
              | 'FK'
              | 'FM'
              | 'FO'
              | 'FR'
              | 'GA'
              | 'GB'
              | 'GD'
              | 'GE'
              | 'GF'
              | 'GG'
              | 'GH'
              | 'GI'
              | 'GL'
              | 'GM'
              | 'GN'
              | 'GP'
              | 'GQ'
              | 'GR'
              | 'GS'
              | 'GT'
              | 'GU'
              | 'GW'
              | 'GY'
              | 'HK'
              | 'HM'
              | 'HN'
              | 'HR'
              | 'HT'
              | 'HU'
              | 'ID'
              | 'IE'
              | 'IL'
              | 'IM'
              | 'IN'
              | 'IO'
              | 'IQ'
              | 'IR'
              | 'IS'
              | 'IT'
              | 'JE'
              | 'JM'
              | 'JO'
              | 'JP'
              | 'KE'
              | 'KG'
              | 'KH'
              | 'KI'
              | 'KM'
              | 'KN'
              | 'KP'
              | 'KR'
              | 'KW'
              | 'KY'
              | 'KZ'
              | 'LA'
              | 'LB'
              | 'LC'
              | 'LI'
              | 'LK'
              | 'LR'
              | 'LS'
              | 'LT'
              | 'LU'
              | 'LV'
              | 'LY'
              | 'MA'
              | 'MC'
              | 'MD'
              | 'ME'
              | 'MF'
              | 'MG'
              | 'MH'
              | 'MK'
              | 'ML'
              | 'MM'
              | 'MN'
              | 'MO'
              | 'MP'
              | 'MQ'
              | 'MR'
              | 'MS'
              | 'MT'
              | 'MU'
              | 'MV'
              | 'MW'
              | 'MX'
              | 'MY'
              | 'MZ'
              | 'NA'
              | 'NC'
              | 'NE'
              | 'NF'
              | 'NG'
              | 'NI'
              | 'NL'
              | 'NO'
              | 'NP'
              | 'NR'
              | 'NU'
              | 'NZ'
              | 'OM'
              | 'PA'
              | 'PE'
              | 'PF'
              | 'PG'
              | 'PH'
              | 'PK'
              | 'PL'
              | 'PM'
              | 'PN'
              | 'PR'
              | 'PS'
              | 'PT'
              | 'PW'
              | 'PY'
              | 'QA'
              | 'RE'
              | 'RO'
              | 'RS'
              | 'RU'
              | 'RW'
              | 'SA'
              | 'SB'
              | 'SC'
              | 'SD'
              | 'SE'
              | 'SG'
              | 'SH'
              | 'SI'
              | 'SJ'
              | 'SK'
              | 'SL'
              | 'SM'
              | 'SN'
              | 'SO'
              | 'SR'
              | 'SS'
              | 'ST'
              | 'SV'
              | 'SX'
              | 'SY'
              | 'SZ'
              | 'TC'
              | 'TD'
              | 'TF'
              | 'TG'
              | 'TH'
              | 'TJ'
              | 'TK'
              | 'TL'
              | 'TM'
              | 'TN'
              | 'TO'
              | 'TR'
              | 'TT'
              | 'TV'
              | 'TW'
              | 'TZ'
              | 'UA'
              | 'UG'
              | 'UM'
              | 'US'
              | 'UY'
              | 'UZ'
              | 'VA'
              | 'VC'
              | 'VE'
              | 'VG'
              | 'VI'
              | 'VN'
              | 'VU'
              | 'WF'
              | 'WS'
              | 'YE'
              | 'YT'
              | 'ZA'
              | 'ZM'
              | 'ZW'
            )
          | null;
        remote: boolean | null;
        /** @enum {string} */
        remote_scope: 'worldwide' | 'country' | 'region' | 'unknown';
      };
      rate: {
        min: number | null;
        max: number | null;
        currency: string;
        /** @enum {string} */
        unit: 'hour' | 'day' | 'month' | 'year' | 'project';
      } | null;
      is_low_pay: boolean;
      /** @enum {string} */
      pay_basis: 'hourly' | 'daily' | 'monthly' | 'annual' | 'fixed_project' | 'unknown';
      /** @enum {string} */
      work_structure:
        'fixed_project' | 'ongoing_contract' | 'contract_duration' | 'freelance_ad_hoc' | 'unknown';
      duration: {
        months_min: number | null;
        months_max: number | null;
        text: string | null;
      } | null;
      evidence: {
        field: string;
        value: string | number | boolean | null;
        /** @enum {string} */
        strength: 'explicit' | 'strong_inference' | 'weak_inference';
        excerpt: string;
        source: string | null;
      }[];
    };
    ListEnvelope: {
      data: (components['schemas']['Opportunity'] | components['schemas']['SparseOpportunity'])[];
      pagination: {
        returned: number;
        /** @description Opaque signed cursor for the next page, bound to these filters; null on the last page. */
        next_cursor: string | null;
        /** @description True exactly when next_cursor is not null. */
        has_more: boolean;
        limit: number;
      };
      meta: {
        request_id: string;
        /** @description The normalized filters that were applied: lists as arrays, dates as UTC ISO strings, numbers as numbers. */
        applied_filters: {
          [key: string]: unknown;
        };
      };
    };
    PreviewListEnvelope: {
      data: components['schemas']['PreviewOpportunity'][];
      pagination: {
        returned: number;
        /** @description Opaque signed cursor for the next page, bound to these filters; null on the last page. */
        next_cursor: string | null;
        /** @description True exactly when next_cursor is not null. */
        has_more: boolean;
        limit: number;
      };
      meta: {
        request_id: string;
        /** @description The normalized filters that were applied: lists as arrays, dates as UTC ISO strings, numbers as numbers. */
        applied_filters: {
          [key: string]: unknown;
        };
      };
    };
    CountEnvelope: {
      count: number;
      /** @description With group_by: the top group_limit buckets by count descending, then value; a bucket counts what the same filters plus that value count. */
      groups?: {
        /** @description The bucket value, of the filter type (remote buckets are booleans). */
        value: string | boolean;
        count: number;
        /** @description The second group_by dimension inside this bucket. */
        groups?: {
          /** @description The bucket value, of the filter type (remote buckets are booleans). */
          value: string | boolean;
          count: number;
        }[];
        /** @description Matching records in no returned bucket of this level, missing values included. */
        other_count?: number;
      }[];
      /** @description Matching records in no returned bucket of this level, missing values included. */
      other_count?: number;
      /** @description With include=new_count: matching records not yet delivered to this account in the current period (what listing them all would consume). */
      new_count?: number;
      /** @description With include=new_count: what listing them all would take from the prepaid wallet after the remaining included allowance. */
      new_cost_millicents?: number;
      /** @description With histogram and interval: matching records per UTC bucket, ascending, empty buckets included between the first and the last non-empty one (an empty array when nothing matches). */
      histogram?: components['schemas']['HistogramBucket'][];
      /** @description With stats=rate: one entry per (unit, currency) with at least one matching record that has a rate, by count descending, then unit, then currency. */
      rate_stats?: components['schemas']['RateStatistics'][];
      meta: {
        request_id: string;
        /** @description The normalized filters that were applied: lists as arrays, dates as UTC ISO strings, numbers as numbers. */
        applied_filters: {
          [key: string]: unknown;
        };
      };
    };
    /** @description One UTC time bucket of the histogram. */
    HistogramBucket: {
      /** @description The bucket's first instant, ISO 8601 UTC: midnight, the Monday of the week or the 1st of the month. */
      start: string;
      /** @description Matching records in the bucket (exact). */
      count: number;
    };
    /** @description Statistics of one (unit, currency): a record's rate value is the midpoint of its rate min and max, or the one bound given. */
    RateStatistics: {
      /** @description The rate unit: hour, day, month, year or project. */
      unit: string;
      /** @description ISO 4217 currency code. */
      currency: string;
      /** @description Matching records with a rate in this unit and currency (exact). */
      count: number;
      /** @description The smallest rate value (exact); null when the entry has fewer records than the service's minimum. */
      min: number | null;
      /** @description The largest rate value (exact); null when the entry has fewer records than the service's minimum. */
      max: number | null;
      /** @description 25th percentile of the rate values (within 5 %); null when the entry has fewer records than the service's minimum. */
      p25: number | null;
      /** @description Median of the rate values (within 5 %); null when the entry has fewer records than the service's minimum. */
      median: number | null;
      /** @description 75th percentile of the rate values (within 5 %); null when the entry has fewer records than the service's minimum. */
      p75: number | null;
    };
    ChangesEnvelope: {
      /** @description Changes in the order they were indexed (ascending), each record once at its latest state. */
      data: (
        | components['schemas']['Opportunity']
        | components['schemas']['SparseOpportunity']
        | components['schemas']['Tombstone']
      )[];
      pagination: {
        returned: number;
        /** @description Never null: the position to continue from, now (has_more true) or when polling later. Signed, bound to since and the account. */
        next_cursor: string;
        /** @description Whether more changes exist now after next_cursor. */
        has_more: boolean;
        limit: number;
      };
      meta: {
        request_id: string;
        /** @description since as a UTC ISO string when the feed is bounded by it. */
        applied_filters: {
          since?: string;
        };
      };
    };
    /** @description A record removed from the store: drop it from what your integration holds. Free. */
    Tombstone: {
      /** Format: uuid */
      id: string;
      /** @constant */
      deleted: true;
      /**
       * Format: date-time
       * @description When the record was removed from the store.
       */
      changed_at: string;
    };
    DetailEnvelope: {
      data: components['schemas']['Opportunity'] | components['schemas']['SparseOpportunity'];
      meta: {
        request_id: string;
      };
    };
    TaxonomyNode: {
      id: string;
      parent_id: string | null;
      /** @enum {string} */
      level: 'root' | 'domain' | 'family' | 'subfamily' | 'class';
      label: string;
    };
    Taxonomy: {
      version: string;
      root: string;
      nodes: components['schemas']['TaxonomyNode'][];
    };
    ErrorEnvelope: {
      error: {
        /** @enum {string} */
        code:
          | 'invalid_filter'
          | 'malformed_cursor'
          | 'page_size_exceeded'
          | 'missing_api_key'
          | 'invalid_api_key'
          | 'revoked_api_key'
          | 'insufficient_balance'
          | 'opportunity_quota_exhausted'
          | 'api_access_disabled'
          | 'api_access_suspended'
          | 'plan_access_pending'
          | 'plan_access_expired'
          | 'origin_not_allowed'
          | 'opportunity_not_found'
          | 'not_found'
          | 'method_not_allowed'
          | 'duplicate_request_id'
          | 'payload_too_large'
          | 'request_header_fields_too_large'
          | 'validation_error'
          | 'rate_limit_exceeded'
          | 'preview_rate_limit_exceeded'
          | 'internal_server_error'
          | 'metering_unavailable'
          | 'search_unavailable';
        message: string;
        request_id: string;
        /** @description For 400 and 422: the offending parameter and a short machine-readable reason. */
        details?: {
          parameter: string;
          /** @enum {string} */
          reason:
            | 'unknown_parameter'
            | 'repeated'
            | 'unknown_value'
            | 'out_of_range'
            | 'bad_format'
            | 'not_a_list'
            | 'unsupported'
            | 'missing';
        };
      };
    };
    Usage: {
      /** @description X-Service-Plan: the plan of a plan-billed account; null for legacy billing models. */
      plan: ('free' | 'builder' | 'growth' | 'enterprise') | null;
      /** @enum {string} */
      billing_model: 'plan' | 'legacy_entitlement' | 'legacy_wallet';
      period: {
        /**
         * Format: date-time
         * @description Inclusive start of the current period.
         */
        start: string;
        /**
         * Format: date-time
         * @description X-Service-Period-End: exclusive end of the current period.
         */
        end: string;
      };
      opportunities: {
        /** @description X-Service-Opportunity-Limit: included allowance per period; null when absent. */
        limit: number | null;
        /** @description X-Service-Opportunity-Used: unique opportunities delivered this period. */
        used: number;
        /** @description X-Service-Opportunity-Remaining: included allowance left. */
        remaining: number;
      };
      /** @description X-Service-Balance-Millicents: prepaid wallet balance. */
      balance_millicents: number;
      /** @description X-Service-Prepaid-Opportunity-Credits: opportunities the balance can still pay for. */
      prepaid_credits: number;
      rate_limit: {
        /** @description X-RateLimit-Limit: requests per window. */
        limit: number;
        /** @description X-RateLimit-Remaining: requests left in the window. */
        remaining: number;
        /** @description X-RateLimit-Reset: whole seconds until the window resets. */
        reset: number;
      };
      meta: {
        request_id: string;
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description Caller-supplied or generated request id. */
    'X-Request-ID': string;
    /** @description Effective request limit for the window. */
    'X-RateLimit-Limit': number;
    /** @description Requests left in the window. */
    'X-RateLimit-Remaining': number;
    /** @description Seconds until the window resets. */
    'X-RateLimit-Reset': number;
    /** @description Remaining prepaid wallet balance. */
    'X-Service-Balance-Millicents': number;
    /** @description Prepaid amount charged for this response. */
    'X-Service-Usage-Charge-Millicents': number;
    /** @description Further opportunities affordable from the prepaid balance. */
    'X-Service-Prepaid-Opportunity-Credits': number;
    /** @description Current plan for plan-billed accounts. */
    'X-Service-Plan': string;
    /** @description Allowance for the current period. */
    'X-Service-Opportunity-Limit': number;
    /** @description Unique opportunities delivered this period. */
    'X-Service-Opportunity-Used': number;
    /** @description Allowance remaining this period. */
    'X-Service-Opportunity-Remaining': number;
    /** @description New period-scoped exposures in this response. */
    'X-Service-New-Opportunity-Count': number;
    /** @description New ones charged to included allowance. */
    'X-Service-Included-New-Opportunity-Count': number;
    /** @description New ones charged to prepaid credit. */
    'X-Service-PAYG-New-Opportunity-Count': number;
    /** @description Exclusive end of the current period. */
    'X-Service-Period-End': string;
    /** @description Opportunities=N; only for a verified marketplace-proxy request. */
    'X-Marketplace-Billing': string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listOpportunities: {
    parameters: {
      query?: {
        /** @description Keyword search, 1 to 200 characters, over the title, normalized title, specializations, employer, intermediary, organization names and the labels of the record's taxonomy family, subfamily and class. Syntax: words are ANDed (senior golang); "a phrase" matches the words adjacent and in order; -word or -"a phrase" excludes; a OR b (upper-case OR) matches either. Nothing else is an operator: any other punctuation is text (c++, node.js). Case- and accent-insensitive, English stemming (developer matches developers) and technology synonyms (js = javascript, k8s = kubernetes, golang = go, swe = software engineer...). Only exclusions: every record but those. Combines with every other filter (AND). */
        q?: string;
        /** @description Order of the list: freshness (default: published_at, else first_seen, newest first, then id) or relevance (keyword score of q, best first, then the freshness order; needs q; scores move whenever the index changes, so a walk that must reach every record uses freshness). Bound to the cursor like a filter. */
        sort?: 'freshness' | 'relevance';
        /** @description Published by the provider at or after this instant (published_at). Records without a published date never match. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        published_after?: string;
        /** @description Published by the provider at or before this instant (published_at). Records without a published date never match. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        published_before?: string;
        /** @description Freshness at or after this instant: published_at, falling back to first_seen when the provider gives no date. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        fresh_after?: string;
        /** @description One domain id; matches the domain and every descendant. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_domain?: string;
        /** @description Comma-separated in REST. Family ids (OR); a family includes every descendant subfamily and class. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_family?: string[];
        /** @description Comma-separated in REST. Subfamily ids (OR). A subfamily narrows its own parent family: job_family=data,software_engineering with job_subfamily=data_engineering gives data_engineering plus all of software_engineering. When job_family is given, each subfamily's family must be among it. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_subfamily?: string[];
        /** @description Comma-separated in REST. Exact class (role) ids (OR); no descendants. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_class?: string[];
        /** @description Normalized role title. Exact match, case-insensitive. */
        normalized_title?: string;
        /** @description Comma-separated in REST. Seniority levels (OR). */
        level?: (
          | 'intern'
          | 'junior'
          | 'mid'
          | 'senior'
          | 'lead'
          | 'staff'
          | 'principal'
          | 'director'
          | 'executive'
          | 'unknown'
        )[];
        /** @description Management track. */
        management_track?: 'individual_contributor' | 'people_manager' | 'unknown';
        /** @description One specialization; matches records whose specializations contain it. Exact match, case-insensitive. */
        specializations?: string;
        /** @description Records whose engagement_models contain this model. Freelance and independent work normalize to 1099; c2c matches only explicit c2c (w2_contract is no evidence of c2c). */
        engagement_model?: 'w2_contract' | '1099' | 'c2c';
        /** @description Exact commercial eligibility. `unknown` is not eligible: eligible never matches unknown. */
        commercial_eligibility?: 'eligible' | 'ineligible' | 'research_required' | 'unknown';
        /** @description Exact actionability. */
        actionability?: 'actionable' | 'not_actionable' | 'unknown';
        /** @description true: location.remote is true, which does NOT mean worldwide (check location.remote_scope and country). false: explicitly not remote. Records whose remote status is unknown match neither. */
        remote?: boolean;
        /** @description ISO 3166-1 alpha-2 code (US, GB), case-insensitive. A missing location does not mean unrestricted work. */
        country?:
          | 'AD'
          | 'AE'
          | 'AF'
          | 'AG'
          | 'AI'
          | 'AL'
          | 'AM'
          | 'AO'
          | 'AQ'
          | 'AR'
          | 'AS'
          | 'AT'
          | 'AU'
          | 'AW'
          | 'AX'
          | 'AZ'
          | 'BA'
          | 'BB'
          | 'BD'
          | 'BE'
          | 'BF'
          | 'BG'
          | 'BH'
          | 'BI'
          | 'BJ'
          | 'BL'
          | 'BM'
          | 'BN'
          | 'BO'
          | 'BQ'
          | 'BR'
          | 'BS'
          | 'BT'
          | 'BV'
          | 'BW'
          | 'BY'
          | 'BZ'
          | 'CA'
          | 'CC'
          | 'CD'
          | 'CF'
          | 'CG'
          | 'CH'
          | 'CI'
          | 'CK'
          | 'CL'
          | 'CM'
          | 'CN'
          | 'CO'
          | 'CR'
          | 'CU'
          | 'CV'
          | 'CW'
          | 'CX'
          | 'CY'
          | 'CZ'
          | 'DE'
          | 'DJ'
          | 'DK'
          | 'DM'
          | 'DO'
          | 'DZ'
          | 'EC'
          | 'EE'
          | 'EG'
          | 'EH'
          | 'ER'
          | 'ES'
          | 'ET'
          | 'FI'
          | 'FJ'
          | 'FK'
          | 'FM'
          | 'FO'
          | 'FR'
          | 'GA'
          | 'GB'
          | 'GD'
          | 'GE'
          | 'GF'
          | 'GG'
          | 'GH'
          | 'GI'
          | 'GL'
          | 'GM'
          | 'GN'
          | 'GP'
          | 'GQ'
          | 'GR'
          | 'GS'
          | 'GT'
          | 'GU'
          | 'GW'
          | 'GY'
          | 'HK'
          | 'HM'
          | 'HN'
          | 'HR'
          | 'HT'
          | 'HU'
          | 'ID'
          | 'IE'
          | 'IL'
          | 'IM'
          | 'IN'
          | 'IO'
          | 'IQ'
          | 'IR'
          | 'IS'
          | 'IT'
          | 'JE'
          | 'JM'
          | 'JO'
          | 'JP'
          | 'KE'
          | 'KG'
          | 'KH'
          | 'KI'
          | 'KM'
          | 'KN'
          | 'KP'
          | 'KR'
          | 'KW'
          | 'KY'
          | 'KZ'
          | 'LA'
          | 'LB'
          | 'LC'
          | 'LI'
          | 'LK'
          | 'LR'
          | 'LS'
          | 'LT'
          | 'LU'
          | 'LV'
          | 'LY'
          | 'MA'
          | 'MC'
          | 'MD'
          | 'ME'
          | 'MF'
          | 'MG'
          | 'MH'
          | 'MK'
          | 'ML'
          | 'MM'
          | 'MN'
          | 'MO'
          | 'MP'
          | 'MQ'
          | 'MR'
          | 'MS'
          | 'MT'
          | 'MU'
          | 'MV'
          | 'MW'
          | 'MX'
          | 'MY'
          | 'MZ'
          | 'NA'
          | 'NC'
          | 'NE'
          | 'NF'
          | 'NG'
          | 'NI'
          | 'NL'
          | 'NO'
          | 'NP'
          | 'NR'
          | 'NU'
          | 'NZ'
          | 'OM'
          | 'PA'
          | 'PE'
          | 'PF'
          | 'PG'
          | 'PH'
          | 'PK'
          | 'PL'
          | 'PM'
          | 'PN'
          | 'PR'
          | 'PS'
          | 'PT'
          | 'PW'
          | 'PY'
          | 'QA'
          | 'RE'
          | 'RO'
          | 'RS'
          | 'RU'
          | 'RW'
          | 'SA'
          | 'SB'
          | 'SC'
          | 'SD'
          | 'SE'
          | 'SG'
          | 'SH'
          | 'SI'
          | 'SJ'
          | 'SK'
          | 'SL'
          | 'SM'
          | 'SN'
          | 'SO'
          | 'SR'
          | 'SS'
          | 'ST'
          | 'SV'
          | 'SX'
          | 'SY'
          | 'SZ'
          | 'TC'
          | 'TD'
          | 'TF'
          | 'TG'
          | 'TH'
          | 'TJ'
          | 'TK'
          | 'TL'
          | 'TM'
          | 'TN'
          | 'TO'
          | 'TR'
          | 'TT'
          | 'TV'
          | 'TW'
          | 'TZ'
          | 'UA'
          | 'UG'
          | 'UM'
          | 'US'
          | 'UY'
          | 'UZ'
          | 'VA'
          | 'VC'
          | 'VE'
          | 'VG'
          | 'VI'
          | 'VN'
          | 'VU'
          | 'WF'
          | 'WS'
          | 'YE'
          | 'YT'
          | 'ZA'
          | 'ZM'
          | 'ZW';
        /** @description City name. Exact match, case-insensitive. */
        city?: string;
        /** @description State or region, by code (CA) or name (California); same as region. Exact match, case-insensitive. */
        state?: string;
        /** @description State or region, by code (CA) or name (California). Exact match, case-insensitive. */
        region?: string;
        /** @description Non-negative decimal (80 or 80.5). Matches rates whose upper bound (max, else min) is >= this, in the record's own currency and unit: combine with currency and pay_basis. Records without a rate never match; a null rate does not mean zero pay. */
        rate_min?: string;
        /** @description Non-negative decimal. Matches rates whose lower bound (min, else max) is <= this, in the record's own currency and unit. Records without a rate never match. */
        rate_max?: string;
        /** @description ISO 4217 currency code of the rate (USD). Exact match, case-insensitive. */
        currency?: string;
        /** @description Comma-separated in REST. Pay bases (OR). */
        pay_basis?: ('hourly' | 'daily' | 'monthly' | 'annual' | 'fixed_project' | 'unknown')[];
        /** @description Comma-separated in REST. Work structures (OR); ongoing_contract also matches contract_duration. */
        work_structure?: (
          | 'fixed_project'
          | 'ongoing_contract'
          | 'contract_duration'
          | 'freelance_ad_hoc'
          | 'unknown'
        )[];
        /** @description Stable source id (greenhouse). Exact match, case-insensitive. */
        source?: string;
        /** @description Whether the opportunity still looks actionable. */
        liveness_status?: 'live' | 'unknown' | 'blocked' | 'dead';
        /** @description First observed by the service at or after this instant (first_seen). ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        first_seen_after?: string;
        /** @description Last recorded change at or after this instant (changed_at); records may still change or vanish between pages. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        changed_since?: string;
        /** @description true: only opportunities not yet delivered to this account in the current period, so every record returned is new and spends allowance (repeats are left out). Bound to the cursor like any filter. Check the cost first with count and include=new_count. */
        unseen_only?: boolean;
        /** @description Opaque signed token from pagination.next_cursor. Pass it back unchanged with exactly the same filters (the limit may change); it is bound to the filters and the account, otherwise malformed_cursor. Omit it for the first page. */
        cursor?: string;
        /** @description Page size, an integer from 1 to 100 (default 25); above the account's maximum page size gives page_size_exceeded. */
        limit?: number;
        /** @description Budget of new opportunities for this page, an integer from 0 to 100: the page stops before the record that would be the (max_new+1)-th new one (repeats still come, up to limit), has_more stays true and next_cursor continues right after the last returned record, so nothing is skipped. 0 returns only repeats. Not bound to the cursor: it may change from page to page. */
        max_new?: number;
        /** @description Comma-separated in REST. Sparse records: the top-level fields of the record to return. Every record then has exactly id plus these fields (id always comes); without fields, the whole record. Smaller records, same price: a record delivered is charged whatever fields were asked for. Not bound to the cursor: it may change from page to page. */
        fields?: (
          | 'id'
          | 'title'
          | 'normalized_title'
          | 'employer'
          | 'intermediary'
          | 'organizations'
          | 'canonical_url'
          | 'application_url'
          | 'sources'
          | 'published_at'
          | 'published_precision'
          | 'first_seen'
          | 'changed_at'
          | 'last_verified_live_at'
          | 'liveness_status'
          | 'technology_classification'
          | 'job_domain'
          | 'job_family'
          | 'job_subfamily'
          | 'job_class'
          | 'level'
          | 'management_track'
          | 'specializations'
          | 'engagement_models'
          | 'commercial_eligibility'
          | 'actionability'
          | 'location'
          | 'rate'
          | 'is_low_pay'
          | 'pay_basis'
          | 'work_structure'
          | 'duration'
          | 'evidence'
        )[];
      };
      header?: {
        /** @description Unique caller-generated id of this billable request (1 to 128 of A-Za-z0-9._:-), never holding a key-like run (oppk_ followed by a letter or digit, any case, anywhere): such an id is a pasted secret, refused with 422. */
        'X-Request-ID'?: string;
        /** @description Entity tags from earlier ETag headers (a list, or *), compared weakly (RFC 9110). A match answers 304 with no body, the usage and rate-limit headers, and counts against the rate limit; on a list only when every record on the page was already delivered to the account this period, and then it consumes nothing and spends no request id. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Weak entity tag of this response, blind to meta.request_id: send it back in If-None-Match. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ListEnvelope'];
        };
      };
      /** @description Not modified: If-None-Match matched and every record on the page was already delivered this period (nothing consumed, no request id spent). No body. */
      304: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Weak entity tag of this response, blind to meta.request_id: send it back in If-None-Match. */
          ETag?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalid_filter, malformed_cursor or page_size_exceeded */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description missing_api_key, invalid_api_key or revoked_api_key */
      401: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          /** @description The challenge, naming the header the key goes in: `APIKey realm="opportunities", header="X-API-Key"`. */
          'WWW-Authenticate'?: string;
          /** @description Failed authentications this address may make in the window (a minute) before 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Failed authentications left to this address in the window. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds until the window of failed authentications resets. */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description insufficient_balance or opportunity_quota_exhausted */
      402: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description api_access_disabled, api_access_suspended, plan_access_pending or plan_access_expired */
      403: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description duplicate_request_id */
      409: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description rate_limit_exceeded (with Retry-After) */
      429: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description metering_unavailable or search_unavailable (with Retry-After) */
      503: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  countOpportunities: {
    parameters: {
      query?: {
        /** @description Keyword search, 1 to 200 characters, over the title, normalized title, specializations, employer, intermediary, organization names and the labels of the record's taxonomy family, subfamily and class. Syntax: words are ANDed (senior golang); "a phrase" matches the words adjacent and in order; -word or -"a phrase" excludes; a OR b (upper-case OR) matches either. Nothing else is an operator: any other punctuation is text (c++, node.js). Case- and accent-insensitive, English stemming (developer matches developers) and technology synonyms (js = javascript, k8s = kubernetes, golang = go, swe = software engineer...). Only exclusions: every record but those. Combines with every other filter (AND). */
        q?: string;
        /** @description Published by the provider at or after this instant (published_at). Records without a published date never match. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        published_after?: string;
        /** @description Published by the provider at or before this instant (published_at). Records without a published date never match. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        published_before?: string;
        /** @description Freshness at or after this instant: published_at, falling back to first_seen when the provider gives no date. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        fresh_after?: string;
        /** @description One domain id; matches the domain and every descendant. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_domain?: string;
        /** @description Comma-separated in REST. Family ids (OR); a family includes every descendant subfamily and class. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_family?: string[];
        /** @description Comma-separated in REST. Subfamily ids (OR). A subfamily narrows its own parent family: job_family=data,software_engineering with job_subfamily=data_engineering gives data_engineering plus all of software_engineering. When job_family is given, each subfamily's family must be among it. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_subfamily?: string[];
        /** @description Comma-separated in REST. Exact class (role) ids (OR); no descendants. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_class?: string[];
        /** @description Normalized role title. Exact match, case-insensitive. */
        normalized_title?: string;
        /** @description Comma-separated in REST. Seniority levels (OR). */
        level?: (
          | 'intern'
          | 'junior'
          | 'mid'
          | 'senior'
          | 'lead'
          | 'staff'
          | 'principal'
          | 'director'
          | 'executive'
          | 'unknown'
        )[];
        /** @description Management track. */
        management_track?: 'individual_contributor' | 'people_manager' | 'unknown';
        /** @description One specialization; matches records whose specializations contain it. Exact match, case-insensitive. */
        specializations?: string;
        /** @description Records whose engagement_models contain this model. Freelance and independent work normalize to 1099; c2c matches only explicit c2c (w2_contract is no evidence of c2c). */
        engagement_model?: 'w2_contract' | '1099' | 'c2c';
        /** @description Exact commercial eligibility. `unknown` is not eligible: eligible never matches unknown. */
        commercial_eligibility?: 'eligible' | 'ineligible' | 'research_required' | 'unknown';
        /** @description Exact actionability. */
        actionability?: 'actionable' | 'not_actionable' | 'unknown';
        /** @description true: location.remote is true, which does NOT mean worldwide (check location.remote_scope and country). false: explicitly not remote. Records whose remote status is unknown match neither. */
        remote?: boolean;
        /** @description ISO 3166-1 alpha-2 code (US, GB), case-insensitive. A missing location does not mean unrestricted work. */
        country?:
          | 'AD'
          | 'AE'
          | 'AF'
          | 'AG'
          | 'AI'
          | 'AL'
          | 'AM'
          | 'AO'
          | 'AQ'
          | 'AR'
          | 'AS'
          | 'AT'
          | 'AU'
          | 'AW'
          | 'AX'
          | 'AZ'
          | 'BA'
          | 'BB'
          | 'BD'
          | 'BE'
          | 'BF'
          | 'BG'
          | 'BH'
          | 'BI'
          | 'BJ'
          | 'BL'
          | 'BM'
          | 'BN'
          | 'BO'
          | 'BQ'
          | 'BR'
          | 'BS'
          | 'BT'
          | 'BV'
          | 'BW'
          | 'BY'
          | 'BZ'
          | 'CA'
          | 'CC'
          | 'CD'
          | 'CF'
          | 'CG'
          | 'CH'
          | 'CI'
          | 'CK'
          | 'CL'
          | 'CM'
          | 'CN'
          | 'CO'
          | 'CR'
          | 'CU'
          | 'CV'
          | 'CW'
          | 'CX'
          | 'CY'
          | 'CZ'
          | 'DE'
          | 'DJ'
          | 'DK'
          | 'DM'
          | 'DO'
          | 'DZ'
          | 'EC'
          | 'EE'
          | 'EG'
          | 'EH'
          | 'ER'
          | 'ES'
          | 'ET'
          | 'FI'
          | 'FJ'
          | 'FK'
          | 'FM'
          | 'FO'
          | 'FR'
          | 'GA'
          | 'GB'
          | 'GD'
          | 'GE'
          | 'GF'
          | 'GG'
          | 'GH'
          | 'GI'
          | 'GL'
          | 'GM'
          | 'GN'
          | 'GP'
          | 'GQ'
          | 'GR'
          | 'GS'
          | 'GT'
          | 'GU'
          | 'GW'
          | 'GY'
          | 'HK'
          | 'HM'
          | 'HN'
          | 'HR'
          | 'HT'
          | 'HU'
          | 'ID'
          | 'IE'
          | 'IL'
          | 'IM'
          | 'IN'
          | 'IO'
          | 'IQ'
          | 'IR'
          | 'IS'
          | 'IT'
          | 'JE'
          | 'JM'
          | 'JO'
          | 'JP'
          | 'KE'
          | 'KG'
          | 'KH'
          | 'KI'
          | 'KM'
          | 'KN'
          | 'KP'
          | 'KR'
          | 'KW'
          | 'KY'
          | 'KZ'
          | 'LA'
          | 'LB'
          | 'LC'
          | 'LI'
          | 'LK'
          | 'LR'
          | 'LS'
          | 'LT'
          | 'LU'
          | 'LV'
          | 'LY'
          | 'MA'
          | 'MC'
          | 'MD'
          | 'ME'
          | 'MF'
          | 'MG'
          | 'MH'
          | 'MK'
          | 'ML'
          | 'MM'
          | 'MN'
          | 'MO'
          | 'MP'
          | 'MQ'
          | 'MR'
          | 'MS'
          | 'MT'
          | 'MU'
          | 'MV'
          | 'MW'
          | 'MX'
          | 'MY'
          | 'MZ'
          | 'NA'
          | 'NC'
          | 'NE'
          | 'NF'
          | 'NG'
          | 'NI'
          | 'NL'
          | 'NO'
          | 'NP'
          | 'NR'
          | 'NU'
          | 'NZ'
          | 'OM'
          | 'PA'
          | 'PE'
          | 'PF'
          | 'PG'
          | 'PH'
          | 'PK'
          | 'PL'
          | 'PM'
          | 'PN'
          | 'PR'
          | 'PS'
          | 'PT'
          | 'PW'
          | 'PY'
          | 'QA'
          | 'RE'
          | 'RO'
          | 'RS'
          | 'RU'
          | 'RW'
          | 'SA'
          | 'SB'
          | 'SC'
          | 'SD'
          | 'SE'
          | 'SG'
          | 'SH'
          | 'SI'
          | 'SJ'
          | 'SK'
          | 'SL'
          | 'SM'
          | 'SN'
          | 'SO'
          | 'SR'
          | 'SS'
          | 'ST'
          | 'SV'
          | 'SX'
          | 'SY'
          | 'SZ'
          | 'TC'
          | 'TD'
          | 'TF'
          | 'TG'
          | 'TH'
          | 'TJ'
          | 'TK'
          | 'TL'
          | 'TM'
          | 'TN'
          | 'TO'
          | 'TR'
          | 'TT'
          | 'TV'
          | 'TW'
          | 'TZ'
          | 'UA'
          | 'UG'
          | 'UM'
          | 'US'
          | 'UY'
          | 'UZ'
          | 'VA'
          | 'VC'
          | 'VE'
          | 'VG'
          | 'VI'
          | 'VN'
          | 'VU'
          | 'WF'
          | 'WS'
          | 'YE'
          | 'YT'
          | 'ZA'
          | 'ZM'
          | 'ZW';
        /** @description City name. Exact match, case-insensitive. */
        city?: string;
        /** @description State or region, by code (CA) or name (California); same as region. Exact match, case-insensitive. */
        state?: string;
        /** @description State or region, by code (CA) or name (California). Exact match, case-insensitive. */
        region?: string;
        /** @description Non-negative decimal (80 or 80.5). Matches rates whose upper bound (max, else min) is >= this, in the record's own currency and unit: combine with currency and pay_basis. Records without a rate never match; a null rate does not mean zero pay. */
        rate_min?: string;
        /** @description Non-negative decimal. Matches rates whose lower bound (min, else max) is <= this, in the record's own currency and unit. Records without a rate never match. */
        rate_max?: string;
        /** @description ISO 4217 currency code of the rate (USD). Exact match, case-insensitive. */
        currency?: string;
        /** @description Comma-separated in REST. Pay bases (OR). */
        pay_basis?: ('hourly' | 'daily' | 'monthly' | 'annual' | 'fixed_project' | 'unknown')[];
        /** @description Comma-separated in REST. Work structures (OR); ongoing_contract also matches contract_duration. */
        work_structure?: (
          | 'fixed_project'
          | 'ongoing_contract'
          | 'contract_duration'
          | 'freelance_ad_hoc'
          | 'unknown'
        )[];
        /** @description Stable source id (greenhouse). Exact match, case-insensitive. */
        source?: string;
        /** @description Whether the opportunity still looks actionable. */
        liveness_status?: 'live' | 'unknown' | 'blocked' | 'dead';
        /** @description First observed by the service at or after this instant (first_seen). ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        first_seen_after?: string;
        /** @description Last recorded change at or after this instant (changed_at); records may still change or vanish between pages. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        changed_since?: string;
        /** @description Comma-separated in REST. Count facets: one or two dimensions (the second nests inside each bucket of the first). Adds groups: [{ value, count, groups? }] (by count descending, then value) and other_count (matching records in no returned bucket) at each level. A bucket counts what the same filters plus that value count; taxonomy buckets include descendants. */
        group_by?: (
          | 'job_domain'
          | 'job_family'
          | 'job_subfamily'
          | 'job_class'
          | 'level'
          | 'engagement_model'
          | 'work_structure'
          | 'pay_basis'
          | 'country'
          | 'remote'
          | 'source'
          | 'liveness_status'
          | 'commercial_eligibility'
          | 'actionability'
          | 'currency'
        )[];
        /** @description Buckets per level of group_by, an integer from 1 to 100 (default 10); only taken with group_by (otherwise invalid_filter). */
        group_limit?: number;
        /** @description Comma-separated in REST. new_count: adds new_count (matching records not yet delivered to this account in the current period: what listing them all would consume) and new_cost_millicents (what that would take from the prepaid wallet after the remaining included allowance). Still free. */
        include?: 'new_count'[];
        /** @description Adds histogram: [{ start, count }], the matching records per UTC time bucket of this field, ascending, exact, empty buckets included between the first and the last non-empty one. published: the freshness time (published_at, else first_seen); first_seen: when the service first saw the record. Needs interval. More than 400 buckets gives invalid_filter (parameter interval): narrow the dates or take a longer interval. Free. */
        histogram?: 'published' | 'first_seen';
        /** @description The histogram's bucket: day, week (starting Monday 00:00 UTC) or month (the 1st, 00:00 UTC). Required with histogram and only taken with it (otherwise invalid_filter). */
        interval?: 'day' | 'week' | 'month';
        /** @description rate: adds rate_stats: [{ unit, currency, count, min, max, p25, median, p75 }], one entry per rate unit and currency among the matching records that have a rate, by count descending. A record's value is the midpoint of its rate min and max (the one bound when only one is given); count, min and max are exact, the percentiles within 5 %. Records without a rate are in no entry. Free. */
        stats?: 'rate';
      };
      header?: {
        /** @description Caller-generated correlation id (the same rules as on billable requests), echoed in the X-Request-ID header and in meta or error; a free request spends none. */
        'X-Request-ID'?: string;
        /** @description Entity tags from earlier ETag headers (a list, or *), compared weakly (RFC 9110). A match answers 304 with no body, the usage and rate-limit headers, and counts against the rate limit; on a list only when every record on the page was already delivered to the account this period, and then it consumes nothing and spends no request id. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Weak entity tag of this response, blind to meta.request_id: send it back in If-None-Match. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CountEnvelope'];
        };
      };
      /** @description Not modified: If-None-Match matched and the count is unchanged. No body. */
      304: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Weak entity tag of this response, blind to meta.request_id: send it back in If-None-Match. */
          ETag?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalid_filter */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description missing_api_key, invalid_api_key or revoked_api_key */
      401: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          /** @description The challenge, naming the header the key goes in: `APIKey realm="opportunities", header="X-API-Key"`. */
          'WWW-Authenticate'?: string;
          /** @description Failed authentications this address may make in the window (a minute) before 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Failed authentications left to this address in the window. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds until the window of failed authentications resets. */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description api_access_disabled, api_access_suspended, plan_access_pending or plan_access_expired */
      403: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description rate_limit_exceeded (with Retry-After) */
      429: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description metering_unavailable or search_unavailable (with Retry-After) */
      503: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listOpportunityChanges: {
    parameters: {
      query?: {
        /** @description Changes whose changed_at (a tombstone: its deletion time) is at or after this instant. ISO 8601 date-time with Z or an offset, or YYYY-MM-DD. Without since and cursor: the whole store from the start. Beside a cursor it must equal the since the cursor was issued for. */
        since?: string;
        /** @description pagination.next_cursor of an earlier feed page: continue from there now, or poll from it later. It carries since. */
        cursor?: string;
        /** @description Page size, 1 to 100 (default 25) and at most the account's page size. */
        limit?: number;
        /** @description Comma-separated in REST. Sparse records: the top-level fields of the record to return. Every record then has exactly id plus these fields (id always comes); without fields, the whole record. Smaller records, same price: a record delivered is charged whatever fields were asked for. Not bound to the cursor: it may change from page to page. */
        fields?: (
          | 'id'
          | 'title'
          | 'normalized_title'
          | 'employer'
          | 'intermediary'
          | 'organizations'
          | 'canonical_url'
          | 'application_url'
          | 'sources'
          | 'published_at'
          | 'published_precision'
          | 'first_seen'
          | 'changed_at'
          | 'last_verified_live_at'
          | 'liveness_status'
          | 'technology_classification'
          | 'job_domain'
          | 'job_family'
          | 'job_subfamily'
          | 'job_class'
          | 'level'
          | 'management_track'
          | 'specializations'
          | 'engagement_models'
          | 'commercial_eligibility'
          | 'actionability'
          | 'location'
          | 'rate'
          | 'is_low_pay'
          | 'pay_basis'
          | 'work_structure'
          | 'duration'
          | 'evidence'
        )[];
      };
      header?: {
        /** @description Unique caller-generated id of this billable request (1 to 128 of A-Za-z0-9._:-), never holding a key-like run (oppk_ followed by a letter or digit, any case, anywhere): such an id is a pasted secret, refused with 422. */
        'X-Request-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChangesEnvelope'];
        };
      };
      /** @description invalid_filter, malformed_cursor or page_size_exceeded */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description missing_api_key, invalid_api_key or revoked_api_key */
      401: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          /** @description The challenge, naming the header the key goes in: `APIKey realm="opportunities", header="X-API-Key"`. */
          'WWW-Authenticate'?: string;
          /** @description Failed authentications this address may make in the window (a minute) before 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Failed authentications left to this address in the window. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds until the window of failed authentications resets. */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description insufficient_balance or opportunity_quota_exhausted */
      402: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description api_access_disabled, api_access_suspended, plan_access_pending or plan_access_expired */
      403: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description duplicate_request_id */
      409: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description rate_limit_exceeded (with Retry-After) */
      429: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description metering_unavailable or search_unavailable (with Retry-After) */
      503: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getOpportunity: {
    parameters: {
      query?: {
        /** @description Comma-separated in REST. Sparse records: the top-level fields of the record to return. Every record then has exactly id plus these fields (id always comes); without fields, the whole record. Smaller records, same price: a record delivered is charged whatever fields were asked for. Not bound to the cursor: it may change from page to page. */
        fields?: (
          | 'id'
          | 'title'
          | 'normalized_title'
          | 'employer'
          | 'intermediary'
          | 'organizations'
          | 'canonical_url'
          | 'application_url'
          | 'sources'
          | 'published_at'
          | 'published_precision'
          | 'first_seen'
          | 'changed_at'
          | 'last_verified_live_at'
          | 'liveness_status'
          | 'technology_classification'
          | 'job_domain'
          | 'job_family'
          | 'job_subfamily'
          | 'job_class'
          | 'level'
          | 'management_track'
          | 'specializations'
          | 'engagement_models'
          | 'commercial_eligibility'
          | 'actionability'
          | 'location'
          | 'rate'
          | 'is_low_pay'
          | 'pay_basis'
          | 'work_structure'
          | 'duration'
          | 'evidence'
        )[];
      };
      header?: {
        /** @description Unique caller-generated id of this billable request (1 to 128 of A-Za-z0-9._:-), never holding a key-like run (oppk_ followed by a letter or digit, any case, anywhere): such an id is a pasted secret, refused with 422. */
        'X-Request-ID'?: string;
      };
      path: {
        opportunity_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DetailEnvelope'];
        };
      };
      /** @description invalid_filter */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description missing_api_key, invalid_api_key or revoked_api_key */
      401: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          /** @description The challenge, naming the header the key goes in: `APIKey realm="opportunities", header="X-API-Key"`. */
          'WWW-Authenticate'?: string;
          /** @description Failed authentications this address may make in the window (a minute) before 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Failed authentications left to this address in the window. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds until the window of failed authentications resets. */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description insufficient_balance or opportunity_quota_exhausted */
      402: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description api_access_disabled, api_access_suspended, plan_access_pending or plan_access_expired */
      403: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description opportunity_not_found */
      404: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description duplicate_request_id */
      409: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description rate_limit_exceeded (with Retry-After) */
      429: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description metering_unavailable or search_unavailable (with Retry-After) */
      503: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getUsage: {
    parameters: {
      query?: never;
      header?: {
        /** @description Caller-generated correlation id (the same rules as on billable requests), echoed in the X-Request-ID header and in meta or error; a free request spends none. */
        'X-Request-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Usage'];
        };
      };
      /** @description invalid_filter */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description missing_api_key, invalid_api_key or revoked_api_key */
      401: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          /** @description The challenge, naming the header the key goes in: `APIKey realm="opportunities", header="X-API-Key"`. */
          'WWW-Authenticate'?: string;
          /** @description Failed authentications this address may make in the window (a minute) before 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Failed authentications left to this address in the window. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds until the window of failed authentications resets. */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description api_access_disabled, api_access_suspended, plan_access_pending or plan_access_expired */
      403: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description rate_limit_exceeded (with Retry-After) */
      429: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description metering_unavailable (with Retry-After) */
      503: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Service-Balance-Millicents': components['headers']['X-Service-Balance-Millicents'];
          'X-Service-Usage-Charge-Millicents': components['headers']['X-Service-Usage-Charge-Millicents'];
          'X-Service-Prepaid-Opportunity-Credits': components['headers']['X-Service-Prepaid-Opportunity-Credits'];
          'X-Service-Plan': components['headers']['X-Service-Plan'];
          'X-Service-Opportunity-Limit': components['headers']['X-Service-Opportunity-Limit'];
          'X-Service-Opportunity-Used': components['headers']['X-Service-Opportunity-Used'];
          'X-Service-Opportunity-Remaining': components['headers']['X-Service-Opportunity-Remaining'];
          'X-Service-New-Opportunity-Count': components['headers']['X-Service-New-Opportunity-Count'];
          'X-Service-Included-New-Opportunity-Count': components['headers']['X-Service-Included-New-Opportunity-Count'];
          'X-Service-PAYG-New-Opportunity-Count': components['headers']['X-Service-PAYG-New-Opportunity-Count'];
          'X-Service-Period-End': components['headers']['X-Service-Period-End'];
          'X-Marketplace-Billing': components['headers']['X-Marketplace-Billing'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getOccupationTaxonomy: {
    parameters: {
      query?: never;
      header?: {
        /** @description Caller-generated correlation id (the same rules as on billable requests), echoed in the X-Request-ID header and in meta or error; a free request spends none. */
        'X-Request-ID'?: string;
        /** @description Entity tags from earlier ETag headers (a list, or *), compared weakly (RFC 9110). A match answers 304 with no body and the ETag and Cache-Control of the 200; like the 200, it needs no key and counts against no limit. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          ETag?: string;
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Taxonomy'];
        };
      };
      /** @description Not modified (If-None-Match matched the ETag). */
      304: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          ETag?: string;
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalid_filter */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  previewOpportunities: {
    parameters: {
      query?: {
        /** @description Keyword search, 1 to 200 characters, over the title, normalized title, specializations, employer, intermediary, organization names and the labels of the record's taxonomy family, subfamily and class. Syntax: words are ANDed (senior golang); "a phrase" matches the words adjacent and in order; -word or -"a phrase" excludes; a OR b (upper-case OR) matches either. Nothing else is an operator: any other punctuation is text (c++, node.js). Case- and accent-insensitive, English stemming (developer matches developers) and technology synonyms (js = javascript, k8s = kubernetes, golang = go, swe = software engineer...). Only exclusions: every record but those. Combines with every other filter (AND). */
        q?: string;
        /** @description Order of the list: freshness (default: published_at, else first_seen, newest first, then id) or relevance (keyword score of q, best first, then the freshness order; needs q; scores move whenever the index changes, so a walk that must reach every record uses freshness). Bound to the cursor like a filter. */
        sort?: 'freshness' | 'relevance';
        /** @description Published by the provider at or after this instant (published_at). Records without a published date never match. ISO 8601: a date-time with Z or a ±hh:mm offset (2026-01-31T09:00:00Z), or a bare date YYYY-MM-DD meaning 00:00:00Z. */
        published_after?: string;
        /** @description Preview: a single value, no comma list. Family ids (OR); a family includes every descendant subfamily and class. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_family?: string;
        /** @description Preview: a single value, no comma list. Subfamily ids (OR). A subfamily narrows its own parent family: job_family=data,software_engineering with job_subfamily=data_engineering gives data_engineering plus all of software_engineering. When job_family is given, each subfamily's family must be among it. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_subfamily?: string;
        /** @description Preview: a single value, no comma list. Exact class (role) ids (OR); no descendants. Ids (never labels) from GET /v1/taxonomy/occupations (MCP: the resource taxonomy://occupations or the tool get_occupation_taxonomy). */
        job_class?: string;
        /** @description Preview: a single value, no comma list. Seniority levels (OR). */
        level?:
          | 'intern'
          | 'junior'
          | 'mid'
          | 'senior'
          | 'lead'
          | 'staff'
          | 'principal'
          | 'director'
          | 'executive'
          | 'unknown';
        /** @description Records whose engagement_models contain this model. Freelance and independent work normalize to 1099; c2c matches only explicit c2c (w2_contract is no evidence of c2c). */
        engagement_model?: 'w2_contract' | '1099' | 'c2c';
        /** @description Exact commercial eligibility. `unknown` is not eligible: eligible never matches unknown. */
        commercial_eligibility?: 'eligible' | 'ineligible' | 'research_required' | 'unknown';
        /** @description true: location.remote is true, which does NOT mean worldwide (check location.remote_scope and country). false: explicitly not remote. Records whose remote status is unknown match neither. */
        remote?: boolean;
        /** @description State or region, by code (CA) or name (California). Exact match, case-insensitive. */
        region?: string;
        /** @description Non-negative decimal (80 or 80.5). Matches rates whose upper bound (max, else min) is >= this, in the record's own currency and unit: combine with currency and pay_basis. Records without a rate never match; a null rate does not mean zero pay. */
        rate_min?: string;
        /** @description Preview: a single value, no comma list. Pay bases (OR). */
        pay_basis?: 'hourly' | 'daily' | 'monthly' | 'annual' | 'fixed_project' | 'unknown';
        /** @description Preview: a single value, no comma list. Work structures (OR); ongoing_contract also matches contract_duration. */
        work_structure?:
          | 'fixed_project'
          | 'ongoing_contract'
          | 'contract_duration'
          | 'freelance_ad_hoc'
          | 'unknown';
        /** @description Whether the opportunity still looks actionable. The preview returns live opportunities only. */
        liveness_status?: 'live' | 'unknown' | 'blocked' | 'dead';
        /** @description Not supported: the preview has no pagination (a cursor gives invalid_filter). */
        cursor?: string;
        /** @description Number of opportunities, an integer from 1 to 5 (default 5); above 5 gives page_size_exceeded. */
        limit?: number;
      };
      header?: {
        /** @description Caller-generated correlation id (the same rules as on billable requests), echoed in the X-Request-ID header and in meta or error; a free request spends none. */
        'X-Request-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PreviewListEnvelope'];
        };
      };
      /** @description invalid_filter or page_size_exceeded */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description preview_rate_limit_exceeded (with Retry-After) */
      429: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description search_unavailable (with Retry-After) */
      503: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          /** @description Whole seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getOpenApiDocument: {
    parameters: {
      query?: never;
      header?: {
        /** @description Caller-generated correlation id (the same rules as on billable requests), echoed in the X-Request-ID header and in meta or error; a free request spends none. */
        'X-Request-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OpenAPI 3.1 document */
      200: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description invalid_filter */
      400: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description validation_error */
      422: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description internal_server_error */
      500: {
        headers: {
          'X-Request-ID': components['headers']['X-Request-ID'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
}
