#!/usr/bin/env node
// Drives a `light view` page in a real headless Chromium through the DevTools protocol (over a pipe:
// no port, no npm package) and checks it against the files it was made from:
//   node tests/view_browser.js PAGE_DIR LINKED.json COUNTS.json [SCREENSHOT.png]
// PAGE_DIR: `light view`'s output for LINKED.json (its first image is checked); COUNTS.json:
// `light eval --counts`'s second line for the page's --gt, or "null" for a page without ground truth.
// Checks: the page loads from a file URL and asks for nothing but files; its map tiles load; the
// drawn words and links are the file's; hovering a word shows its text and its phrase; searching a
// phrase with two misread letters centres the map on it; the verdict counts equal the evaluator's.
// Exit 0 and "N passed, 0 failed" when all hold.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [pageDir, linkedPath, countsPath, screenshot] = process.argv.slice(2);
if (!pageDir || !linkedPath || !countsPath) {
  console.error('usage: view_browser.js PAGE_DIR LINKED.json COUNTS.json [SCREENSHOT.png]');
  process.exit(2);
}
const chromium = ['chromium', 'chromium-browser', 'google-chrome'].map((c) => {
  for (const dir of (process.env.PATH || '').split(':')) if (fs.existsSync(path.join(dir, c))) return path.join(dir, c);
  return null;
}).find(Boolean);
if (!chromium) {
  console.error('view_browser: no chromium on PATH (apt-get install chromium)');
  process.exit(77);
}

const linked = JSON.parse(fs.readFileSync(linkedPath, 'utf8'));
const counts = JSON.parse(fs.readFileSync(countsPath, 'utf8'));
const tile = linked[0];
const words = tile.groups.flat();
const links = tile.groups.reduce((n, g) => n + Math.max(0, g.length - 1), 0);

// ---- a DevTools client over --remote-debugging-pipe (fd 3: commands in, fd 4: replies out) ----
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'light-view-chromium-'));
const browser = spawn(chromium, [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', `--user-data-dir=${profile}`,
  '--no-first-run', '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--window-size=1400,900', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stderr.on('data', (d) => { stderr += d; });
const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];
let nextId = 1, buffer = '';
const pending = new Map(), listeners = [];
fromBrowser.on('data', (chunk) => {
  buffer += chunk.toString('utf8');
  let end;
  while ((end = buffer.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error)));
      else resolve(msg.result);
    } else if (msg.method) {
      for (const l of listeners) l(msg);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  toBrowser.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) { passed++; console.log(`ok: ${what}`); }
  else { failed++; console.log(`FAILED: ${what}${detail ? ': ' + detail : ''}`); }
}

async function main() {
  const { targetInfos } = await send('Target.getTargets');
  const page = targetInfos.find((t) => t.type === 'page');
  const { sessionId } = await send('Target.attachToTarget', { targetId: page.targetId, flatten: true });
  const cmd = (m, p) => send(m, p, sessionId);
  const requests = [], errors = [];
  let loaded = false;
  listeners.push((msg) => {
    if (msg.sessionId !== sessionId) return;
    if (msg.method === 'Network.requestWillBeSent') requests.push(msg.params.request.url);
    if (msg.method === 'Page.loadEventFired') loaded = true;
    if (msg.method === 'Runtime.exceptionThrown') errors.push(msg.params.exceptionDetails.text + ' ' + JSON.stringify(msg.params.exceptionDetails.exception || {}));
  });
  await cmd('Page.enable');
  await cmd('Runtime.enable');
  await cmd('Network.enable');
  await cmd('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false });
  const evaluate = async (expr) => {
    const r = await cmd('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`page: ${expr}: ${JSON.stringify(r.exceptionDetails)}`);
    return r.result.value;
  };
  const waitFor = async (expr, what, ms = 20000) => {
    const t0 = Date.now();
    while (Date.now() - t0 < ms) {
      if (await evaluate(expr)) return true;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what} (${expr})`);
  };

  const url = 'file://' + path.resolve(pageDir, 'index.html');
  await cmd('Page.navigate', { url });
  const t0 = Date.now();
  while (!loaded && Date.now() - t0 < 20000) await sleep(50);
  await waitFor('!!(window.lightView && lightView.ready)', 'the page to open its first map');
  await waitFor('lightView.tiles.loaded > 0', 'map tiles to load');
  await sleep(500);
  check(errors.length === 0, 'the page runs without a script error', errors.join('; '));
  const foreign = requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'));
  check(requests.length > 0 && foreign.length === 0, `loads from ${url} asking for files only (${requests.length} requests)`, foreign.join(', '));
  check(await evaluate('lightView.tiles.failed') === 0, 'every requested map tile loads');

  if (linked.length > 1) {
    const options = await evaluate("document.getElementById('image').hidden ? 0 : document.getElementById('image').options.length");
    check(options === linked.length, `a choice of the file's ${linked.length} images`, `options ${options}`);
  }

  // Words and links drawn: the file's.
  const drawnWords = await evaluate("document.querySelectorAll('#overlay polygon.word').length");
  check(drawnWords === words.length, `${words.length} words drawn`, `drawn ${drawnWords}`);
  const drawnLinks = await evaluate("document.querySelectorAll('#overlay path.arrow:not(.missed)').length");
  check(drawnLinks === links, `${links} links drawn`, `drawn ${drawnLinks}`);

  // Hover: the first word whose centre is not covered by another, its text and phrase shown.
  const target = await evaluate(`(() => {
    const img = lightView.data.images[0];
    const size = (p) => img.phrases[Number(p.dataset.phrase)].words.length;
    const all = Array.from(document.querySelectorAll('#overlay polygon.word'));
    // words of multi-word phrases first
    for (const p of all.filter((p) => size(p) > 1).concat(all.filter((p) => size(p) === 1))) {
      const r = p.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (r.width > 6 && r.height > 6 && document.elementFromPoint(x, y) === p) return { i: Number(p.dataset.i), x, y };
    }
    return null;
  })()`);
  check(target !== null, 'a word can be pointed at');
  if (target) {
    await cmd('Input.dispatchMouseEvent', { type: 'mouseMoved', x: target.x, y: target.y });
    await sleep(200);
    const tip = await evaluate("document.getElementById('tip').hidden ? null : document.getElementById('tip').textContent");
    let g = 0, seen = 0;
    while (seen + tile.groups[g].length <= target.i) seen += tile.groups[g++].length;
    const phrase = tile.groups[g].map((w) => w.text).filter((t) => t).join(' ');
    const text = words[target.i].text;
    check(tip !== null && tip.includes(text) && tip.includes('phrase: ' + phrase), `hovering word ${target.i} shows "${text}" of "${phrase}"`, tip);
    const prob = words[target.i].successor_probability;
    const last = tile.groups[g][tile.groups[g].length - 1] === words[target.i];
    if (prob !== undefined) check(tip.includes(`${last ? 'end of phrase' : 'link'} probability: ${prob.toFixed(2)}`), 'and its link probability', tip);
    await cmd('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 5, y: 5 });
  }

  // The page's search normalises as `light search` does: its form of every phrase equals the binary's.
  const differ = await evaluate(`lightView.data.images.flatMap((img) => img.phrases).filter((p) => lightView.normalize(p.text) !== p.n)
    .map((p) => p.text + ' -> ' + lightView.normalize(p.text) + ' / ' + p.n)`);
  check(differ.length === 0, "the page's normal form of every phrase is light search's", differ.slice(0, 5).join('; '));

  // Once the map's flight ends: whether its centre is that of group k's words (within 5 % of their box).
  const centresOn = async (k) => {
    await sleep(300);
    await waitFor(`(() => { const v = lightView.viewer.viewport; const a = v.getCenter(true), b = v.getCenter(false);
      return Math.hypot(a.x - b.x, a.y - b.y) < 1e-7 && v.getZoom(true) === v.getZoom(false); })()`, 'the flight to end');
    const c = await evaluate(`(() => { const item = lightView.viewer.world.getItemAt(0);
      const c = item.viewportToImageCoordinates(lightView.viewer.viewport.getCenter(true)); return [c.x, c.y]; })()`);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const w of tile.groups[k]) for (const [x, y] of w.vertices) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    const ok = Math.abs(c[0] - (x0 + x1) / 2) <= Math.max(2, 0.05 * (x1 - x0)) && Math.abs(c[1] - (y0 + y1) / 2) <= Math.max(2, 0.05 * (y1 - y0));
    return { ok, detail: `centre ${c.map(Math.round)}, phrase box ${[x0, y0, x1, y1].map(Math.round)}` };
  };

  // Search: the longest phrase, two letters misread, then Enter: the map flies to it.
  let best = -1;
  tile.groups.forEach((g, k) => {
    const t = g.map((w) => w.text || '').join(' ');
    if (best < 0 || t.length > tile.groups[best].map((w) => w.text || '').join(' ').length) best = k;
  });
  const name = tile.groups[best].map((w) => w.text || '').join(' ');
  // Two letters misread in words of five letters or more (a misread abbreviation, "Aqe." for "Ave.",
  // is no longer one, and would be more than two edits from "avenue").
  const chars = Array.from(name);
  const letters = [];
  let run = [];
  chars.concat([' ']).forEach((c, i) => {
    if (/\p{L}/u.test(c)) return void run.push(i);
    if (run.length >= 5) letters.push(...run);
    run = [];
  });
  const picks = letters.length >= 2 ? [letters[1], letters[letters.length - 2]] : letters;
  for (const i of picks) chars[i] = chars[i].toLowerCase() === 'q' ? 'z' : 'q';
  const query = chars.join('');
  await evaluate("document.getElementById('search').focus()");
  await cmd('Input.insertText', { text: query });
  await cmd('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' });
  await cmd('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
  const centred = await centresOn(best);
  check(centred.ok, `searching "${query}" centres the map on "${name}"`, centred.detail);
  const hits = await evaluate("document.querySelectorAll('#overlay polygon.word.hit').length");
  check(hits === tile.groups[best].length, `its ${tile.groups[best].length} words are marked`, `marked ${hits}`);
  const first = await evaluate("(document.querySelector('#phrases li') || {}).textContent || ''");
  check(first.startsWith(name), 'it heads the phrase list', first);

  // Clicking a phrase in the list (without a search) flies to it.
  await evaluate("document.getElementById('search').value = ''; document.getElementById('search').dispatchEvent(new Event('input'))");
  const pick = tile.groups.findIndex((g, k) => k !== best && g.length > 1);
  if (pick >= 0) {
    const li = await evaluate(`(() => { const li = document.querySelector('#phrases li[data-image="0"][data-phrase="${pick}"]');
      li.scrollIntoView({ block: 'center' }); const r = li.getBoundingClientRect(); return [r.left + 20, r.top + r.height / 2]; })()`);
    await cmd('Input.dispatchMouseEvent', { type: 'mousePressed', x: li[0], y: li[1], button: 'left', clickCount: 1 });
    await cmd('Input.dispatchMouseEvent', { type: 'mouseReleased', x: li[0], y: li[1], button: 'left', clickCount: 1 });
    const label = tile.groups[pick].map((w) => w.text || '').join(' ');
    const c = await centresOn(pick);
    check(c.ok, `clicking "${label}" in the list centres the map on it`, c.detail);
  }

  // Ground truth: the counts shown are the evaluator's, and as many links are drawn of each kind.
  if (counts) {
    const shown = await evaluate("['correct', 'wrong', 'missed'].map((k) => Number(document.getElementById('n-' + k).textContent))");
    check(shown[0] === counts.edges_correct && shown[1] === counts.edges_wrong && shown[2] === counts.edges_missed,
      `verdict counts shown equal light eval's (${counts.edges_correct} correct, ${counts.edges_wrong} wrong, ${counts.edges_missed} missed)`, shown.join(' '));
    const drawn = await evaluate("['correct', 'wrong', 'missed'].map((k) => document.querySelectorAll('#overlay path.arrow.' + k).length)");
    if (linked.length === 1) check(drawn[0] === counts.edges_correct && drawn[1] === counts.edges_wrong && drawn[2] === counts.edges_missed,
      'and as many links of each kind are drawn', drawn.join(' '));
  }

  if (screenshot) {
    // The README's picture: the whole tile, one phrase hovered.
    await evaluate(`(() => { const v = lightView.viewer; v.viewport.fitBounds(v.world.getItemAt(0).getBounds(), true);
      document.getElementById('search').value = ''; document.getElementById('search').dispatchEvent(new Event('input')); })()`);
    await sleep(800);
    if (target) {
      const pt = await evaluate(`(() => { const r = document.querySelector('#overlay polygon.word[data-i="${target.i}"]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`);
      await cmd('Input.dispatchMouseEvent', { type: 'mouseMoved', x: pt[0], y: pt[1] });
      await sleep(300);
    }
    const jpeg = /\.jpe?g$/i.test(screenshot);
    const shot = await cmd('Page.captureScreenshot', jpeg ? { format: 'jpeg', quality: 85 } : { format: 'png' });
    fs.writeFileSync(screenshot, Buffer.from(shot.data, 'base64'));
    console.log(`screenshot: ${screenshot}`);
  }
}

const timer = setTimeout(() => { console.log('FAILED: timed out (60 s)'); finish(1); }, 60000);
function finish(code) {
  clearTimeout(timer);
  console.log(`${passed} passed, ${failed} failed`);
  const done = () => {
    // Chromium's helpers may still be closing files in the profile: a few tries, then leave it.
    for (let i = 0; i < 5; i++) {
      try { fs.rmSync(profile, { recursive: true, force: true }); break; } catch (e) { /* busy */ }
    }
    process.exit(code || (failed > 0 ? 1 : 0));
  };
  if (browser.exitCode !== null) return done();
  browser.once('exit', () => setTimeout(done, 200));
  setTimeout(done, 3000);
  try { browser.kill('SIGTERM'); } catch (e) { done(); }
}
main().then(() => finish(0), (e) => {
  console.log('FAILED: ' + e.message);
  if (stderr) console.log(stderr.split('\n').slice(-5).join('\n'));
  failed++;
  finish(1);
});
