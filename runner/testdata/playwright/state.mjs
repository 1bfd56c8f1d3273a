// The Playwright side of runner's TestStatePlaywright, which checks that
// Playwright and cdpskill read each other's storageState files.
//
//   node state.mjs load <chromium> <state.json> <url>...
//     opens each url in a context made with {storageState: state.json}
//     and prints {url: title}, each title once the page has set it
//     (pages whose title is "?" are still deciding)
//   node state.mjs save <chromium> <state.json> <url>...
//     opens each url in turn in a fresh context, each until its title
//     is not "?", then writes storageState({path, indexedDB: true})
import { chromium } from 'playwright-core';

const [mode, executablePath, file, ...urls] = process.argv.slice(2);
const decided = () => document.title !== '?';

const browser = await chromium.launch({ executablePath });
try {
  if (mode === 'load') {
    const context = await browser.newContext({ storageState: file });
    const titles = {};
    for (const url of urls) {
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(decided);
      titles[url] = await page.title();
    }
    console.log(JSON.stringify(titles));
  } else if (mode === 'save') {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const url of urls) {
      await page.goto(url);
      await page.waitForFunction(decided);
    }
    await context.storageState({ path: file, indexedDB: true });
  } else {
    throw new Error(`mode ${mode}: want load or save`);
  }
} finally {
  await browser.close();
}
