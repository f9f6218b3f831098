import type { NextFunction, Request, Response } from 'express';
import { jsonInputProblem } from '@stdreg/server-kit';

const LIMIT_BYTES = 16 * 1024;

/** Parses the small urlencoded bodies of the sign-in and password forms (the JSON parser leaves them alone). */
export function formBodyMiddleware(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return next();
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    res.status(415).type('text/plain').send('Forms are sent as application/x-www-form-urlencoded.');
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let failed = false;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > LIMIT_BYTES && !failed) {
      failed = true;
      res.status(413).type('text/plain').send('The form is too large.');
      req.resume();
      return;
    }
    if (!failed) chunks.push(chunk);
  });
  req.on('end', () => {
    if (failed) return;
    req.body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const problem = jsonInputProblem(req.body);
    if (problem) {
      res.status(400).type('text/plain').send(`The form cannot be accepted: ${problem.message}.`);
      return;
    }
    next();
  });
  req.on('error', (error) => {
    if (!failed) next(error);
  });
}
