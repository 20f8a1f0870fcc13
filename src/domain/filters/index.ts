// Request filters: one catalog drives REST and MCP parsing, schemas and the cursor digest
// (contract §6, §8, §9.2, §21.6).
export {
  PARAMS,
  FILTER_PARAMS,
  PREVIEW_PARAMS,
  MAX_PAGE_SIZE,
  DEFAULT_LIST_LIMIT,
  PREVIEW_MAX_LIMIT,
  endpointParams,
  acceptsParam,
  isListParam,
} from './catalog';
export { ISO_COUNTRY_CODES } from './countries';
export { parseDateParam, DATE_PARAM_PATTERN } from './dates';
export { filterDigest } from './digest';
export { parseRestQuery } from './parse-query';
export { checkOnlyParams, refusePastedKeys } from './normalize';
export { parseToolArgs } from './parse-args';
export {
  restQuerySchema,
  restParamSchema,
  catalogParamSchema,
  toolArgsSchema,
  describeParam,
  dateParam,
  cursorParam,
} from './schemas';
export type {
  Endpoint,
  Filter,
  FilterName,
  ParamKind,
  ParamName,
  ParamSpec,
  ParseContext,
  ParsedRequest,
} from './types';
export {
  MAX_QUERY_LENGTH,
  parseKeywordQuery,
  type KeywordQuery,
  type QueryAlternative,
} from './keyword-query';
