import type { NextFunction, Request, Response } from 'express';
import { KEY_LIKE_PARAMETERS } from '../../adapter/authenticate';
import { pastedKey, unknownParameter } from '../../domain/errors';
import { holdsKey } from '../../domain/key-shape';

/**
 * contract §6.14: a key in the query string is an unknown parameter on every endpoint, those that
 * read no parameter at all included (health, metrics, the docs page, llms.txt): a parameter named
 * like a key, or whose name or value holds one, is refused like any unknown parameter (its name
 * echoed with the key hidden: domain/errors.ts unknownParameter), and never read. Their other
 * parameters stay ignored, so that a probe or a scraper adding one of its own keeps working. The
 * routes that read parameters refuse every unknown one themselves, and a key as the value of one
 * they know (domain/filters/parse-query.ts).
 */
export function refuseKeyInQuery(req: Request, _res: Response, next: NextFunction): void {
  for (const [name, value] of Object.entries(req.query)) {
    // A key as the value (`api_key=oppk_…`, `region=oppk_…` on the preview, which this answers
    // first): the refusal that says why, as the routes that read parameters give.
    if (holdsKey(value)) {
      next(pastedKey(name));
      return;
    }
    if (KEY_LIKE_PARAMETERS.has(name.toLowerCase()) || holdsKey(name)) {
      next(unknownParameter(name));
      return;
    }
  }
  next();
}
