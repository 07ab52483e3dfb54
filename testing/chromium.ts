// Headless Chromium for the browser tests (e2e/*.browser.ts, the suite's *.e2e.ts), driven by playwright-core: the
// system's Chromium (never a downloaded one), with the flags CI's sandbox needs.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser; `extraArgs` e.g. `--host-resolver-rules=MAP *.myproj.test 127.0.0.1`. Close it when done. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extraArgs] });
}
