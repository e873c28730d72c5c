// Headless Chromium for the browser tests: Debian's system binary through playwright-core (nothing is
// downloaded), on the fresh temporary profile playwright gives each launch, with the background services off
// (a closed network refuses them).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env['TAU2_EDGE_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export const browserMissing = (): string | null =>
  existsSync(CHROMIUM_PATH) ? null : `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set TAU2_EDGE_CHROMIUM)`;

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
  });

/** Screenshots are test artefacts, kept out of git. */
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's WCAG 2 A/AA audit of the page as it is (labels, names, contrast, landmarks…). The page's CSP forbids
 * injected scripts, so the context that opened it must bypass CSP (`bypassCSP: true`).
 */
export const accessibilityViolations = async (page: Page): Promise<AxeViolation[]> => {
  await page.addScriptTag({ content: axeSource });
  const result = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })`)) as {
    violations: AxeViolation[];
  };
  return result.violations;
};
