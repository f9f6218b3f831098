import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { findChromium } from '@stdreg/server-kit/testing';

type BrowserOptions = Pick<
  NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>,
  'locale' | 'javaScriptEnabled' | 'bypassCSP'
>;

export interface LaunchedChromium {
  context: BrowserContext;
  /** Closes the browser, then removes its profile. */
  close(): Promise<void>;
}

/** Chromium as findChromium finds it (never a downloaded one), headless, in a fresh profile of its own. */
export async function launchChromium(options: BrowserOptions): Promise<LaunchedChromium> {
  const profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  try {
    const found = await findChromium();
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: found.executablePath,
      env: { ...process.env, ...found.env },
      headless: true,
      args: found.args,
      ...options,
    });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
