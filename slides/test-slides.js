// test-slides.js - show each slide of a rendered deck in headless Chromium, screenshot it, check it
// SPDX-License-Identifier: MIT
//
// usage: node slides/test-slides.js build/slides/NN-topic.html OUTDIR   (a concept deck)
//        node slides/test-slides.js build/slides/solutions/NN-topic.html OUTDIR   (a solution deck)
// Prints one summary line; exits 1 if any slide has no text, an image that
// did not load, or content outside the slide (cut off). CHROME_PATH names
// the browser; it runs headless with no network features and a fresh profile.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const puppeteer = require('puppeteer-core');

async function checkSlide(page) {
  return page.evaluate(async () => {
    const problems = [];
    const svg = document.querySelector('svg[data-marpit-svg].bespoke-marp-active') ||
                document.querySelector('svg[data-marpit-svg]');
    const section = svg.querySelector('section');
    const box = section.getBoundingClientRect();
    const text = section.innerText.replace(/\s+/g, ' ').trim();
    if (text.length < 3) problems.push('no text');
    for (const img of section.querySelectorAll('img')) {
      if (!img.complete) await new Promise((r) => { img.onload = img.onerror = r; });
      const src = img.getAttribute('src');
      if (!img.naturalWidth) problems.push(`image ${src} did not load`);
      const r = img.getBoundingClientRect();
      if (r.width < 80 || r.height < 40) problems.push(`image ${src} shown only ${r.width|0}x${r.height|0}`);
    }
    // Content must end above the bottom padding, where the footer and page number sit.
    const padBottom = parseFloat(getComputedStyle(section).paddingBottom) || 0;
    const limit = box.bottom - padBottom + 4;
    for (const el of section.querySelectorAll('*')) {
      const bg = getComputedStyle(el).backgroundImage;
      const m = /url\("?([^")]+)"?\)/.exec(bg || '');
      if (m) {
        const ok = await new Promise((r) => { const i = new Image(); i.onload = () => r(i.naturalWidth > 0); i.onerror = () => r(false); i.src = m[1]; });
        if (!ok) problems.push(`background ${m[1]} did not load`);
      }
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const inFooter = el.closest('header, footer');
      if (!inFooter && r.bottom > limit && r.top < box.bottom) {
        const what = (el.innerText || el.getAttribute('src') || el.tagName).replace(/\s+/g, ' ').slice(0, 50);
        problems.push(`<${el.tagName.toLowerCase()}> "${what}" runs into the footer or off the slide`);
        continue;
      }
      if (r.bottom > box.bottom + 1 || r.right > box.right + 1 || r.left < box.left - 1 || r.top < box.top - 1) {
        const what = (el.innerText || el.getAttribute('src') || el.tagName).replace(/\s+/g, ' ').slice(0, 50);
        problems.push(`<${el.tagName.toLowerCase()}> "${what}" reaches outside the slide`);
      }
      if ((el.tagName === 'PRE' || el.tagName === 'TABLE') && el.scrollWidth > el.clientWidth + 1)
        problems.push(`<${el.tagName.toLowerCase()}> is ${el.scrollWidth - el.clientWidth}px too wide`);
    }
    const heading = (section.querySelector('h1,h2,h3') || {}).innerText || text.slice(0, 40);
    return { problems: [...new Set(problems)], heading, images: section.querySelectorAll('img').length };
  });
}

async function main() {
  const [html, outDir] = process.argv.slice(2);
  const chrome = process.env.CHROME_PATH || '/usr/bin/chromium';
  fs.mkdirSync(outDir, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'slides-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chrome, headless: true, userDataDir: profile,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--no-first-run'],
  });
  let failed = 0, images = 0, n = 0;
  const lines = [];
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    const url = 'file://' + path.resolve(html);
    await page.goto(url, { waitUntil: 'load' });
    n = await page.evaluate(() => document.querySelectorAll('svg[data-marpit-svg]').length);
    for (let i = 1; i <= n; i++) {
      await page.goto(`${url}#${i}`, { waitUntil: 'load' });
      await page.addStyleTag({ content: '.bespoke-marp-osc { display: none !important; }' });
      await page.evaluate(() => document.fonts.ready);
      await new Promise((r) => setTimeout(r, 150));
      const res = await checkSlide(page);
      await page.screenshot({ path: path.join(outDir, `slide-${String(i).padStart(2, '0')}.png`) });
      images += res.images;
      if (res.problems.length) {
        failed++;
        lines.push(`        slide ${i} (${res.heading}): ${res.problems.join('; ')}`);
      }
    }
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  if (n === 0) { console.log(`${html}: no slides found`); process.exit(1); }
  const summary = failed
    ? `${failed} of ${n} slides have problems (screenshots in ${outDir}/)\n${lines.join('\n')}`
    : `${n} slides, ${images} images, all shown whole (screenshots in ${outDir}/)`;
  console.log(summary);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log(`could not run Chromium: ${e.message}`); process.exit(1); });
