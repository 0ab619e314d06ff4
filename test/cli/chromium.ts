// Debian's headless Chromium driven by playwright-core (never a downloaded browser), as npm test's setup step (scripts/setup-machine.sh) installs it.
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling out, and a closed network refuses it.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A fresh browser with its own --user-data-dir under `parent` (which the caller removes). */
export async function launchChromium(parent: string): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium; npm test's setup step does)`);
  const userDataDir = await mkdtemp(join(parent, 'chromium-profile-'));
  return chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 900 } });
}
