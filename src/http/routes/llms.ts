import { Router } from 'express';
import { llmsText } from '../llms-text';

/** decisions 11: GET /llms.txt, plain text, no key. */
export function llmsRoutes(): Router {
  const router = Router();
  router.get('/llms.txt', (req, res) => {
    // The host the agent reached us by, so the URLs in the guide are the ones it can call.
    // A Host that is not a plain host[:port] is not echoed into the text.
    const host = req.get('host') ?? '';
    const base = `${req.protocol}://${/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? host : 'localhost'}`;
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain; charset=utf-8').send(llmsText(base));
  });
  return router;
}
